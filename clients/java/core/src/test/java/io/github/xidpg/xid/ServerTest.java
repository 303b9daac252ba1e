package io.github.xidpg.xid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.xidpg.xid.jdbc.XidJdbc;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

/** Cross-checks against a live server with xid installed (PGHOST, PGPORT, PGUSER, PGDATABASE), through pgjdbc. */
class ServerTest {
    static final SplittableRandom RND = new SplittableRandom();
    static Connection conn;
    static OffsetDateTime since;
    static int want;

    /** An environment variable, or {@code dflt} when it is unset or empty. */
    static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? dflt : v;
    }

    static String url(String db) {
        return "jdbc:postgresql://" + System.getenv("PGHOST") + ":" + env("PGPORT", "5432") + "/" + db;
    }

    static Connection connect(Properties extra) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", env("PGUSER", System.getProperty("user.name")));
        if (extra != null) {
            p.putAll(extra);
        }
        return DriverManager.getConnection(url(env("PGDATABASE", env("PGUSER", System.getProperty("user.name")))), p);
    }

    @BeforeAll
    static void setUp() throws SQLException {
        String host = System.getenv("PGHOST");
        assumeTrue(host != null && !host.isEmpty() && !host.startsWith("/"),
                "no server: set PGHOST (on TCP: pgjdbc has no unix sockets), PGPORT, PGUSER, PGDATABASE");
        conn = connect(null);
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL)");
            s.execute("INSERT INTO orders SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes'"
                    + " + random() * interval '1 minute'), 'o' || g FROM generate_series(1, 2880) g");
            s.execute("ANALYZE orders");
        }
        since = OffsetDateTime.now(ZoneOffset.UTC).minusDays(3).minusNanos(12_345_000);
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE xid_time(id) >= ?::timestamptz")) {
            ps.setObject(1, since);
            want = one(ps);
        }
        assertTrue(want > 0 && want < 2880);
    }

    @AfterAll
    static void tearDown() throws SQLException {
        if (conn != null) {
            conn.close();
        }
    }

    static int one(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static String str(Optional<Xid> x) {
        return x.map(Xid::toString).orElse("null");
    }

    static String hex(long v) {
        return String.format("%016x", v);
    }

    @Test
    void formatSameAsServer() throws SQLException {
        List<Long> payloads = new ArrayList<>(List.of(0L, 1L, 57L, 58L, (1L << 32) - 1, 1L << 32,
                Long.MAX_VALUE, Long.MIN_VALUE, -2L, -1L));
        for (int i = 0; i < 100_000; i++) {
            payloads.add(RND.nextLong() >>> (i % 64));
        }
        String[] hexes = payloads.stream().map(ServerTest::hex).toArray(String[]::new);
        try (PreparedStatement ps = conn.prepareStatement("SELECT decode(h, 'hex')::public.xid::text,"
                + " decode(h, 'hex')::public.xid FROM unnest(?::text[]) WITH ORDINALITY u(h, n) ORDER BY n")) {
            ps.setArray(1, conn.createArrayOf("text", hexes));
            try (ResultSet rs = ps.executeQuery()) {
                int i = 0;
                while (rs.next()) {
                    long v = payloads.get(i++);
                    assertEquals(rs.getString(1), Xid.ofPayload(v).toString(), Long.toUnsignedString(v));
                    assertEquals(Xid.ofPayload(v), XidJdbc.get(rs, 2));
                }
                assertEquals(payloads.size(), i);
            }
        }
    }

    @Test
    void parseSameAsServer() throws SQLException {
        Xid[] xs = new Xid[20_000];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = Xid.ofPayload(RND.nextLong());
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT encode(x::bytea, 'hex')"
                + " FROM unnest(?) WITH ORDINALITY u(x, n) ORDER BY n")) {
            XidJdbc.setArray(ps, 1, xs);
            try (ResultSet rs = ps.executeQuery()) {
                for (Xid x : xs) {
                    rs.next();
                    assertEquals(hex(x.payload()), rs.getString(1));
                }
            }
        }
    }

    @Test
    void uuidSameAsServer() throws SQLException {
        Xid[] xs = new Xid[20_008];
        long[] edges = {0L, 1L, (1L << 22) - 1, 1L << 22, Long.MAX_VALUE, Long.MIN_VALUE, -2L, -1L};
        for (int i = 0; i < xs.length; i++) {
            xs[i] = Xid.ofPayload(i < edges.length ? edges[i] : RND.nextLong() >>> (i % 64));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT x::uuid, x::uuid::public.xid::text"
                + " FROM unnest(?) WITH ORDINALITY u(x, n) ORDER BY n")) {
            XidJdbc.setArray(ps, 1, xs);
            try (ResultSet rs = ps.executeQuery()) {
                for (Xid x : xs) {
                    rs.next();
                    java.util.UUID u = rs.getObject(1, java.util.UUID.class);
                    assertEquals(u, XidUuid.toUuid(x), x.toString());
                    assertEquals(x, XidUuid.fromUuid(u));
                    assertEquals(x.toString(), rs.getString(2));
                }
                assertTrue(!rs.next());
            }
        }
        // uuids that are no xid: a v4, another v7, the nil uuid, one bit set below the 52
        java.util.UUID mine = XidUuid.toUuid(xs[20]);
        java.util.UUID[] bad = {java.util.UUID.randomUUID(), java.util.UUID.fromString("01890a5d-ac96-774b-bcce-b302099a8057"),
            new java.util.UUID(0, 0), new java.util.UUID(mine.getMostSignificantBits(), mine.getLeastSignificantBits() | 1)};
        try (PreparedStatement ps = conn.prepareStatement("SELECT ?::uuid::public.xid")) {
            for (java.util.UUID u : bad) {
                ps.setObject(1, u);
                SQLException srv = assertThrows(SQLException.class, ps::executeQuery, u.toString());
                XidException e = assertThrows(XidException.class, () -> XidUuid.fromUuid(u));
                assertEquals(((org.postgresql.util.PSQLException) srv).getServerErrorMessage().getMessage(), e.getMessage(), u.toString());
                assertEquals(srv.getSQLState(), e.getSQLState(), u.toString());
            }
        }
    }

    @Test
    void ulidSameAsServer() throws SQLException {
        Xid[] xs = new Xid[20_008];
        long[] edges = {0L, 1L, (1L << 22) - 1, 1L << 22, Long.MAX_VALUE, Long.MIN_VALUE, -2L, -1L};
        for (int i = 0; i < xs.length; i++) {
            xs[i] = Xid.ofPayload(i < edges.length ? edges[i] : RND.nextLong() >>> (i % 64));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_to_ulid(x), xid_from_ulid(xid_to_ulid(x))::text,"
                + " xid_from_ulid(lower(xid_to_ulid(x)))::text FROM unnest(?) WITH ORDINALITY u(x, n) ORDER BY n")) {
            XidJdbc.setArray(ps, 1, xs);
            try (ResultSet rs = ps.executeQuery()) {
                for (Xid x : xs) {
                    rs.next();
                    String u = rs.getString(1);
                    assertEquals(u, XidUlid.toUlid(x), x.toString());
                    assertEquals(x, XidUlid.fromUlid(u));
                    assertEquals(List.of(x.toString(), x.toString()), List.of(rs.getString(2), rs.getString(3)));
                }
                assertTrue(!rs.next());
            }
        }
        // ULIDs of another maker, any randomness: the 26 symbols, and the 16
        // bytes as a uuid (pgx_ulid's cast)
        String crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        java.util.UUID[] uuids = new java.util.UUID[5000];
        String[] texts = new String[uuids.length];
        for (int i = 0; i < uuids.length; i++) {
            long hi = (Xid.EPOCH_MS + RND.nextLong(Xid.MAX_MS + 1)) << 16 | RND.nextInt(1 << 16);
            long lo = RND.nextLong();
            uuids[i] = new java.util.UUID(hi, lo);
            char[] t = new char[26];
            for (int k = 25; k >= 0; k--) {
                t[k] = crockford.charAt((int) (lo & 31));
                lo = lo >>> 5 | hi << 59;
                hi >>>= 5;
            }
            texts[i] = new String(t);
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_from_ulid(t)::text, xid_from_ulid(u::uuid)::text"
                + " FROM unnest(?::text[], ?::text[]) WITH ORDINALITY a(t, u, n) ORDER BY n")) {
            ps.setArray(1, conn.createArrayOf("text", texts));
            ps.setArray(2, conn.createArrayOf("text", Arrays.stream(uuids).map(Object::toString).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                for (int i = 0; i < texts.length; i++) {
                    rs.next();
                    assertEquals(rs.getString(1), XidUlid.fromUlid(texts[i]).toString(), texts[i]);
                    assertEquals(rs.getString(2), XidUlid.fromUlid(uuids[i]).toString(), uuids[i].toString());
                }
                assertTrue(!rs.next());
            }
        }
        // flakes: every time an xid holds, and the edges of the 20 bits
        long top = (Xid.EPOCH_MS + Xid.MAX_MS - 1704067200000L) << 20 | ((1 << 20) - 1);
        long[] flakes = new long[10_004];
        flakes[1] = 1;
        flakes[2] = (1 << 20) - 1;
        flakes[3] = top;
        for (int i = 4; i < flakes.length; i++) {
            flakes[i] = RND.nextLong(top + 1);
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_from_ulid_flake(f)::text"
                + " FROM unnest(?::text[]::bigint[]) WITH ORDINALITY u(f, n) ORDER BY n")) {
            ps.setArray(1, conn.createArrayOf("text", Arrays.stream(flakes).mapToObj(f -> Long.toString(f)).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                for (long f : flakes) {
                    rs.next();
                    assertEquals(rs.getString(1), XidUlid.fromUlidFlake(f).toString(), Long.toString(f));
                }
                assertTrue(!rs.next());
            }
        }
        // what the server refuses: bad text, a first symbol above 7, a time an
        // xid cannot hold, a negative flake
        String[] bad = {"", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FAVX",
            "01ARZ3NDEKTSV4RRFFQ69G5FAU", "01arz3ndektsv4rrffq69g5fai", "8\u00e9" + "0".repeat(23), "8\u00e9" + "0".repeat(24),
            "00000000000000000000000000", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"};
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_from_ulid(?::text)")) {
            for (String u : bad) {
                ps.setString(1, u);
                SQLException srv = assertThrows(SQLException.class, ps::executeQuery, u);
                XidException e = assertThrows(XidException.class, () -> XidUlid.fromUlid(u));
                org.postgresql.util.ServerErrorMessage m = ((org.postgresql.util.PSQLException) srv).getServerErrorMessage();
                assertEquals(List.of(srv.getSQLState(), m.getMessage(), m.getDetail()),
                        List.of(e.getSQLState(), e.getMessage(), e.getDetail()), u);
            }
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_from_ulid_flake(?)")) {
            for (long f : new long[] {-1, Long.MIN_VALUE, top + 1, Long.MAX_VALUE}) {
                ps.setLong(1, f);
                SQLException srv = assertThrows(SQLException.class, ps::executeQuery, Long.toString(f));
                XidException e = assertThrows(XidException.class, () -> XidUlid.fromUlidFlake(f));
                org.postgresql.util.ServerErrorMessage m = ((org.postgresql.util.PSQLException) srv).getServerErrorMessage();
                assertEquals(List.of(srv.getSQLState(), m.getMessage(), m.getDetail()),
                        List.of(e.getSQLState(), e.getMessage(), e.getDetail()), Long.toString(f));
            }
        }
    }

    @Test
    void invalidInputSameAsServer() throws SQLException {
        String[] bad = {"", "5cnEkaefSd", "5cnEkaefSdu1", "5cnEk0efSdu", "5cnEkaefSdO", "I1111111111", "l1111111111",
            " 5cnEkaefSd", "5cnEkaefSd ", "5cnEkaefSdé", "2026-11-20", "jpXCZedGfVR", "jpXCZedGfWQ", "k1111111111",
            "zzzzzzzzzzz", "5cnEkae-Sdu", "5cnEkaéfSd"};
        // the server's own error for the text cast to xid (pg_input_error_info()
        // would do on 16 and later; the package is tested against 15 too)
        try (PreparedStatement ps = conn.prepareStatement("SELECT ?::text::public.xid")) {
            for (String s : bad) {
                ps.setString(1, s);
                org.postgresql.util.PSQLException srv =
                        assertThrows(org.postgresql.util.PSQLException.class, ps::executeQuery, s);
                org.postgresql.util.ServerErrorMessage m = srv.getServerErrorMessage();
                XidException e = assertThrows(XidException.class, () -> Xid.parse(s));
                assertEquals(m.getMessage(), e.getMessage(), s);
                assertEquals(m.getDetail(), e.getDetail(), s);
                assertEquals(m.getSQLState(), e.getSQLState(), s);
            }
        }
    }

    @Test
    void prefixBoundsSameAsServer() throws SQLException {
        List<String> prefixes = new ArrayList<>(List.of("", "j", "jp", "jq", "k", "z", "zz", "jpXCZedGfVQ",
                "jpXCZedGfVR", "jpXCZedGfV", "jpXCZedGfW", "5c0", "0", "l", " ", "5cnrQT7y4za1", "111111111111", "é", "%"));
        for (int i = 0; i < 3000; i++) {
            prefixes.add(Xid.ofPayload(RND.nextLong() >>> (i % 8)).toString().substring(0, i % 12));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_prefix_lower_bound(p), xid_prefix_upper_bound(p)"
                + " FROM unnest(?::text[]) WITH ORDINALITY u(p, n) ORDER BY n")) {
            ps.setArray(1, conn.createArrayOf("text", prefixes.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                for (String p : prefixes) {
                    rs.next();
                    Optional<XidRange> b = Xid.prefixBounds(p);
                    assertEquals(rs.getString(1) + " " + rs.getString(2),
                            str(b.map(XidRange::lower)) + " " + str(b.map(XidRange::upper)), p);
                }
            }
        }
    }

    @Test
    void likeBoundsSameAsServer() throws SQLException {
        List<String> patterns = new ArrayList<>(List.of("", "%", "_", "5cnrQT%", "5cnrQT%a", "5cnrQT_____", "5cnrQT____",
                "5cnrQT______", "5cnrQT_%", "5c\\nr%", "5c\\%", "abc\\\\", "%\\\\", "5cnrQT7y4za", "5cnrQT7y4za%",
                "5cnrQT7y4za1%", "jpXCZedGfVR%", "jq%", "5c0%", "___________", "__________", "%%%%", "5\\_%", "é%",
                "5cnrQT%\\%", "\\5cnrQT%", "jpXCZedGfV_"));
        for (int i = 0; i < 500; i++) {
            String s = Xid.ofPayload(RND.nextLong()).toString();
            int n = i % 12;
            String[] tails = {"%", "_".repeat(11 - n), "%" + s.substring(9), "_%"};
            patterns.add(s.substring(0, n) + tails[i % 4]);
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_like_lower_bound(p), xid_like_upper_bound(p)"
                + " FROM unnest(?::text[]) WITH ORDINALITY u(p, n) ORDER BY n")) {
            ps.setArray(1, conn.createArrayOf("text", patterns.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                for (String p : patterns) {
                    rs.next();
                    Optional<XidRange> b = Xid.likeBounds(p);
                    assertEquals(rs.getString(1) + " " + rs.getString(2),
                            str(b.map(XidRange::lower)) + " " + str(b.map(XidRange::upper)), p);
                }
            }
        }
    }

    @Test
    void likeLoneTrailingBackslashIsAnErrorOnBothSides() throws SQLException {
        for (String p : new String[] {"\u00e98Cdc9Wxaws%\\", "8Cdc9Wxaws%\\"}) {
            XidException e = assertThrows(XidException.class, () -> Xid.likeBounds(p), p);
            assertEquals("22025", e.getSQLState());
            for (String f : new String[] {"xid_like_lower_bound", "xid_like_upper_bound"}) {
                try (PreparedStatement ps = conn.prepareStatement("SELECT " + f + "(?)")) {
                    ps.setString(1, p);
                    SQLException se = assertThrows(SQLException.class, ps::executeQuery, f + "('" + p + "')");
                    assertEquals("22025", se.getSQLState(), se.getMessage());
                    assertTrue(se.getMessage().contains(e.getMessage()), se.getMessage());
                }
            }
            // LIKE itself is the text's: core raises 22025 only where its
            // matcher reaches the escape, so the answer (rows or error) is
            // id::text LIKE's
            assertEquals(likeOutcome("SELECT count(*) FROM orders WHERE id::text LIKE ?", p),
                    likeOutcome("SELECT count(*) FROM orders WHERE id LIKE ?", p), p);
        }
    }

    /** A count's text, or the SQLSTATE of the error the query raised. */
    private String likeOutcome(String sql, String pattern) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, pattern);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return "count " + rs.getLong(1);
            }
        } catch (SQLException e) {
            return "error " + e.getSQLState();
        }
    }

    @Test
    void timeBoundsSameAsServer() throws SQLException {
        Instant last = Xid.EPOCH.plusMillis(Xid.MAX_MS);
        List<Instant> times = new ArrayList<>(List.of(Xid.EPOCH, Xid.EPOCH.minusNanos(1000), Xid.EPOCH.plusNanos(1000),
                Instant.EPOCH, last, last.plusNanos(1000), last.plusMillis(1)));
        for (int i = 0; i < 2000; i++) {
            times.add(Xid.EPOCH.plusNanos(RND.nextLong(Xid.MAX_MS * 1000) * 1000));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_time_lower_bound(t, true), xid_time_lower_bound(t, false),"
                + " xid_time_upper_bound(t, true), xid_time_upper_bound(t, false)"
                + " FROM unnest(?::timestamptz[]) WITH ORDINALITY u(t, n) ORDER BY n")) {
            ps.setArray(1, conn.createArrayOf("text", times.stream().map(Instant::toString).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                for (Instant t : times) {
                    rs.next();
                    String server = rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4);
                    String ours = str(Xid.timeLowerBound(t, true)) + " " + str(Xid.timeLowerBound(t, false)) + " "
                            + str(Xid.timeUpperBound(t, true)) + " " + str(Xid.timeUpperBound(t, false));
                    assertEquals(server, ours, t.toString());
                }
            }
        }
    }

    @Test
    void fieldsSameAsServer() throws SQLException {
        Xid[] xs = new Xid[2000];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = Xid.ofPayload(RND.nextLong());
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT (extract(epoch FROM xid_time(x)) * 1000)::bigint, xid_random(x),"
                + " array_to_string(array(SELECT xid_node(x, b) FROM generate_series(0, 12) b), ',')"
                + " FROM unnest(?) WITH ORDINALITY u(x, n) ORDER BY n")) {
            XidJdbc.setArray(ps, 1, xs);
            try (ResultSet rs = ps.executeQuery()) {
                for (Xid x : xs) {
                    rs.next();
                    assertEquals(rs.getLong(1), x.time().toEpochMilli());
                    assertEquals(rs.getInt(2), x.random());
                    StringBuilder nodes = new StringBuilder();
                    for (int b = 0; b <= 12; b++) {
                        nodes.append(b == 0 ? "" : ",").append(x.node(b));
                    }
                    assertEquals(rs.getString(3), nodes.toString());
                }
            }
        }
        SQLException e = assertThrows(SQLException.class, () -> conn.createStatement().execute("SELECT xid_node(xid_new(), 13)"));
        XidException ours = assertThrows(XidException.class, () -> xs[0].node(13));
        assertEquals(e.getSQLState(), ours.getSQLState());
        assertTrue(e.getMessage().startsWith("ERROR: " + ours.getMessage()), e.getMessage());
    }

    static void nextMs() {
        long t = System.currentTimeMillis();
        while (System.currentTimeMillis() <= t) {
            Thread.onSpinWait();
        }
    }

    @Test
    void generatorInterleavedWithServer() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TEMP TABLE gen (id public.xid PRIMARY KEY, seq int NOT NULL)");
        }
        XidGenerator g = new XidGenerator();
        try (PreparedStatement client = conn.prepareStatement("INSERT INTO gen VALUES (?, ?)");
                PreparedStatement server = conn.prepareStatement("INSERT INTO gen VALUES (xid_new(), ?)")) {
            for (int i = 0; i < 400; i++) {
                nextMs();
                if (i % 2 == 0) {
                    long before = System.currentTimeMillis();
                    Xid x = g.next();
                    assertTrue(x.time().toEpochMilli() >= before && x.time().toEpochMilli() <= System.currentTimeMillis());
                    XidJdbc.set(client, 1, x);
                    client.setInt(2, i);
                    client.executeUpdate();
                } else {
                    server.setInt(1, i);
                    server.executeUpdate();
                }
            }
        }
        try (ResultSet rs = conn.createStatement().executeQuery("SELECT seq FROM gen ORDER BY id")) {
            for (int i = 0; i < 400; i++) {
                assertTrue(rs.next());
                assertEquals(i, rs.getInt(1));
            }
        }
        XidGenerator ng = new XidGenerator(4, 11);
        Xid[] ids = new Xid[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = ng.next();
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT array_to_string(array_agg(DISTINCT xid_node(x, 4)), ',') FROM unnest(?) x")) {
            XidJdbc.setArray(ps, 1, ids);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals("11", rs.getString(1));
            }
        }
    }

    @Test
    void typeIsFoundByOidNotName() throws SQLException {
        int ours = XidJdbc.oid(conn, "public");
        assertNotEquals(28, ours);
        BaseConnection bc = conn.unwrap(BaseConnection.class);
        // the trap: pgjdbc names both types "xid", so addDataType("xid") would take core's too
        assertEquals("xid", bc.getTypeInfo().getPGType(ours));
        assertEquals("xid", bc.getTypeInfo().getPGType(28));
        assertEquals(ours, bc.getTypeInfo().getPGType("public.xid"));
        assertEquals(28, bc.getTypeInfo().getPGType("xid"));
        assertThrows(SQLException.class, () -> XidJdbc.oid(conn, "nosuchschema"));
    }

    @Test
    void setStringFailsSetAndGetWork() throws SQLException {
        Xid first;
        try (ResultSet rs = conn.createStatement().executeQuery("SELECT id FROM orders ORDER BY id LIMIT 1")) {
            rs.next();
            first = XidJdbc.get(rs, 1);
            assertEquals(first, XidJdbc.get(rs, "id"));
            assertEquals(first.toString(), rs.getString(1));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
            // the trap: setString sends varchar
            ps.setString(1, first.toString());
            SQLException e = assertThrows(SQLException.class, ps::executeQuery);
            assertTrue(e.getMessage().contains("operator does not exist: public.xid = character varying"), e.getMessage());
            // what to write instead
            XidJdbc.set(ps, 1, first);
            assertEquals("o", firstItem(ps).substring(0, 1));
            ps.setObject(1, first, Types.OTHER);
            assertEquals("o", firstItem(ps).substring(0, 1));
            ps.setObject(1, first.toString(), Types.OTHER);
            assertEquals("o", firstItem(ps).substring(0, 1));
        }
        // an INSERT, and NULL
        conn.createStatement().execute("CREATE TEMP TABLE ins (id public.xid PRIMARY KEY, item text)");
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO ins (id, item) VALUES (?, 'x') RETURNING id, NULL::public.xid")) {
            Xid x = Xid.newXid();
            XidJdbc.set(ps, 1, x);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals(x, XidJdbc.get(rs, 1));
                assertNull(XidJdbc.get(rs, 2));
            }
        }
        // stringtype=unspecified makes setString work for the whole connection
        Properties p = new Properties();
        p.setProperty("stringtype", "unspecified");
        try (Connection c = connect(p); PreparedStatement ps = c.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
            ps.setString(1, first.toString());
            assertEquals("o", firstItem(ps).substring(0, 1));
        }
    }

    @Test
    void getTakesNoValueOfAnotherType() throws SQLException {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "-1"); // binary for the types pgjdbc knows (int8, bytea), from the first run
        try (Connection c = connect(p); PreparedStatement ps = c.prepareStatement(
                "SELECT 'abcdefgh'::text, 42::bigint, '\\x0000000000000001'::bytea, 42::bigint::text, ARRAY[42::bigint],"
                        + " '5cnEkaefSdu'::public.xid::text")) {
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                // 8 characters of text are no 8 bytes of an id
                XidException e = assertThrows(XidException.class, () -> XidJdbc.get(rs, 1));
                assertEquals("22P02", e.getSQLState());
                assertEquals("invalid input syntax for type xid: \"abcdefgh\"", e.getMessage());
                // a bigint or a bytea sent in binary is 8 bytes too
                assertEquals("42804", assertThrows(SQLException.class, () -> XidJdbc.get(rs, 2)).getSQLState());
                assertEquals("42804", assertThrows(SQLException.class, () -> XidJdbc.get(rs, 3)).getSQLState());
                assertEquals("22P02", assertThrows(XidException.class, () -> XidJdbc.get(rs, 4)).getSQLState());
                assertEquals("42804", assertThrows(SQLException.class, () -> XidJdbc.getArray(rs, 5)).getSQLState());
                // the text of an id is an id
                assertEquals(Xid.parse("5cnEkaefSdu"), XidJdbc.get(rs, 6));
            }
        }
    }

    static String firstItem(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void arrays() throws SQLException {
        Xid[] all;
        try (ResultSet rs = conn.createStatement().executeQuery("SELECT array_agg(id ORDER BY id), "
                + "ARRAY['11111111111', NULL, 'jpXCZedGfVQ']::public.xid[], '{}'::public.xid[], NULL::public.xid[] FROM orders")) {
            rs.next();
            all = XidJdbc.getArray(rs, 1);
            assertEquals(2880, all.length);
            assertArrayEquals(new Xid[] {Xid.MIN, null, Xid.MAX}, XidJdbc.getArray(rs, 2));
            assertEquals(0, XidJdbc.getArray(rs, 3).length);
            assertNull(XidJdbc.getArray(rs, 4));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE id = ANY(?)")) {
            XidJdbc.setArray(ps, 1, all[0], all[1], all[2]);
            assertEquals(3, one(ps));
        }
    }

    @Test
    void binaryTransfer() throws SQLException {
        Properties p = new Properties();
        int oid = XidJdbc.oid(conn, "public");
        int arrayOid;
        try (ResultSet rs = conn.createStatement().executeQuery("SELECT typarray FROM pg_type WHERE oid = " + oid)) {
            rs.next();
            arrayOid = rs.getInt(1);
        }
        p.setProperty("binaryTransferEnable", oid + "," + arrayOid);
        p.setProperty("prepareThreshold", "-1"); // binary from the first execution
        try (Connection c = connect(p); PreparedStatement ps = c.prepareStatement(
                "SELECT id, ARRAY[id, NULL] FROM orders WHERE id >= ? ORDER BY id LIMIT 50")) {
            XidJdbc.set(ps, 1, Xid.MIN);
            try (ResultSet rs = ps.executeQuery(); ResultSet text = conn.createStatement().executeQuery(
                    "SELECT id FROM orders ORDER BY id LIMIT 50")) {
                int n = 0;
                while (rs.next()) {
                    text.next();
                    // the trap: getString() of a binary value of a type pgjdbc does not know
                    assertNull(rs.getString(1));
                    Xid x = XidJdbc.get(rs, 1);
                    assertEquals(XidJdbc.get(text, 1), x);
                    assertArrayEquals(new Xid[] {x, null}, XidJdbc.getArray(rs, 2));
                    n++;
                }
                assertEquals(50, n);
            }
        }
    }

    @Test
    void timeQuery() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE id >= ?")) {
            // the trap: setTimestamp sends an untyped time, which the server reads as an xid
            ps.setTimestamp(1, Timestamp.from(since.toInstant()));
            SQLException e = assertThrows(SQLException.class, ps::executeQuery);
            assertEquals("22P02", e.getSQLState());
            // setObject with an OffsetDateTime binds timestamptz: id >= t means xid_time(id) >= t
            ps.setObject(1, since);
            assertEquals(want, one(ps));
            XidJdbc.setTime(ps, 1, since.toInstant());
            assertEquals(want, one(ps));
            // an Instant is refused by pgjdbc (no type to infer), not misread
            assertThrows(SQLException.class, () -> ps.setObject(1, since.toInstant()));
            // or the bound computed in the client
            XidJdbc.set(ps, 1, Xid.timeLowerBound(since.toInstant(), true).orElseThrow());
            assertEquals(want, one(ps));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE id >= ?::timestamptz")) {
            ps.setTimestamp(1, Timestamp.from(since.toInstant()));
            assertEquals(want, one(ps));
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE id < ?")) {
            ps.setObject(1, since);
            assertEquals(2880 - want, one(ps));
        }
    }

    @Test
    void timeQueryKeepsTheIndex() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("SET plan_cache_mode = force_generic_plan");
            s.execute("SET enable_seqscan = off");
            try (PreparedStatement ps = conn.prepareStatement("EXPLAIN (COSTS OFF) SELECT count(*) FROM orders WHERE id >= ?")) {
                ps.setObject(1, since);
                StringBuilder plan = new StringBuilder();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        plan.append(rs.getString(1)).append('\n');
                    }
                }
                assertTrue(plan.toString().contains("Index Only Scan using orders_pkey"), plan.toString());
                // pgjdbc's unnamed statement is planned with the value: the exact bound
                assertTrue(plan.toString().contains("Index Cond: (id >= '"
                        + Xid.timeLowerBound(since.toInstant(), true).orElseThrow() + "'::public.xid)"), plan.toString());
            } finally {
                s.execute("RESET plan_cache_mode");
                s.execute("RESET enable_seqscan");
            }
        }
    }

    @Test
    void copyIn() throws Exception {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TEMP TABLE copied (id public.xid PRIMARY KEY, n int)");
        }
        XidGenerator g = new XidGenerator();
        StringBuilder data = new StringBuilder();
        List<Xid> ids = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            Xid x = g.next();
            ids.add(x);
            data.append(x).append('\t').append(i).append('\n');
        }
        CopyManager cm = conn.unwrap(PGConnection.class).getCopyAPI();
        assertEquals(5000, cm.copyIn("COPY copied (id, n) FROM STDIN", new StringReader(data.toString())));
        try (ResultSet rs = conn.createStatement().executeQuery("SELECT id, n FROM copied ORDER BY id")) {
            for (int i = 0; i < 5000; i++) {
                assertTrue(rs.next());
                assertEquals(ids.get(i), XidJdbc.get(rs, 1));
                assertEquals(i, rs.getInt(2));
            }
        }
    }

    @Test
    void otherSchema() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS xid_clients_java_schema");
            s.execute("CREATE DATABASE xid_clients_java_schema");
        }
        Properties p = new Properties();
        p.setProperty("user", env("PGUSER", System.getProperty("user.name")));
        try (Connection c = DriverManager.getConnection(url("xid_clients_java_schema"), p)) {
            c.createStatement().execute("CREATE SCHEMA ids; CREATE EXTENSION xid SCHEMA ids");
            assertThrows(SQLException.class, () -> XidJdbc.oid(c, "public"));
            assertTrue(XidJdbc.oid(c, "ids") > 0);
            try (ResultSet rs = c.createStatement().executeQuery("SELECT ids.xid_new()")) {
                rs.next();
                assertTrue(XidJdbc.get(rs, 1).time().isAfter(Instant.now().minusSeconds(60)));
            }
            // arrays of the schema's type: no public.xid here
            try (PreparedStatement ps = c.prepareStatement("SELECT u::text FROM unnest(?) u")) {
                XidJdbc.setArray(ps, 1, "ids", Xid.MIN, null, Xid.MAX);
                try (ResultSet rs = ps.executeQuery()) {
                    List<String> got = new ArrayList<>();
                    while (rs.next()) {
                        got.add(rs.getString(1));
                    }
                    assertEquals(java.util.Arrays.asList("11111111111", null, "jpXCZedGfVQ"), got);
                }
                assertThrows(SQLException.class, () -> XidJdbc.setArray(ps, 1, Xid.MIN));
            }
        } finally {
            conn.createStatement().execute("DROP DATABASE xid_clients_java_schema WITH (FORCE)");
        }
    }

    @Test
    void uniqueAcrossManyIds() throws SQLException {
        // the server and the client generator never collide in one table
        Set<Xid> seen = new HashSet<>();
        XidGenerator g = new XidGenerator();
        try (PreparedStatement ps = conn.prepareStatement("SELECT xid_new() FROM generate_series(1, 20000)");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                assertTrue(seen.add(XidJdbc.get(rs, 1)));
                assertTrue(seen.add(g.next()));
            }
        }
        assertEquals(40000, seen.size());
    }
}
