"""asyncpg with pgxid.asyncpg: binary and text codecs, arrays, COPY, and the
time query, whose bare $1 the codec refuses with what to write instead."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

import pgxid
from pgxid import Xid
from conftest import HAVE_DB, OPS, expected_count, probe_times, sample_ids

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

asyncpg = pytest.importorskip("asyncpg")
import pgxid.asyncpg as xa  # noqa: E402

IDS = sample_ids(2000, seed=31)


def run(coro_fn, fmt: str = "binary"):
    async def main():
        conn = await asyncpg.connect()
        try:
            oid = await xa.register(conn, format=fmt)
            assert oid == await conn.fetchval("SELECT 'public.xid'::regtype::oid") != 28
            return await coro_fn(conn)
        finally:
            await conn.close()

    return asyncio.run(main())


@pytest.fixture(scope="module", autouse=True)
def table():
    async def make(conn):
        await conn.execute("CREATE TABLE apg (id public.xid PRIMARY KEY, n int NOT NULL)")
        # binary COPY through the binary codec (asyncpg has no text COPY codecs)
        await conn.copy_records_to_table("apg", records=[(x, i) for i, x in enumerate(IDS)])
        await conn.execute("ANALYZE apg")

    run(make)


@pytest.mark.parametrize("fmt", ["binary", "text"])
def test_results_params_arrays(fmt: str) -> None:
    async def check(conn):
        rows = await conn.fetch("SELECT id, n FROM apg ORDER BY id")
        assert [r["id"] for r in rows] == IDS and all(type(r["id"]) is Xid for r in rows)
        assert [r["n"] for r in rows] == list(range(len(IDS)))
        arr = await conn.fetchval("SELECT array_agg(id ORDER BY id) FROM apg")
        assert arr == IDS and type(arr[0]) is Xid
        assert await conn.fetchval("SELECT n FROM apg WHERE id = $1", IDS[5]) == 5
        assert await conn.fetchval("SELECT n FROM apg WHERE id = $1", str(IDS[6])) == 6
        got = await conn.fetchval("SELECT array_agg(n ORDER BY n) FROM apg WHERE id = ANY($1)", IDS[10:15])
        assert got == list(range(10, 15))
        with pytest.raises(asyncpg.exceptions.DataError, match="invalid input syntax for type xid"):
            await conn.fetchval("SELECT n FROM apg WHERE id = $1", "5cnEk0efSdu")
        return True

    assert run(check, fmt)


def test_bare_datetime_parameter_is_refused_with_the_fix() -> None:
    async def check(conn):
        t = IDS[100].time
        with pytest.raises(asyncpg.exceptions.DataError) as e:
            await conn.fetchval("SELECT count(*) FROM apg WHERE id >= $1", t)
        assert "$1::timestamptz" in str(e.value)
        return True

    assert run(check)


def test_time_query_with_cast() -> None:
    async def check(conn):
        for t in probe_times(IDS, seed=32):
            for op in OPS:
                n = await conn.fetchval(f"SELECT count(*) FROM apg WHERE id {op} $1::timestamptz", t)
                assert n == expected_count(IDS, op, t), (op, t)
        await conn.execute("SET enable_seqscan = off")
        t = IDS[900].time
        plan = await conn.fetch(
            "EXPLAIN (COSTS OFF) SELECT * FROM apg WHERE id >= $1::timestamptz AND id < $2::timestamptz",
            t, t + timedelta(hours=1))
        plan = "\n".join(r[0] for r in plan)
        assert "Index Cond" in plan and "apg_pkey" in plan, plan
        return True

    assert run(check)


def test_copy_records_and_interleave_with_server_ids() -> None:
    async def check(conn):
        await conn.execute("CREATE TEMP TABLE apgn (id public.xid PRIMARY KEY, src text)")
        gen = pgxid.XidGenerator()
        expect = []
        for i in range(40):
            x = gen()
            await conn.copy_records_to_table("apgn", records=[(x, "client")])
            expect.append("client")
            await asyncio.sleep(0.002)
            await conn.execute("INSERT INTO apgn VALUES (xid_new(), 'server')")
            expect.append("server")
            await asyncio.sleep(0.002)
        rows = await conn.fetch("SELECT src FROM apgn ORDER BY id")
        assert [r["src"] for r in rows] == expect
        return True

    assert run(check)


def test_pool_init() -> None:
    async def main():
        async with asyncpg.create_pool(min_size=1, max_size=2, init=xa.register) as pool:
            return await pool.fetchval("SELECT array_agg(id ORDER BY id) FROM apg WHERE id = ANY($1)", IDS[:3])

    assert asyncio.run(main()) == IDS[:3]
