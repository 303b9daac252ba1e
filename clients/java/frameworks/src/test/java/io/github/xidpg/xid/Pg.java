package io.github.xidpg.xid;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The live server of test/clients.sh (PGHOST, PGPORT, PGUSER, PGDATABASE), on TCP. */
public final class Pg {
    private Pg() {
    }

    public static String url() {
        String host = System.getenv("PGHOST");
        assumeTrue(host != null && !host.startsWith("/"), "needs PGHOST on TCP (pgjdbc has no unix sockets)");
        return "jdbc:postgresql://" + host + ":" + System.getenv("PGPORT") + "/" + System.getenv("PGDATABASE");
    }

    public static String user() {
        return System.getenv("PGUSER");
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user(), "");
    }
}
