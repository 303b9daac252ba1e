"""ci/pooler/drivers.py: psycopg 3 and asyncpg through PgBouncer in
transaction mode (ci/pooler.sh).

Usage: python3 drivers.py psycopg|asyncpg DIRECT_DSN POOLER_DSN PROBES_JSON

Eight clients at once, each on a connection of its own to PgBouncer (whose
pool has two server connections), run the natural queries with parameters
as protocol-level prepared statements, each many times: prefix (^@ and
LIKE), a time window (id >= $1::timestamptz AND id < $2::timestamptz),
<@ ranges of a prefix and of a time range, with results in text and in
binary; and inserts with DEFAULT xid_new() ... RETURNING id.  Every result
must be exactly the rows a direct connection (custom plans) returns for
the same probe.  Prints "ok   ..." or "FAIL ..." lines; exits non-zero on
any failure.
"""

import asyncio
import json
import struct
import sys
import threading
import time

CLIENTS = 8
ROUNDS = 6          # per client: every probe of every query, ROUNDS times
INSERTS = 25        # per client

# name -> (SQL with parameters, the probe's fields used as parameters)
QUERIES = {
    "prefix ^@": ("SELECT id FROM orders WHERE id ^@ $1 ORDER BY id", ("prefix",)),
    "LIKE": ("SELECT id FROM orders WHERE id LIKE $1 ORDER BY id", ("pattern",)),
    "time window": ("SELECT id FROM orders WHERE id >= $1::timestamptz AND id < $2::timestamptz "
                    "ORDER BY id", ("t0", "t1")),
    "<@ prefix range": ("SELECT id FROM orders WHERE id <@ xid_prefix_range($1) ORDER BY id",
                        ("prefix",)),
    "<@ time range": ("SELECT id FROM orders WHERE id <@ xid_time_range(tstzrange($1, $2)) "
                      "ORDER BY id", ("t0", "t1")),
}
# the same, with the id as bigint (what the 8 bytes of xid's binary form are)
BIGINT = {k: (q.replace("SELECT id FROM", "SELECT id::bigint FROM"), f) for k, (q, f) in QUERIES.items()}
INSERT = "INSERT INTO events (driver, client) VALUES ($1, $2) RETURNING id"

failures = 0


def report(ok, text):
    global failures
    if not ok:
        failures += 1
    print(("ok   " if ok else "FAIL ") + text, flush=True)


def pg_params(sql, n):
    """$1.. as psycopg's %s"""
    for i in range(n, 0, -1):
        sql = sql.replace("$%d" % i, "%s")
    return sql


def probe_args(probe, fields):
    from datetime import datetime
    out = []
    for f in fields:
        v = probe[f]
        if f in ("t0", "t1"):
            v = datetime.fromisoformat(v)
        out.append(v)
    return out


def expected_rows(direct_dsn, probes):
    """each query's rows for each probe, from a direct connection with custom
    plans: {name: [[text ids], ...]} and {name: [[bigints], ...]}"""
    import psycopg
    text, big = {}, {}
    with psycopg.connect(direct_dsn, autocommit=True, application_name="direct") as conn:
        conn.execute("SET plan_cache_mode = force_custom_plan")
        for name, (sql, fields) in QUERIES.items():
            text[name] = [[r[0] for r in conn.execute(pg_params(sql, len(fields)),
                                                      probe_args(p, fields), prepare=False)]
                          for p in probes]
            bsql = BIGINT[name][0]
            big[name] = [[r[0] for r in conn.execute(pg_params(bsql, len(fields)),
                                                     probe_args(p, fields), prepare=False)]
                         for p in probes]
    return text, big


def check_inserts(direct_dsn, driver, returned):
    """every id a client got back is stored, once, and each client's ids
    strictly increase"""
    import psycopg
    with psycopg.connect(direct_dsn, autocommit=True) as conn:
        stored = {r[0]: r[1] for r in conn.execute(
            "SELECT id::text, client FROM events WHERE driver = %s", (driver,))}
    allret = [i for ids in returned.values() for i in ids]
    ok = (len(allret) == CLIENTS * INSERTS and len(set(allret)) == len(allret)
          and set(allret) == set(stored) and all(stored[i] == c for c, ids in returned.items() for i in ids))
    rising = all(ids == sorted(ids) and len(set(ids)) == len(ids) for ids in returned.values())
    report(ok and rising,
           f"{driver}: {len(allret)} inserts with DEFAULT xid_new() ... RETURNING id through the pooler: "
           f"every returned id stored once ({len(stored)} rows), each client's strictly increasing")


# ---- psycopg 3

