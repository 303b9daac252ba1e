// ci/pooler/Jdbc.java: pgjdbc through PgBouncer in transaction mode
// (ci/pooler.sh), as ci/pooler/drivers.py does for psycopg and asyncpg.
// Debian's libpostgresql-jdbc-java; run as a single source file (java
// -cp postgresql.jar Jdbc.java).
//
// Usage: java Jdbc.java DIRECT_PORT POOLER_PORT PROBES_JSON
//
// Eight clients, each with two connections of its own to PgBouncer (two
// server connections), pgjdbc's default prepareThreshold (5: from the fifth
// execution of a PreparedStatement on, a named server-side statement): on
// one xid comes as text, on the other in binary (binaryTransferEnable with
// xid's OID: 8 bytes, a big-endian int64).  Every result is compared with a
// direct connection's rows; then inserts with DEFAULT xid_new() ...
// RETURNING id.
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Jdbc {
	static final int CLIENTS = 8, ROUNDS = 6, INSERTS = 25;
	static final String[][] QUERIES = {
		{"prefix ^@", "SELECT id FROM orders WHERE id ^@ ? ORDER BY id", "prefix"},
		{"LIKE", "SELECT id FROM orders WHERE id LIKE ? ORDER BY id", "pattern"},
		{"time window", "SELECT id FROM orders WHERE id >= ?::timestamptz AND id < ?::timestamptz ORDER BY id", "t0 t1"},
		{"<@ prefix range", "SELECT id FROM orders WHERE id <@ xid_prefix_range(?) ORDER BY id", "prefix"},
		{"<@ time range", "SELECT id FROM orders WHERE id <@ xid_time_range(tstzrange(?, ?)) ORDER BY id", "t0 t1"},
	};
	static int failures = 0;

	static void report(boolean ok, String text) {
		if (!ok)
			failures++;
		System.out.println((ok ? "ok   " : "FAIL ") + text);
	}

	// the probes: a JSON array of flat objects of strings
	static List<Map<String, String>> probes(String file) throws Exception {
		List<Map<String, String>> out = new ArrayList<>();
		Matcher obj = Pattern.compile("\\{([^}]*)\\}").matcher(Files.readString(Path.of(file)));
		while (obj.find()) {
			Map<String, String> m = new HashMap<>();
			Matcher kv = Pattern.compile("\"([^\"]*)\"\\s*:\\s*\"([^\"]*)\"").matcher(obj.group(1));
			while (kv.find())
				m.put(kv.group(1), kv.group(2));
			out.add(m);
		}
		return out;
	}

	static void bind(PreparedStatement ps, Map<String, String> p, String fields) throws Exception {
		int i = 1;
		for (String f : fields.split(" ")) {
			if (f.startsWith("t"))
				ps.setObject(i++, OffsetDateTime.parse(p.get(f)));
			else
				ps.setString(i++, p.get(f));
		}
	}

	static List<String> texts(PreparedStatement ps) throws Exception {
		List<String> out = new ArrayList<>();
		try (ResultSet rs = ps.executeQuery()) {
			while (rs.next())
				out.add(rs.getString(1));
		}
		return out;
	}

	static List<Long> longs(PreparedStatement ps, boolean raw) throws Exception {
		List<Long> out = new ArrayList<>();
		try (ResultSet rs = ps.executeQuery()) {
			while (rs.next()) {
				if (!raw) {
					out.add(rs.getLong(1));
					continue;
				}
				byte[] b = rs.getBytes(1);
				out.add(b.length == 8 ? ByteBuffer.wrap(b).getLong() : Long.MIN_VALUE);
			}
		}
		return out;
	}

	public static void main(String[] args) throws Exception {
		try {
			run(args);
		} catch (Exception e) {
			report(false, "pgjdbc: " + e);
		}
		System.exit(failures > 0 ? 1 : 0);
	}

	static void run(String[] args) throws Exception {
		String direct = "jdbc:postgresql://127.0.0.1:" + args[0] + "/pool?user=app&ApplicationName=direct";
		String pooled = "jdbc:postgresql://127.0.0.1:" + args[1] + "/pool?user=app&ApplicationName=pgjdbc";
		List<Map<String, String>> probes = probes(args[2]);
		Map<String, List<List<String>>> text = new HashMap<>();
		Map<String, List<List<Long>>> big = new HashMap<>();
		long xidOid;
		try (Connection dc = DriverManager.getConnection(direct); Statement st = dc.createStatement()) {
			st.execute("SET plan_cache_mode = force_custom_plan");
			try (ResultSet rs = st.executeQuery("SELECT 'public.xid'::regtype::oid")) {
				rs.next();
				xidOid = rs.getLong(1);
			}
			for (String[] q : QUERIES) {
				text.put(q[0], new ArrayList<>());
				big.put(q[0], new ArrayList<>());
				for (Map<String, String> p : probes) {
					try (PreparedStatement ps = dc.prepareStatement(q[1])) {
						bind(ps, p, q[2]);
						text.get(q[0]).add(texts(ps));
					}
					try (PreparedStatement ps = dc.prepareStatement(q[1].replace("SELECT id FROM", "SELECT id::bigint FROM"))) {
						bind(ps, p, q[2]);
						big.get(q[0]).add(longs(ps, false));
					}
				}
			}
		}
		// prepareThreshold=-1: a named statement with binary results from the
		// first execution (pgjdbc asks for binary only on named statements)
		String binary = pooled + "&prepareThreshold=-1&binaryTransferEnable=" + xidOid;
		List<String> wrong = Collections.synchronizedList(new ArrayList<>());
		List<String> errors = Collections.synchronizedList(new ArrayList<>());
		AtomicInteger ntext = new AtomicInteger(), nbin = new AtomicInteger();
		Map<Integer, List<String>> returned = Collections.synchronizedMap(new HashMap<>());
		long start = System.nanoTime();
		List<Thread> threads = new ArrayList<>();
		for (int c = 0; c < CLIENTS; c++) {
			final int client = c;
			Thread t = new Thread(() -> {
				try (Connection tc = DriverManager.getConnection(pooled); Connection bc = DriverManager.getConnection(binary)) {
					Map<String, PreparedStatement> tps = new HashMap<>(), bps = new HashMap<>();
					for (String[] q : QUERIES) {
						tps.put(q[0], tc.prepareStatement(q[1]));
						bps.put(q[0], bc.prepareStatement(q[1]));
					}
					for (int r = 0; r < ROUNDS; r++) {
						for (int k = 0; k < probes.size(); k++) {
							for (String[] q : QUERIES) {
								bind(tps.get(q[0]), probes.get(k), q[2]);
								List<String> got = texts(tps.get(q[0]));
								ntext.incrementAndGet();
								if (!got.equals(text.get(q[0]).get(k)))
									wrong.add(client + " " + q[0] + " text " + probes.get(k) + ": " + got.size() + " rows");
								bind(bps.get(q[0]), probes.get(k), q[2]);
								List<Long> gotb = longs(bps.get(q[0]), true);
								nbin.incrementAndGet();
								if (!gotb.equals(big.get(q[0]).get(k)))
									wrong.add(client + " " + q[0] + " binary " + probes.get(k) + ": " + gotb.size() + " rows");
							}
						}
					}
					List<String> ids = new ArrayList<>();
					try (PreparedStatement ins = tc.prepareStatement(
						"INSERT INTO events (driver, client) VALUES ('pgjdbc', ?) RETURNING id")) {
						for (int i = 0; i < INSERTS; i++) {
							ins.setInt(1, client);
							try (ResultSet rs = ins.executeQuery()) {
								rs.next();
								ids.add(rs.getString(1));
							}
						}
					}
					returned.put(client, ids);
				} catch (Exception e) {
					errors.add(e.toString());
				}
			});
			threads.add(t);
			t.start();
		}
		for (Thread t : threads)
			t.join();
		for (String e : errors)
			report(false, "pgjdbc: " + e);
		for (int i = 0; i < Math.min(10, wrong.size()); i++)
			System.out.println("    wrong rows: " + wrong.get(i));
		String version = org.postgresql.Driver.class.getPackage().getImplementationVersion();
		report(errors.isEmpty() && wrong.isEmpty() && ntext.get() == CLIENTS * ROUNDS * probes.size() * QUERIES.length,
			String.format("pgjdbc %s (default prepareThreshold), %d clients on 2 server connections: %d text and %d binary "
				+ "results (binaryTransferEnable with xid's OID) of prefix ^@, LIKE, time window, <@ ranges, each the "
				+ "direct connection's rows (%.1f s)", version, CLIENTS, ntext.get(), nbin.get(),
				(System.nanoTime() - start) / 1e9));

		Map<String, Integer> stored = new HashMap<>();
		try (Connection dc = DriverManager.getConnection(direct); Statement st = dc.createStatement();
			ResultSet rs = st.executeQuery("SELECT id::text, client FROM events WHERE driver = 'pgjdbc'")) {
			while (rs.next())
				stored.put(rs.getString(1), rs.getInt(2));
		}
		boolean ok = returned.size() == CLIENTS;
		HashSet<String> seen = new HashSet<>();
		int all = 0;
		for (Map.Entry<Integer, List<String>> e : returned.entrySet()) {
			List<String> ids = e.getValue();
			for (int i = 0; i < ids.size(); i++) {
				all++;
				String id = ids.get(i);
				ok = ok && seen.add(id) && e.getKey().equals(stored.get(id)) && (i == 0 || ids.get(i - 1).compareTo(id) < 0);
			}
		}
		report(ok && all == CLIENTS * INSERTS && stored.size() == all,
			String.format("pgjdbc: %d inserts with DEFAULT xid_new() ... RETURNING id through the pooler: every returned id "
				+ "stored once (%d rows), each client's strictly increasing", all, stored.size()));
	}
}
