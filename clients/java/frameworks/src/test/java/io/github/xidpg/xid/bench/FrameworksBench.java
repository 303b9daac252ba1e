package io.github.xidpg.xid.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.github.xidpg.xid.Pg;
import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.jackson.XidModule;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;

/**
 * The goals, Xid against UUID in the same framework and the same run:
 * Jackson write + read of a list of records, Hibernate loading 10,000 rows by
 * key (one find per id in one session, and one query for all).  Rounds
 * alternate the two, in turn first; each ratio is of the medians.  Not a test: run by
 * frameworks/bench.sh.
 */
public final class FrameworksBench {
    public record WithXid(Xid id, String item) {
    }

    public record WithUuid(UUID id, String item) {
    }

    @Entity(name = "XRow")
    @Table(name = "bench_xid")
    public static class XRow {
        @Id
        @Column(columnDefinition = "public.xid")
        Xid id;
        int n;
        String item;
    }

    @Entity(name = "URow")
    @Table(name = "bench_uuid")
    public static class URow {
        @Id
        UUID id;
        int n;
        String item;
    }

    static volatile Object sink;

    // median of rounds of f, in ns per call of f; alternated with g by the caller
    static long[] pair(int rounds, LongSupplier a, LongSupplier b) {
        long[] ta = new long[rounds];
        long[] tb = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            if (r % 2 == 0) {
                ta[r] = a.getAsLong();
                tb[r] = b.getAsLong();
            } else {
                tb[r] = b.getAsLong();
                ta[r] = a.getAsLong();
            }
        }
        Arrays.sort(ta);
        Arrays.sort(tb);
        return new long[] {ta[rounds / 2], tb[rounds / 2]};
    }

    static void report(String what, long[] t, String unit, double scale) {
        System.out.printf("%-46s xid %10.1f %s   uuid %10.1f %s   ratio %.3f%n", what, t[0] / scale, unit, t[1] / scale,
                unit, (double) t[0] / t[1]);
    }

    public static void main(String[] args) throws Exception {
        int n = 1000;
        List<WithXid> xs = new ArrayList<>();
        List<WithUuid> us = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            xs.add(new WithXid(Xid.newXid(), "item" + i));
            us.add(new WithUuid(UUID.randomUUID(), "item" + i));
        }
        ObjectMapper json = new ObjectMapper().registerModule(new XidModule());
        ObjectWriter w = json.writer();
        ObjectReader rx = json.readerForListOf(WithXid.class);
        ObjectReader ru = json.readerForListOf(WithUuid.class);
        LongSupplier jx = () -> time(() -> {
            try {
                for (int k = 0; k < 20; k++) {
                    sink = rx.readValue(w.writeValueAsBytes(xs));
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        LongSupplier ju = () -> time(() -> {
            try {
                for (int k = 0; k < 20; k++) {
                    sink = ru.readValue(w.writeValueAsBytes(us));
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        pair(30, jx, ju); // warm-up
        report("Jackson write+read, 20 x 1000 records", pair(41, jx, ju), "ms", 1e6);
        if (!json.readValue(json.writeValueAsBytes(xs), json.getTypeFactory().constructCollectionType(List.class,
                WithXid.class)).equals(xs)) {
            throw new AssertionError("round trip");
        }

        // Hibernate: 10,000 rows of each table, same shape
        try (Connection c = Pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS bench_xid, bench_uuid");
            s.execute("CREATE TABLE bench_xid (id public.xid PRIMARY KEY, n int NOT NULL, item text NOT NULL)");
            s.execute("CREATE TABLE bench_uuid (id uuid PRIMARY KEY, n int NOT NULL, item text NOT NULL)");
            s.execute("INSERT INTO bench_xid SELECT xid_new(), g, 'item' || g FROM generate_series(1, 10000) g");
            s.execute("INSERT INTO bench_uuid SELECT gen_random_uuid(), g, 'item' || g FROM generate_series(1, 10000) g");
            s.execute("VACUUM ANALYZE bench_xid");
            s.execute("VACUUM ANALYZE bench_uuid");
        }
        try (SessionFactory sf = new Configuration().addAnnotatedClass(XRow.class).addAnnotatedClass(URow.class)
                .setProperty("hibernate.connection.url", Pg.url())
                .setProperty("hibernate.connection.username", Pg.user())
                .buildSessionFactory()) {
            List<Xid> xids = sf.fromSession(s -> s.createSelectionQuery("select id from XRow", Xid.class).getResultList());
            List<UUID> uids = sf.fromSession(s -> s.createSelectionQuery("select id from URow", UUID.class).getResultList());
            if (xids.size() != 10000 || uids.size() != 10000) {
                throw new AssertionError("rows");
            }
            LongSupplier all = () -> time(() -> sink = sf.fromSession(
                    s -> s.createSelectionQuery("from XRow", XRow.class).getResultList()));
            LongSupplier allU = () -> time(() -> sink = sf.fromSession(
                    s -> s.createSelectionQuery("from URow", URow.class).getResultList()));
            pair(5, all, allU);
            report("Hibernate: one query for 10,000 rows", pair(21, all, allU), "ms", 1e6);
            LongSupplier find = () -> time(() -> sf.inSession(s -> {
                for (Xid id : xids) {
                    sink = s.find(XRow.class, id);
                }
            }));
            LongSupplier findU = () -> time(() -> sf.inSession(s -> {
                for (UUID id : uids) {
                    sink = s.find(URow.class, id);
                }
            }));
            pair(2, find, findU);
            report("Hibernate: 10,000 finds by key, one session", pair(11, find, findU), "ms", 1e6);
        }
    }

    static long time(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return System.nanoTime() - t0;
    }
}