def run_psycopg(direct_dsn, pooler_dsn, probes):
    import psycopg
    text, big = expected_rows(direct_dsn, probes)
    stats = {"text": 0, "binary": 0, "wrong": []}
    returned = {}
    lock = threading.Lock()

    def client(c):
        # prepare_threshold=0: prepared (a named protocol-level statement)
        # from the first execution; PgBouncer maps the name to the server
        # connection it runs on
        with psycopg.connect(pooler_dsn, autocommit=True, prepare_threshold=0,
                             application_name="psycopg") as conn:
            for r in range(ROUNDS):
                for k, p in enumerate(probes):
                    for name, (sql, fields) in QUERIES.items():
                        args = probe_args(p, fields)
                        got = [row[0] for row in conn.execute(pg_params(sql, len(fields)), args)]
                        cur = conn.cursor(binary=True)
                        cur.execute(pg_params(sql, len(fields)), args)
                        gotb = [struct.unpack("!q", row[0])[0] for row in cur.fetchall()]
                        with lock:
                            stats["text"] += 1
                            stats["binary"] += 1
                            if got != text[name][k]:
                                stats["wrong"].append((c, name, "text", p, len(got), len(text[name][k])))
                            if gotb != big[name][k]:
                                stats["wrong"].append((c, name, "binary", p, len(gotb), len(big[name][k])))
            ids = []
            for i in range(INSERTS):
                ids.append(conn.execute(pg_params(INSERT, 2), ("psycopg", c)).fetchone()[0])
            with lock:
                returned[c] = ids

    t0 = time.time()
    threads = [threading.Thread(target=client, args=(c,)) for c in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for w in stats["wrong"][:10]:
        print("    wrong rows:", w)
    report(not stats["wrong"] and stats["text"] == CLIENTS * ROUNDS * len(probes) * len(QUERIES)
           and len(returned) == CLIENTS,
           f"psycopg {psycopg.__version__} (prepare_threshold=0), {CLIENTS} clients on 2 server "
           f"connections: {stats['text']} text and {stats['binary']} binary results of prefix ^@, LIKE, "
           f"time window, <@ ranges, each the direct connection's rows ({time.time() - t0:.1f} s)")
    check_inserts(direct_dsn, "psycopg", returned)


# ---- asyncpg

async def run_asyncpg_async(direct_dsn, pooler_dsn, probes):
    import asyncpg
    text, big = expected_rows(direct_dsn, probes)
    stats = {"text": 0, "binary": 0, "wrong": []}
    returned = {}

    async def client(c):
        # the default statement cache (100): every query a named prepared
        # statement, which PgBouncer 1.21+ with max_prepared_statements keeps
        # apart per server connection
        app = {"application_name": "asyncpg"}
        tconn = await asyncpg.connect(pooler_dsn, server_settings=app)
        bconn = await asyncpg.connect(pooler_dsn, server_settings=app)
        try:
            # on this connection xid travels in binary, both ways: 8 bytes
            await bconn.set_type_codec("xid", schema="public", format="binary",
                                       encoder=lambda v: struct.pack("!q", v),
                                       decoder=lambda b: struct.unpack("!q", b)[0])
            for r in range(ROUNDS):
                for k, p in enumerate(probes):
                    for name, (sql, fields) in QUERIES.items():
                        args = probe_args(p, fields)
                        got = [row[0] for row in await tconn.fetch(sql, *args)]
                        gotb = [row[0] for row in await bconn.fetch(sql, *args)]
                        stats["text"] += 1
                        stats["binary"] += 1
                        if got != text[name][k]:
                            stats["wrong"].append((c, name, "text", p, len(got), len(text[name][k])))
                        if gotb != big[name][k]:
                            stats["wrong"].append((c, name, "binary", p, len(gotb), len(big[name][k])))
            # a binary parameter: the first id of a probe, looked up by =
            first = big["prefix ^@"][0][0]
            row = await bconn.fetchrow("SELECT id, id::text FROM orders WHERE id = $1", first)
            if row is None or row[0] != first:
                stats["wrong"].append((c, "= binary parameter", first, row))
            ids = []
            for i in range(INSERTS):
                ids.append(await tconn.fetchval(INSERT, "asyncpg", c))
            returned[c] = ids
        finally:
            await tconn.close()
            await bconn.close()

    t0 = time.time()
    await asyncio.gather(*(client(c) for c in range(CLIENTS)))
    for w in stats["wrong"][:10]:
        print("    wrong rows:", w)
    report(not stats["wrong"] and stats["text"] == CLIENTS * ROUNDS * len(probes) * len(QUERIES),
           f"asyncpg {asyncpg.__version__} (default statement_cache_size), {CLIENTS} clients on 2 server "
           f"connections: {stats['text']} text and {stats['binary']} binary results (binary codec both "
           f"ways) of prefix ^@, LIKE, time window, <@ ranges, each the direct connection's rows "
           f"({time.time() - t0:.1f} s)")
    check_inserts(direct_dsn, "asyncpg", returned)


def main():
    driver, direct_dsn, pooler_dsn, probes_file = sys.argv[1:5]
    with open(probes_file) as f:
        probes = json.load(f)
    try:
        if driver == "psycopg":
            run_psycopg(direct_dsn, pooler_dsn, probes)
        else:
            asyncio.run(run_asyncpg_async(direct_dsn, pooler_dsn, probes))
    except Exception as e:  # a driver error is a failure, with its message
        report(False, f"{driver}: {type(e).__name__}: {e}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
