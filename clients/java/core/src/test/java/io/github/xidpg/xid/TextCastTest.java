package io.github.xidpg.xid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Would casts from text/varchar to public.xid on the server
 * make pgjdbc's setString work?  Every setString path, in a scratch database
 * with no cast, with assignment casts and with implicit casts; the outcome of
 * each (the SQLSTATE, or "ok") is printed as a table and checked.
 */
class TextCastTest {
    static final String[] PATHS = {
        "INSERT VALUES (?)",
        "UPDATE SET id = ?",
        "WHERE id = ?",
        "WHERE id = ANY(?) (setArray of varchar)",
        "WHERE id >= ? (a time as setString)",
        "WHERE id = ? with a bad id",
    };

    static String run(Connection c, int path, String id) {
        try {
            c.createStatement().execute("DELETE FROM t");
            c.createStatement().execute("INSERT INTO t VALUES ('5cnEkaefSdu', 1)");
            PreparedStatement ps = switch (path) {
                case 0 -> c.prepareStatement("INSERT INTO t VALUES (?, 2)");
                case 1 -> c.prepareStatement("UPDATE t SET id = ? WHERE n = 1");
                case 2, 5 -> c.prepareStatement("SELECT n FROM t WHERE id = ?");
                case 3 -> c.prepareStatement("SELECT n FROM t WHERE id = ANY(?)");
                default -> c.prepareStatement("SELECT n FROM t WHERE id >= ?");
            };
            switch (path) {
                case 3 -> ps.setArray(1, c.createArrayOf("varchar", new Object[] {id}));
                case 4 -> ps.setString(1, "2026-01-01 00:00:00+00");
                case 5 -> ps.setString(1, "5cnEk0efSdu");
                default -> ps.setString(1, id);
            }
            ps.execute();
            return "ok";
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }

    @Test
    void castsFromTextOnlyHelpAssignments() throws SQLException {
        String host = System.getenv("PGHOST");
        assumeTrue(host != null && !host.isEmpty() && !host.startsWith("/"),
                "no server: set PGHOST (on TCP: pgjdbc has no unix sockets), PGPORT, PGUSER, PGDATABASE");
        String user = ServerTest.env("PGUSER", System.getProperty("user.name"));
        String base = "jdbc:postgresql://" + host + ":" + ServerTest.env("PGPORT", "5432") + "/";
        Properties p = new Properties();
        p.setProperty("user", user);
        try (Connection admin = DriverManager.getConnection(base + ServerTest.env("PGDATABASE", user), p)) {
            admin.createStatement().execute("DROP DATABASE IF EXISTS xid_clients_java_casts");
            admin.createStatement().execute("CREATE DATABASE xid_clients_java_casts");
            Map<String, List<String>> table = new LinkedHashMap<>();
            try (Connection c = DriverManager.getConnection(base + "xid_clients_java_casts", p)) {
                Statement s = c.createStatement();
                s.execute("CREATE EXTENSION xid SCHEMA public");
                s.execute("CREATE TABLE t (id public.xid, n int)");
                String[][] setups = {
                    {"no cast"},
                    {"assignment", "CREATE CAST (varchar AS public.xid) WITH INOUT AS ASSIGNMENT",
                        "CREATE CAST (text AS public.xid) WITH INOUT AS ASSIGNMENT"},
                    {"implicit", "DROP CAST (varchar AS public.xid)", "DROP CAST (text AS public.xid)",
                        "CREATE CAST (varchar AS public.xid) WITH INOUT AS IMPLICIT",
                        "CREATE CAST (text AS public.xid) WITH INOUT AS IMPLICIT"},
                };
                for (String[] setup : setups) {
                    for (int i = 1; i < setup.length; i++) {
                        s.execute(setup[i]);
                    }
                    List<String> col = new ArrayList<>();
                    for (int path = 0; path < PATHS.length; path++) {
                        col.add(run(c, path, "5cnrQT7y4za"));
                    }
                    table.put(setup[0], col);
                }
            } finally {
                admin.createStatement().execute("DROP DATABASE xid_clients_java_casts WITH (FORCE)");
            }
            System.out.printf("%-42s %-8s %-10s %-8s%n", "pgjdbc setString path", "no cast", "assignment", "implicit");
            for (int path = 0; path < PATHS.length; path++) {
                System.out.printf("%-42s %-8s %-10s %-8s%n", PATHS[path], table.get("no cast").get(path),
                        table.get("assignment").get(path), table.get("implicit").get(path));
            }
            // 42804: column is of type public.xid but expression is of type
            // character varying; 42883: operator does not exist; 22P02: bad text
            assertEquals(List.of("42804", "42804", "42883", "42883", "42883", "42883"), table.get("no cast"));
            assertEquals(List.of("ok", "ok", "42883", "42883", "42883", "42883"), table.get("assignment"));
            assertEquals(List.of("ok", "ok", "ok", "ok", "22P02", "22P02"), table.get("implicit"));
        }
    }
}
