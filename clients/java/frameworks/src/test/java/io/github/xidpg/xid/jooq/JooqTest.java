package io.github.xidpg.xid.jooq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.xidpg.xid.Pg;
import io.github.xidpg.xid.Xid;
import java.sql.Connection;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/** jOOQ with XidBinding against the live server. */
class JooqTest {
    static final Table<?> ORDERS = DSL.table(DSL.name("jooq_orders"));
    static final Field<Xid> ID = DSL.field(DSL.name("id"), XidBinding.XID);
    static final Field<String> ITEM = DSL.field(DSL.name("item"), SQLDataType.CLOB);

    @Test
    void insertSelectAndTime() throws Exception {
        try (Connection conn = Pg.connect()) {
            DSLContext db = DSL.using(conn, SQLDialect.POSTGRES);
            db.execute("DROP TABLE IF EXISTS jooq_orders");
            db.execute("CREATE TABLE jooq_orders (id public.xid PRIMARY KEY, item text NOT NULL)");
            Instant t = Instant.parse("2026-11-21T00:00:00Z");
            Xid a = Xid.ofInstant(t.minusMillis(1), 7);
            Xid b = Xid.ofInstant(t, 8);
            db.insertInto(ORDERS, ID, ITEM).values(a, "apple").values(b, "pear").execute();

            Record2<Xid, String> r = db.select(ID, ITEM).from(ORDERS).where(ID.eq(b)).fetchOne();
            assertEquals(b, r.value1());
            assertEquals("pear", r.value2());
            // the SQL: a bind variable cast to the type, or an inlined literal
            assertEquals("select \"id\", \"item\" from \"jooq_orders\" where \"id\" = ?::\"public\".xid",
                    db.select(ID, ITEM).from(ORDERS).where(ID.eq(b)).getSQL());
            assertEquals("select \"id\" from \"jooq_orders\" where \"id\" = '" + b + "'::\"public\".xid",
                    db.renderInlined(db.select(ID).from(ORDERS).where(ID.eq(b))));
            assertEquals(List.of(b), db.resultQuery(db.renderInlined(db.select(ID).from(ORDERS).where(ID.eq(b)))).coerce(ID).fetch(ID));
            // by time: the first id of a time as a key bound, or the extension's xid >= timestamptz
            assertEquals(List.of(b), db.select(ID).from(ORDERS).where(ID.ge(Xid.timeLowerBound(t, true).orElseThrow())).fetch(ID));
            assertEquals(List.of(b), db.select(ID).from(ORDERS)
                    .where(DSL.condition("{0} >= {1}", ID, DSL.val(OffsetDateTime.ofInstant(t, ZoneOffset.UTC)))).fetch(ID));
            // NULL, and the server's ids
            assertNull(db.select(DSL.inline(null, XidBinding.XID)).fetchOne().value1());
            Xid made = db.select(DSL.field("xid_new()", XidBinding.XID)).fetchOne().value1();
            assertEquals(true, made.time().isAfter(Instant.now().minusSeconds(60)));
        }
    }

    static final Table<?> BATCHES = DSL.table(DSL.name("jooq_batches"));
    static final Field<Xid[]> MEMBERS = DSL.field(DSL.name("members"), XidBinding.XID_ARRAY);

    @Test
    void arrays() throws Exception {
        try (Connection conn = Pg.connect()) {
            DSLContext db = DSL.using(conn, SQLDialect.POSTGRES);
            db.execute("DROP TABLE IF EXISTS jooq_batches");
            db.execute("CREATE TABLE jooq_batches (id public.xid PRIMARY KEY, members public.xid[])");
            Instant t = Instant.parse("2026-11-21T00:00:00Z");
            Xid a = Xid.ofInstant(t, 1);
            Xid b = Xid.ofInstant(t, 2);
            Xid c = Xid.ofInstant(t, 3);
            db.insertInto(BATCHES, ID, MEMBERS).values(a, new Xid[] {b, null, c}).values(b, new Xid[0])
                    .values(c, null).execute();

            // an Xid[] column both ways, NULL elements, empty and NULL arrays
            assertArrayEquals(new Xid[] {b, null, c}, db.select(MEMBERS).from(BATCHES).where(ID.eq(a)).fetchOne(MEMBERS));
            assertArrayEquals(new Xid[0], db.select(MEMBERS).from(BATCHES).where(ID.eq(b)).fetchOne(MEMBERS));
            assertNull(db.select(MEMBERS).from(BATCHES).where(ID.eq(c)).fetchOne(MEMBERS));

            // id = ANY(one public.xid[] parameter), where DSL.any(ids) throws (jOOQ makes no array
            // type of a data type with a custom binding)
            Xid[] ids = {a, c, Xid.MIN};
            Exception e = assertThrows(Exception.class, () -> db.select(ID).from(BATCHES).where(ID.eq(DSL.any(ids))).fetch());
            assertTrue(e.getMessage().contains("Cannot create array data types from custom data types"), e.getMessage());
            assertEquals(List.of(a, c), db.select(ID).from(BATCHES).where(ID.eq(XidBinding.any(ids))).orderBy(ID).fetch(ID));
            assertEquals("select \"id\" from \"jooq_batches\" where \"id\" = any (?::\"public\".xid[])",
                    db.select(ID).from(BATCHES).where(ID.eq(XidBinding.any(ids))).getSQL());
            String inlined = db.renderInlined(db.select(ID).from(BATCHES).where(ID.eq(XidBinding.any(ids))));
            assertTrue(inlined.endsWith("= any ('{" + a + "," + c + "," + Xid.MIN + "}'::\"public\".xid[])"), inlined);
            assertEquals(List.of(a, c), db.resultQuery(inlined + " order by 1").coerce(ID).fetch(ID));
            assertEquals(List.of(b), db.select(ID).from(BATCHES).where(ID.ne(XidBinding.all(ids))).fetch(ID));
            assertEquals(List.of(), db.select(ID).from(BATCHES).where(ID.eq(XidBinding.any())).fetch(ID));
            // an id in an array column, and IN of a list
            assertEquals(List.of(a), db.select(ID).from(BATCHES).where(DSL.val(c, XidBinding.XID).eq(XidBinding.any(MEMBERS))).fetch(ID));
            assertEquals(List.of(a, c), db.select(ID).from(BATCHES).where(ID.in(List.of(a, c))).orderBy(ID).fetch(ID));
        }
    }
}
