"""psycopg2 with pgxid.psycopg2: typecasters (arrays too), adapter, time queries."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest

from pgxid import Xid
from conftest import HAVE_DB, OPS, expected_count, probe_times, sample_ids

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

psycopg2 = pytest.importorskip("psycopg2")
import pgxid.psycopg2 as xp2  # noqa: E402

IDS = sample_ids(2000, seed=21)


@pytest.fixture(scope="module")
def conn():
    c = psycopg2.connect("")
    c.autocommit = True
    oid, array_oid = xp2.register(c)
    cur = c.cursor()
    cur.execute("SELECT 'public.xid'::regtype::oid, 'public.xid[]'::regtype::oid")
    assert cur.fetchone() == (oid, array_oid) and oid != 28
    cur.execute("CREATE TABLE pg2 (id public.xid PRIMARY KEY, n int NOT NULL)")
    cur.executemany("INSERT INTO pg2 VALUES (%s, %s)", [(x, i) for i, x in enumerate(IDS)])
    cur.execute("ANALYZE pg2")
    yield c
    c.close()


def one(conn, q, args=()):
    cur = conn.cursor()
    cur.execute(q, args)
    return cur.fetchone()


def test_results_and_arrays(conn) -> None:
    cur = conn.cursor()
    cur.execute("SELECT id FROM pg2 ORDER BY id")
    got = [r[0] for r in cur.fetchall()]
    assert got == IDS and all(type(x) is Xid for x in got)
    arr = one(conn, "SELECT array_agg(id ORDER BY id) FROM pg2")[0]
    assert arr == IDS and type(arr[0]) is Xid
    assert one(conn, "SELECT NULL::public.xid, '{}'::public.xid[]") == (None, [])
    # core's xid keeps psycopg2's default (a string), not Xid
    core = one(conn, "SELECT '5'::pg_catalog.xid")[0]
    assert core == "5" and type(core) is str


def test_parameters(conn) -> None:
    x = IDS[7]
    assert one(conn, "SELECT n FROM pg2 WHERE id = %s", (x,))[0] == 7
    assert one(conn, "SELECT n FROM pg2 WHERE id = %s", (str(x),))[0] == 7
    assert conn.cursor().mogrify("SELECT %s", (x,)) == f"SELECT '{x}'::public.xid".encode()
    assert one(conn, "SELECT array_agg(n ORDER BY n) FROM pg2 WHERE id = ANY(%s)", (IDS[3:9],))[0] == list(range(3, 9))
    assert one(conn, "SELECT pg_typeof(%s)::text", ([IDS[0]],))[0] == "public.xid[]"


def test_time_query_with_datetime(conn) -> None:
    # psycopg2 writes an aware datetime as '...'::timestamptz
    for t in probe_times(IDS, seed=22):
        for op in OPS:
            n = one(conn, f"SELECT count(*) FROM pg2 WHERE id {op} %s", (t,))[0]
            assert n == expected_count(IDS, op, t), (op, t)
    t = IDS[500].time
    assert b"::timestamptz" in conn.cursor().mogrify("%s", (t,))


def test_naive_datetime_is_the_sessions_time_zone(conn) -> None:
    # psycopg2 writes a naive datetime as '...'::timestamp, which PostgreSQL
    # reads in the session's TimeZone (README: pass aware datetimes)
    t = IDS[1200].time
    naive = t.replace(tzinfo=None)
    assert conn.cursor().mogrify("%s", (naive,)).endswith(b"::timestamp")
    cur = conn.cursor()
    cur.execute("SET TimeZone = 'America/New_York'")
    n = one(conn, "SELECT count(*) FROM pg2 WHERE id >= %s", (naive,))[0]
    cur.execute("RESET TimeZone")
    from zoneinfo import ZoneInfo
    assert n == expected_count(IDS, ">=", naive.replace(tzinfo=ZoneInfo("America/New_York")))
    assert n != expected_count(IDS, ">=", t)


def test_time_query_uses_the_index(conn) -> None:
    cur = conn.cursor()
    cur.execute("SET enable_seqscan = off")
    t = IDS[1000].time
    cur.execute("EXPLAIN (COSTS OFF) SELECT * FROM pg2 WHERE id >= %s AND id < %s", (t, t + timedelta(hours=1)))
    plan = "\n".join(r[0] for r in cur.fetchall())
    cur.execute("RESET enable_seqscan")
    assert "Index Cond" in plan and "pg2_pkey" in plan, plan


def test_copy_text(conn) -> None:
    import io

    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE pg2c (id public.xid, ids public.xid[])")
    cur.copy_expert("COPY pg2c FROM STDIN", io.StringIO(f"{IDS[0]}\t{{{IDS[1]},{IDS[2]}}}\n"))
    out = io.StringIO()
    cur.copy_expert("COPY pg2c TO STDOUT", out)
    assert out.getvalue() == f"{IDS[0]}\t{{{IDS[1]},{IDS[2]}}}\n"
    cur.execute("SELECT * FROM pg2c")
    assert cur.fetchone() == (IDS[0], [IDS[1], IDS[2]])


def test_register_per_connection_only(conn) -> None:
    other = psycopg2.connect("")
    try:
        cur = other.cursor()
        cur.execute("SELECT id, array_agg(id) OVER () FROM pg2 LIMIT 1")
        x, arr = cur.fetchone()
        # without registration: plain text, and the array as one string
        assert type(x) is str and isinstance(arr, str) and arr.startswith("{")
    finally:
        other.close()


def test_register_leaves_no_transaction_open(conn) -> None:
    # a non-autocommit connection that was idle is idle again after register:
    # no "idle in transaction" session holding a snapshot
    from psycopg2.extensions import TRANSACTION_STATUS_IDLE, TRANSACTION_STATUS_INTRANS

    other = psycopg2.connect("")
    try:
        assert not other.autocommit
        xp2.register(other)
        assert other.get_transaction_status() == TRANSACTION_STATUS_IDLE
        cur = other.cursor()
        cur.execute("SELECT pg_backend_pid()")
        pid = cur.fetchone()[0]
        other.rollback()
        assert one(conn, "SELECT state FROM pg_stat_activity WHERE pid = %s", (pid,))[0] == "idle"
        # a transaction the caller had open stays open, with its work
        cur.execute("CREATE TEMP TABLE pg2_reg (id public.xid)")
        cur.execute("INSERT INTO pg2_reg VALUES (%s)", (IDS[0],))
        xp2.register(other)
        assert other.get_transaction_status() == TRANSACTION_STATUS_INTRANS
        cur.execute("SELECT id FROM pg2_reg")
        assert cur.fetchone() == (IDS[0],)
        other.commit()
        # from a cursor too
        xp2.register(other.cursor())
        assert other.get_transaction_status() == TRANSACTION_STATUS_IDLE
    finally:
        other.close()
