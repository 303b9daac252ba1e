package io.github.xidpg.xid.hibernate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.xidpg.xid.Pg;
import io.github.xidpg.xid.Xid;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.ColumnDefault;
import org.hibernate.annotations.Generated;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.cfg.Configuration;
import org.hibernate.type.SqlTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hibernate 6 with Xid arrays and server-made keys, schema generation included, against the live server. */
class HibernateTest {
    @Entity(name = "Batch")
    @Table(name = "hib_batches")
    public static class Batch {
        @Id
        @Column(columnDefinition = "public.xid")
        public Xid id;
        @JdbcTypeCode(SqlTypes.ARRAY)
        @Column(columnDefinition = "public.xid[]")
        public Xid[] members;
        public Xid[] plain;
        @JdbcTypeCode(SqlTypes.ARRAY)
        public List<Xid> list;
    }

    @Entity(name = "Ticket")
    @Table(name = "hib_tickets")
    public static class Ticket {
        @Id
        @Generated
        @ColumnDefault("xid_new()")
        public Xid id;
        public String body;
    }

    @Entity(name = "Tag")
    @Table(name = "hib_tags")
    public static class Tag {
        @Id
        public Xid id;
        public Xid[] refs;
    }

    @TempDir
    Path tmp;

    final List<String> sql = new CopyOnWriteArrayList<>();

    SessionFactory factory(Path ddl) {
        return new Configuration().addAnnotatedClass(Batch.class).addAnnotatedClass(Ticket.class)
                .setStatementInspector(q -> {
                    sql.add(q);
                    return q;
                })
                .setProperty("hibernate.connection.url", Pg.url())
                .setProperty("hibernate.connection.username", Pg.user())
                .setProperty("jakarta.persistence.schema-generation.database.action", "drop-and-create")
                .setProperty("hibernate.hbm2ddl.halt_on_error", "true")
                .setProperty("jakarta.persistence.schema-generation.scripts.action", "create")
                .setProperty("jakarta.persistence.schema-generation.scripts.create-target", ddl.toString())
                .buildSessionFactory();
    }

    @Test
    void arraysAndServerMadeKeys() throws Exception {
        Path ddl = tmp.resolve("create.sql");
        try (SessionFactory sf = factory(ddl)) {
            // schema generation: public.xid (never the bare xid), its arrays, the server's default for the key
            String script = Files.readString(ddl);
            assertTrue(script.contains("create table hib_batches (id public.xid not null, list public.xid array,"
                    + " members public.xid[], plain public.xid array, primary key (id))"), script);
            assertTrue(script.contains("id public.xid default xid_new() not null"), script);
            assertFalse(script.contains("identity"), script);

            // Xid[] and List<Xid> attributes: NULL elements, empty and NULL arrays
            Xid a = Xid.newXid();
            Xid b = Xid.ofInstant(Instant.parse("2026-11-21T00:00:00Z"), 5);
            Xid c = Xid.ofInstant(Instant.parse("2026-11-21T00:00:00Z"), 6);
            Batch one = new Batch();
            one.id = a;
            one.members = new Xid[] {a, b, null};
            one.plain = new Xid[0];
            one.list = List.of(c, b);
            Batch two = new Batch();
            two.id = b;
            sf.inTransaction(s -> {
                s.persist(one);
                s.persist(two);
            });
            Batch back = sf.fromSession(s -> s.find(Batch.class, a));
            assertArrayEquals(new Xid[] {a, b, null}, back.members);
            assertArrayEquals(new Xid[0], back.plain);
            assertEquals(List.of(c, b), back.list);
            Batch none = sf.fromSession(s -> s.find(Batch.class, b));
            assertNull(none.members);
            assertNull(none.list);
            assertEquals("{" + a + "," + b + ",NULL}", sf.fromSession(s -> s.createNativeQuery(
                    "select members::text from hib_batches where id = :id", String.class).setParameter("id", a)
                    .getSingleResult()));

            // an array parameter: id = any(:ids) in SQL, array_contains in HQL, and in (:list)
            Xid[] ids = {a, c};
            assertEquals(List.of(a), sf.fromSession(s -> s.createNativeQuery(
                    "select * from hib_batches where id = any(:ids)", Batch.class)
                    .setParameter("ids", ids).getResultList()).stream().map(x -> x.id).toList());
            assertEquals(List.of(a), sf.fromSession(s -> s.createSelectionQuery(
                    "select id from Batch where array_contains(:ids, id)", Xid.class)
                    .setParameter("ids", ids).getResultList()));
            assertEquals(List.of(b, a), sf.fromSession(s -> s.createSelectionQuery(
                    "select id from Batch where id in :ids order by id", Xid.class)
                    .setParameter("ids", List.of(a, b)).getResultList()));
            // an id in an array column: in SQL (HQL's array_contains(members, :x) sends array[?], a text[])
            assertEquals(List.of(a), sf.fromSession(s -> s.createNativeQuery(
                    "select * from hib_batches where :x = any(members)", Batch.class)
                    .setParameter("x", b).getResultList()).stream().map(x -> x.id).toList());

            // the server makes the key (DEFAULT xid_new()); Hibernate reads it back in the insert
            Ticket t = new Ticket();
            t.body = "hello";
            sql.clear();
            sf.inTransaction(s -> s.persist(t));
            assertEquals(List.of("insert into hib_tickets (body) values (?) returning id"), sql);
            assertNotNull(t.id);
            assertTrue(t.id.time().isAfter(Instant.now().minusSeconds(60)), t.id.toString());
            assertEquals("hello", sf.fromSession(s -> s.find(Ticket.class, t.id)).body);
            assertEquals(t.id, sf.fromSession(s -> s.createSelectionQuery("select id from Ticket where body = 'hello'",
                    Xid.class).getSingleResult()));
        }
    }

