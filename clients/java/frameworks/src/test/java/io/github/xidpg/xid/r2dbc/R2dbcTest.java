package io.github.xidpg.xid.r2dbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.xidpg.xid.Pg;
import io.github.xidpg.xid.Xid;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.R2dbcException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** r2dbc-postgresql with XidCodecRegistrar against the live server, text and binary results. */
class R2dbcTest {
    static PostgresqlConnection connect(String schema, boolean binary) {
        Pg.url(); // skips without PGHOST on TCP
        return new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration.builder()
                .host(System.getenv("PGHOST"))
                .port(Integer.parseInt(Pg.env("PGPORT", "5432")))
                .username(Pg.user())
                .database(Pg.env("PGDATABASE", Pg.user()))
                .forceBinary(binary)
                .codecRegistrar(XidCodecRegistrar.of(schema))
                .build()).create().block();
    }

    @ParameterizedTest(name = "binary results: {0}")
    @ValueSource(booleans = {false, true})
    void bindAndRead(boolean binary) {
        PostgresqlConnection c = connect("public", binary);
        try {
            String table = "r2dbc_items_" + binary;
            c.createStatement("DROP TABLE IF EXISTS " + table).execute().flatMap(r -> r.getRowsUpdated()).then().block();
            c.createStatement("CREATE TABLE " + table + " (id public.xid PRIMARY KEY, n int NOT NULL)").execute()
                    .flatMap(r -> r.getRowsUpdated()).then().block();
            Instant t = Instant.parse("2026-11-21T00:00:00Z");
            List<Xid> ids = List.of(Xid.ofInstant(t.minusSeconds(60), 1), Xid.ofInstant(t, 2), Xid.ofInstant(t.plusSeconds(60), 3));
            for (int i = 0; i < ids.size(); i++) {
                c.createStatement("INSERT INTO " + table + " VALUES ($1, $2)").bind("$1", ids.get(i)).bind("$2", i)
                        .execute().flatMap(r -> r.getRowsUpdated()).then().block();
            }
            List<Xid> got = c.createStatement("SELECT id FROM " + table + " WHERE id >= $1 ORDER BY id")
                    .bind("$1", Xid.MIN).execute()
                    .flatMap(r -> r.map((row, meta) -> row.get("id", Xid.class))).collectList().block();
            assertEquals(ids, got);
            // a time binds as timestamptz: id >= t is xid_time(id) >= t
            Long n = c.createStatement("SELECT count(*) FROM " + table + " WHERE id >= $1")
                    .bind("$1", OffsetDateTime.ofInstant(t, ZoneOffset.UTC)).execute()
                    .flatMap(r -> r.map((row, meta) -> row.get(0, Long.class))).blockFirst();
            assertEquals(2L, n);
            // NULL both ways
            Optional<Xid> none = c.createStatement("SELECT $1::public.xid").bindNull("$1", Xid.class).execute()
                    .flatMap(r -> r.map((row, meta) -> Optional.ofNullable(row.get(0, Xid.class)))).blockFirst();
            assertEquals(Optional.empty(), none);
            // the server's ids, and the text of one read as a String still
            Xid made = c.createStatement("SELECT xid_new()").execute()
                    .flatMap(r -> r.map((row, meta) -> row.get(0, Xid.class))).blockFirst();
            assertTrue(made.time().isAfter(Instant.now().minusSeconds(60)));
            String text = c.createStatement("SELECT '5cnEkaefSdu'::public.xid::text").execute()
                    .flatMap(r -> r.map((row, meta) -> row.get(0, String.class))).blockFirst();
            assertEquals("5cnEkaefSdu", text);
        } finally {
            c.close().block();
        }
    }

    @Test
    void typeIsFoundBySchema() {
        R2dbcException e = assertThrows(R2dbcException.class, () -> connect("nosuchschema", false));
        assertEquals("42704", e.getSqlState());
        assertEquals("type nosuchschema.xid does not exist", e.getMessage());
        // core's xid (transaction ids) is not ours: it is not decoded as an Xid
        PostgresqlConnection c = connect("public", false);
        try {
            assertThrows(Exception.class, () -> Flux.from(c.createStatement("SELECT '42'::pg_catalog.xid").execute())
                    .flatMap(r -> r.map((row, meta) -> row.get(0, Xid.class))).blockFirst());
        } finally {
            Mono.from(c.close()).block();
        }
    }
}
