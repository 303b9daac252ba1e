package io.github.xidpg.xid;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The live server of ci/clients.sh (PGHOST, PGPORT, PGUSER, PGDATABASE), on TCP. */
public final class Pg {
    private Pg() {
    }

    /** An environment variable, or {@code dflt} when it is unset or empty. */
    public static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? dflt : v;
    }

    public static String url() {
        String host = System.getenv("PGHOST");
        assumeTrue(host != null && !host.isEmpty() && !host.startsWith("/"),
                "no server: set PGHOST (on TCP: pgjdbc has no unix sockets), PGPORT, PGUSER, PGDATABASE");
        return "jdbc:postgresql://" + host + ":" + env("PGPORT", "5432") + "/" + env("PGDATABASE", user());
    }

    public static String user() {
        return env("PGUSER", System.getProperty("user.name"));
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user(), "");
    }
}