    /**
     * hbm2ddl.auto=validate (Spring Boot's spring.jpa.hibernate.ddl-auto=validate) on tables made by SQL,
     * as a migration tool makes them: xid keys, a server-made one, xid[] columns; a text column where an
     * Xid is mapped is still refused.
     */
    @Test
    void validatesTablesMadeBySql() throws Exception {
        try (Connection c = Pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS hib_batches, hib_tickets");
            s.execute("CREATE TABLE hib_batches (id public.xid PRIMARY KEY, list public.xid[], members public.xid[],"
                    + " plain public.xid[])");
            s.execute("CREATE TABLE hib_tickets (id public.xid PRIMARY KEY DEFAULT xid_new(), body text)");
        }
        try (SessionFactory sf = new Configuration().addAnnotatedClass(Batch.class).addAnnotatedClass(Ticket.class)
                .setProperty("hibernate.connection.url", Pg.url())
                .setProperty("hibernate.connection.username", Pg.user())
                .setProperty("hibernate.hbm2ddl.auto", "validate")
                .buildSessionFactory()) {
            Ticket t = new Ticket();
            t.body = "validated";
            sf.inTransaction(s -> s.persist(t));
            assertNotNull(t.id);
        }
        try (Connection c = Pg.connect(); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE hib_tickets ALTER id DROP DEFAULT, ALTER id TYPE text");
        }
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> new Configuration()
                .addAnnotatedClass(Ticket.class)
                .setProperty("hibernate.connection.url", Pg.url())
                .setProperty("hibernate.connection.username", Pg.user())
                .setProperty("hibernate.hbm2ddl.auto", "validate")
                .buildSessionFactory().close());
        assertTrue(String.valueOf(e.getMessage()).contains("wrong column type encountered in column [id] in table [hib_tickets]"),
                e.toString());
        try (Connection c = Pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE hib_tickets");
        }
    }

    /** The extension in schema ids of another database: the setting io.github.xidpg.xid.schema. */
    @Test
    void otherSchema() throws Exception {
        String db = "xid_clients_java_hibernate";
        try (Connection c = Pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + db);
            s.execute("CREATE DATABASE " + db);
        }
        // the schema on the search path too: the operators (=, <, ...) are the extension's
        String url = Pg.url().replaceFirst("/[^/]*$", "/" + db) + "?currentSchema=public,ids";
        try {
            try (Connection c = DriverManager.getConnection(url, Pg.user(), ""); Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA ids; CREATE EXTENSION xid SCHEMA ids");
            }
            Path ddl = tmp.resolve("ids.sql");
            try (SessionFactory sf = new Configuration().addAnnotatedClass(Tag.class)
                    .setProperty("hibernate.connection.url", url)
                    .setProperty("hibernate.connection.username", Pg.user())
                    .setProperty(XidTypeContributor.SCHEMA, "ids")
                    .setProperty("jakarta.persistence.schema-generation.database.action", "create")
                    .setProperty("hibernate.hbm2ddl.halt_on_error", "true")
                    .setProperty("jakarta.persistence.schema-generation.scripts.action", "create")
                    .setProperty("jakarta.persistence.schema-generation.scripts.create-target", ddl.toString())
                    .buildSessionFactory()) {
                String script = Files.readString(ddl);
                assertTrue(script.contains("create table hib_tags (id ids.xid not null, refs ids.xid array, primary key (id))"),
                        script);
                Tag t = new Tag();
                t.id = Xid.MIN;
                t.refs = new Xid[] {Xid.MAX, null};
                sf.inTransaction(s -> s.persist(t));
                assertArrayEquals(new Xid[] {Xid.MAX, null}, sf.fromSession(s -> s.find(Tag.class, Xid.MIN)).refs);
                assertEquals(List.of(Xid.MIN), sf.fromSession(s -> s.createNativeQuery(
                        "select * from hib_tags where id = any(:ids)", Tag.class)
                        .setParameter("ids", new Xid[] {Xid.MIN, Xid.MAX}).getResultList()).stream().map(x -> x.id).toList());
            }
        } finally {
            try (Connection c = Pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE " + db + " WITH (FORCE)");
            }
        }
    }
}
