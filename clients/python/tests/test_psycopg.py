"""psycopg 3 with pgxid.psycopg: text, binary, arrays, COPY, time queries."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

import pgxid
from pgxid import Xid
from conftest import HAVE_DB, OPS, expected_count, probe_times, sample_ids

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

psycopg = pytest.importorskip("psycopg")
import pgxid.psycopg as xp  # noqa: E402

IDS = sample_ids()


@pytest.fixture(scope="module")
def conn():
    with psycopg.connect(autocommit=True) as c:
        info = xp.register(c)
        c.execute("CREATE TABLE pg3 (id public.xid PRIMARY KEY, n int NOT NULL)")
        with c.cursor().copy("COPY pg3 (id, n) FROM STDIN (FORMAT BINARY)") as cp:
            cp.set_types([info.oid, "int4"])
            for i, x in enumerate(IDS):
                cp.write_row((x, i))
        c.execute("ANALYZE pg3")
        yield c


def test_registered_by_oid_not_name(conn) -> None:
    info = xp.fetch_type_info(conn)
    oid = conn.execute("SELECT 'public.xid'::regtype::oid").fetchone()[0]
    assert info.oid == oid != 28 and info.name == "public.xid"
    assert info.array_oid == conn.execute("SELECT 'public.xid[]'::regtype::oid").fetchone()[0]
    # core's xid is untouched: still psycopg's own loader
    core = conn.execute("SELECT '5'::pg_catalog.xid").fetchone()[0]
    assert str(core) == "5" and not isinstance(core, Xid)
    with pytest.raises(LookupError, match='type "nope.xid" does not exist'):
        xp.fetch_type_info(conn, "nope")


def test_binary_copy_loaded_every_row(conn) -> None:
    rows = conn.execute("SELECT id, n FROM pg3 ORDER BY id").fetchall()
    assert [r[0] for r in rows] == IDS and [r[1] for r in rows] == list(range(len(IDS)))


@pytest.mark.parametrize("binary", [False, True])
def test_results_text_and_binary(conn, binary: bool) -> None:
    cur = conn.cursor(binary=binary)
    rows = cur.execute("SELECT id, id::text AS t, array_agg(id) OVER () AS a FROM pg3 ORDER BY 1 LIMIT 5").fetchall()
    for x, text, arr in rows:
        assert type(x) is Xid and x == text
        assert all(type(a) is Xid for a in arr) and sorted(arr) == IDS
    arr = cur.execute("SELECT array_agg(id ORDER BY id) FROM pg3").fetchone()[0]
    assert arr == IDS


@pytest.mark.parametrize("placeholder", ["%s", "%t", "%b"])
def test_parameters(conn, placeholder: str) -> None:
    x = IDS[100]
    q = f"SELECT n FROM pg3 WHERE id = {placeholder}"
    assert conn.execute(q, (x,)).fetchone()[0] == 100
    assert conn.execute(q, (str(x),)).fetchone()[0] == 100 if placeholder != "%b" else True
    some = IDS[10:20]
    q = f"SELECT array_agg(n ORDER BY n) FROM pg3 WHERE id = ANY({placeholder})"
    assert conn.execute(q, (some,)).fetchone()[0] == list(range(10, 20))
    got = conn.execute(f"SELECT {placeholder}::text, pg_typeof({placeholder})::text", (x, x)).fetchone()
    assert got == (str(x), "public.xid")


def test_text_copy_both_ways(conn) -> None:
    conn.execute("CREATE TEMP TABLE pg3t (id public.xid, ids public.xid[])")
    with conn.cursor().copy("COPY pg3t FROM STDIN") as cp:
        cp.write_row((IDS[0], IDS[:3]))
        cp.write_row((str(IDS[1]), None))
    with conn.cursor().copy("COPY pg3t TO STDOUT (FORMAT BINARY)") as cp:
        cp.set_types(["public.xid", "public.xid[]"])
        rows = list(cp.rows())
    assert rows == [(IDS[0], IDS[:3]), (IDS[1], None)]
    assert all(type(r[0]) is Xid for r in rows)


def test_time_query_with_datetime(conn) -> None:
    # psycopg sends an aware datetime as timestamptz: id OP %s is the
    # server's xid OP timestamptz, exactly xid_time(id) OP t
    for t in probe_times(IDS):
        for op in OPS:
            for binary in (False, True):
                n = conn.cursor(binary=binary).execute(
                    f"SELECT count(*) FROM pg3 WHERE id {op} %s", (t,)).fetchone()[0]
                assert n == expected_count(IDS, op, t), (op, t)
            n = conn.execute(f"SELECT count(*) FROM pg3 WHERE id {op} %s", (t,), prepare=True).fetchone()[0]
            assert n == expected_count(IDS, op, t)


def test_time_query_uses_the_index(conn) -> None:
    conn.execute("SET enable_seqscan = off")
    try:
        t = IDS[1000].time
        plan = "\n".join(r[0] for r in conn.execute(
            "EXPLAIN (COSTS OFF) SELECT * FROM pg3 WHERE id >= %s AND id < %s",
            (t, t.replace(hour=23))).fetchall())
    finally:
        conn.execute("RESET enable_seqscan")
    assert "Index Cond" in plan and "pg3_pkey" in plan, plan


def test_naive_datetime_is_the_sessions_time_zone(conn) -> None:
    # psycopg sends a naive datetime as timestamp; PostgreSQL reads it in
    # the session's TimeZone, as for any timestamptz comparison (README:
    # pass aware datetimes)
    t = IDS[1500].time
    naive = t.astimezone(timezone.utc).replace(tzinfo=None)
    conn.execute("SET TimeZone = 'UTC'")
    utc = conn.execute("SELECT count(*) FROM pg3 WHERE id >= %s", (naive,)).fetchone()[0]
    conn.execute("SET TimeZone = 'Asia/Kolkata'")
    ist = conn.execute("SELECT count(*) FROM pg3 WHERE id >= %s", (naive,)).fetchone()[0]
    conn.execute("RESET TimeZone")
    assert utc == expected_count(IDS, ">=", t)
    from datetime import timedelta
    assert ist == expected_count(IDS, ">=", t - timedelta(hours=5, minutes=30)) != utc


def test_bare_text_time_is_an_error(conn) -> None:
    with pytest.raises(psycopg.errors.InvalidTextRepresentation, match="invalid input syntax for type xid"):
        conn.execute("SELECT count(*) FROM pg3 WHERE id >= %s", ("2026-03-01",))


def test_client_ids_round_trip(conn) -> None:
    conn.execute("CREATE TEMP TABLE pg3n (id public.xid PRIMARY KEY DEFAULT xid_new(), src text)")
    gen = pgxid.XidGenerator()
    mine = [gen() for _ in range(100)]
    conn.cursor().executemany("INSERT INTO pg3n VALUES (%s, 'client')", [(x,) for x in mine])
    back = [r[0] for r in conn.execute("SELECT id FROM pg3n ORDER BY id").fetchall()]
    assert back == mine


def test_other_schema() -> None:
    with psycopg.connect(autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS xid_clients_ids")
        admin.execute("CREATE DATABASE xid_clients_ids")
    try:
        with psycopg.connect(dbname="xid_clients_ids", autocommit=True) as c:
            c.execute("CREATE SCHEMA ids")
            c.execute("CREATE EXTENSION xid SCHEMA ids")
            with pytest.raises(LookupError):
                xp.register(c)  # public.xid does not exist here
            info = xp.register(c, "ids")
            assert info.name == "ids.xid"
            x = c.execute("SELECT ids.xid_new()").fetchone()[0]
            assert type(x) is Xid and abs((x.time - datetime.now(timezone.utc)).total_seconds()) < 60
    finally:
        with psycopg.connect(autocommit=True) as admin:
            admin.execute("DROP DATABASE xid_clients_ids")


def test_async_connection() -> None:
    import asyncio

    async def run() -> list:
        async with await psycopg.AsyncConnection.connect() as c:
            await xp.register_async(c)
            cur = await c.execute("SELECT array_agg(id ORDER BY id) FROM pg3 WHERE id = ANY(%s)", (IDS[:4],))
            return (await cur.fetchone())[0]

    assert asyncio.run(run()) == IDS[:4]


def test_register_refuses_an_async_connection() -> None:
    import asyncio

    async def run() -> None:
        async with await psycopg.AsyncConnection.connect() as c:
            with pytest.raises(TypeError, match=r"await pgxid\.psycopg\.register_async\(conn\)"):
                xp.register(c)  # type: ignore[arg-type]

    asyncio.run(run())


def test_register_leaves_no_transaction_open() -> None:
    import psycopg
    from psycopg.pq import TransactionStatus

    with psycopg.connect() as c:
        assert not c.autocommit
        pgxid.psycopg.register(c)
        assert c.info.transaction_status == TransactionStatus.IDLE
        c.execute("CREATE TEMP TABLE pg3_reg (n int)")
        pgxid.psycopg.register(c)
        assert c.info.transaction_status == TransactionStatus.INTRANS
        c.commit()


def test_register_async_leaves_no_transaction_open() -> None:
    import asyncio

    import psycopg
    from psycopg.pq import TransactionStatus

    async def main():
        async with await psycopg.AsyncConnection.connect() as c:
            await pgxid.psycopg.register_async(c)
            return c.info.transaction_status

    assert asyncio.run(main()) == TransactionStatus.IDLE
