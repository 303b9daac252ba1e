package io.github.xidpg.xid.spring;

import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.xidpg.xid.Pg;
import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.jdbc.XidJdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hibernate.resource.jdbc.spi.StatementInspector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The Spring Boot 3 application of {@link App} against the live server:
 * Hibernate and Spring Data JDBC repositories with Xid ids, a @PathVariable
 * Xid, Xid in JSON both ways, and a time query on the index.  The tables
 * are made by SQL (as a migration tool makes them) and Hibernate validates
 * them, spring.jpa.hibernate.ddl-auto=validate, Spring Boot's settings
 * otherwise.
 */
@SpringBootTest(classes = App.class)
@AutoConfigureMockMvc
class SpringAppTest {
    /** The SQL Hibernate sends. */
    public static final class Sql implements StatementInspector {
        private static final long serialVersionUID = 1L;
        static final List<String> SEEN = new CopyOnWriteArrayList<>();

        @Override
        public String inspect(String sql) {
            SEEN.add(sql);
            return sql;
        }
    }

    static Instant since;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry r) {
        r.add("spring.datasource.url", Pg::url);
        r.add("spring.datasource.username", Pg::user);
        r.add("spring.jpa.hibernate.ddl-auto", () -> "validate"); // the tables made by SQL below
        r.add("spring.jpa.open-in-view", () -> "false");
        r.add("spring.jpa.properties.hibernate.session_factory.statement_inspector", Sql.class::getName);
        r.add("spring.main.banner-mode", () -> "off");
    }

    @BeforeAll
    static void tables() throws SQLException {
        try (Connection c = Pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS purchases, notes");
            s.execute("CREATE TABLE purchases (id public.xid PRIMARY KEY, item text NOT NULL)");
            s.execute("CREATE TABLE notes (id public.xid PRIMARY KEY DEFAULT xid_new(), body text NOT NULL)");
            // ten days of purchases, one every 5 minutes
            s.execute("INSERT INTO purchases SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes'),"
                    + " 'p' || g FROM generate_series(1, 2880) g");
            s.execute("ANALYZE purchases");
        }
        since = Instant.now().minusSeconds(3600);
    }

    @Autowired
    MockMvc mvc;
    @Autowired
    App.PurchaseRepository purchases;
    @Autowired
    ObjectMapper json;

    static final String XID = "[1-9A-HJ-NP-Za-km-z]{11}";

    @Test
    void jpaWithPathVariableAndJson() throws Exception {
        Xid id = Xid.newXid();
        mvc.perform(post("/purchases").contentType(MediaType.APPLICATION_JSON)
                .content("{\"id\":\"" + id + "\",\"item\":\"pear\"}"))
                .andExpect(status().isOk())
                .andExpect(content().json("{\"id\":\"" + id + "\",\"item\":\"pear\"}", true));
        mvc.perform(get("/purchases/" + id))
                .andExpect(status().isOk())
                .andExpect(content().string("{\"id\":\"" + id + "\",\"item\":\"pear\"}"));
        assertEquals("pear", purchases.findById(id).orElseThrow().getItem());
        // another valid id: 404; no id: 400 from the binding (valueOf), before any query
        mvc.perform(get("/purchases/" + Xid.MIN)).andExpect(status().isNotFound());
        mvc.perform(get("/purchases/5cnEk0efSdu")).andExpect(status().isBadRequest());
        mvc.perform(get("/purchases/jpXCZedGfVR")).andExpect(status().isBadRequest());
        mvc.perform(post("/purchases").contentType(MediaType.APPLICATION_JSON)
                .content("{\"id\":\"5cnEk0efSdu\",\"item\":\"pear\"}")).andExpect(status().isBadRequest());
        // a map keyed by Xid, ids from a query parameter
        mvc.perform(get("/items").param("ids", id + "," + Xid.MIN))
                .andExpect(status().isOk())
                .andExpect(content().string("{\"" + id + "\":\"pear\"}"));
    }

    @Test
    void jdbcRepositoryWithServerMadeIds() throws Exception {
        String body = mvc.perform(post("/notes").contentType(MediaType.APPLICATION_JSON).content("{\"body\":\"hello\"}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.id", matchesPattern(XID)))
                .andReturn().getResponse().getContentAsString();
        App.Note n = json.readValue(body, App.Note.class);
        assertTrue(n.id().time().isAfter(Instant.now().minusSeconds(60)), n.toString());
        mvc.perform(get("/notes/" + n.id()))
                .andExpect(status().isOk())
                .andExpect(content().string("{\"id\":\"" + n.id() + "\",\"body\":\"hello\"}"));
        // an id the client makes
        Xid mine = Xid.newXid();
        mvc.perform(get("/notes/" + mine)).andExpect(status().isNotFound());
    }

    static List<String> plan(String sql, Object param) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection c = Pg.connect(); PreparedStatement ps = c.prepareStatement("EXPLAIN (COSTS OFF) " + sql)) {
            if (param instanceof Xid x) {
                XidJdbc.set(ps, 1, x);
            } else {
                ps.setObject(1, param);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.add(rs.getString(1).trim());
                }
            }
        }
        return lines;
    }

    @Test
    void timeQueriesUseTheIndex() throws Exception {
        int want;
        try (Connection c = Pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM purchases WHERE xid_time(id) >= ?")) {
            ps.setObject(1, OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                want = rs.getInt(1);
            }
        }
        assertTrue(want > 0 && want < 100, "rows in the last hour: " + want);

        // HQL: id >= the first id of the time, the SQL Hibernate sends, and its plan
        Sql.SEEN.clear();
        mvc.perform(get("/purchases").param("since", since.toString()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(want));
        String sql = Sql.SEEN.stream().filter(s -> s.contains("purchases")).findFirst().orElseThrow();
        assertTrue(sql.matches("select (\\w+)\\.id,\\1\\.item from purchases \\1 where \\1\\.id>=\\? order by \\1\\.id"), sql);
        List<String> plan = plan(sql, Xid.timeLowerBound(since, true).orElseThrow());
        assertTrue(plan.get(0).startsWith("Index Scan using purchases_pkey on purchases"), String.join("\n", plan));
        assertTrue(plan.get(1).matches("Index Cond: \\(id >= '" + XID + "'::(public\\.)?xid\\)"), String.join("\n", plan));

        // native SQL: id >= timestamptz, the extension's time comparison, on the index too
        Sql.SEEN.clear();
        mvc.perform(get("/purchases-by-time").param("since", since.toString()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(want));
        sql = Sql.SEEN.stream().filter(s -> s.contains("purchases")).findFirst().orElseThrow();
        assertEquals("select * from purchases where id >= cast(? as timestamptz) order by id", sql);
        plan = plan(sql, OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
        assertTrue(plan.get(0).startsWith("Index Scan using purchases_pkey on purchases"), String.join("\n", plan));
        assertTrue(plan.get(1).startsWith("Index Cond: (id >= "), String.join("\n", plan));
    }
}
