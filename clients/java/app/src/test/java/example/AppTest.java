package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.XidRange;
import io.github.xidpg.xid.jdbc.XidJdbc;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Real queries through pgjdbc and XidJdbc against the server (PGHOST, PGPORT, PGUSER, PGDATABASE). */
class AppTest {
    @Test
    void insertSelectByIdAndPrefix() throws SQLException {
        String url = "jdbc:postgresql://" + System.getenv("PGHOST") + ":" + System.getenv("PGPORT") + "/"
                + System.getenv("PGDATABASE");
        try (Connection c = DriverManager.getConnection(url, System.getenv("PGUSER"), "");
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS app_orders");
            s.execute("CREATE TABLE app_orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)");
            Xid made;
            try (ResultSet rs = s.executeQuery("INSERT INTO app_orders (item) VALUES ('pear') RETURNING id")) {
                rs.next();
                made = XidJdbc.get(rs, 1);
            }
            assertNotNull(made);
            try (PreparedStatement ps = c.prepareStatement("SELECT item FROM app_orders WHERE id = ?")) {
                XidJdbc.set(ps, 1, made);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals("pear", rs.getString(1));
                }
            }
            String prefix = made.toString().substring(0, 7);
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM app_orders WHERE id ^@ ?")) {
                ps.setString(1, prefix);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(made, XidJdbc.get(rs, 1));
                }
            }
            XidRange r = Xid.prefixBounds(prefix).orElseThrow();
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM app_orders WHERE id BETWEEN ? AND ?")) {
                XidJdbc.set(ps, 1, r.lower());
                XidJdbc.set(ps, 2, r.upper());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(1, rs.getInt(1));
                }
            }
            System.out.println("app: pgjdbc and XidJdbc: inserted " + made + ", selected by id and by prefix");
        }
    }
}
