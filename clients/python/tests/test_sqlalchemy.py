"""SQLAlchemy 2 with pgxid.sqlalchemy, on psycopg 3, psycopg2 and asyncpg:
the column type, reflection, arrays, and datetime comparisons."""

from __future__ import annotations

import asyncio
import os
import time
import warnings
from datetime import datetime, timedelta, timezone

import pytest

import pgxid
from pgxid import Xid
from conftest import HAVE_DB, OPS, expected_count, probe_times, sample_ids

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

sa = pytest.importorskip("sqlalchemy")
from sqlalchemy import (  # noqa: E402
    Column, Integer, MetaData, Table, Text, func, inspect, literal_column, select, text,
)
from sqlalchemy.dialects.postgresql import ARRAY  # noqa: E402
from sqlalchemy.engine import URL  # noqa: E402
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column  # noqa: E402

from pgxid.sqlalchemy import XidType, register  # noqa: E402

IDS = sample_ids(1500, seed=41)
DRIVERS = ["psycopg", "psycopg2", "asyncpg"]


def url(driver: str) -> URL:
    return URL.create(f"postgresql+{driver}", username=os.environ.get("PGUSER"),
                      host=os.environ.get("PGHOST"), port=int(os.environ.get("PGPORT", "5432")),
                      database=os.environ.get("PGDATABASE"))


def with_conn(driver: str, fn):
    """Run fn(sync Connection) on an engine of the driver, registered."""
    if driver == "asyncpg":
        from sqlalchemy.ext.asyncio import create_async_engine

        async def main():
            engine = create_async_engine(url(driver))
            register(engine)
            try:
                async with engine.begin() as conn:
                    return await conn.run_sync(fn)
            finally:
                await engine.dispose()

        return asyncio.run(main())
    engine = sa.create_engine(url(driver))
    register(engine)
    try:
        with engine.begin() as conn:
            return fn(conn)
    finally:
        engine.dispose()


md = MetaData()
orders = Table(
    "sa_orders", md,
    Column("id", XidType, primary_key=True, server_default=text("xid_new()")),
    Column("n", Integer, nullable=False),
    Column("tags", ARRAY(XidType)),
)


@pytest.fixture(scope="module", autouse=True)
def table():
    def make(conn):
        md.create_all(conn)
        conn.execute(orders.insert(), [{"id": x, "n": i, "tags": [x]} for i, x in enumerate(IDS)])
        conn.execute(text("ANALYZE sa_orders"))

    with_conn("psycopg", make)


@pytest.mark.parametrize("driver", DRIVERS)
def test_values_arrays_and_params(driver: str) -> None:
    def check(conn):
        got = conn.execute(select(orders.c.id).order_by(orders.c.id)).scalars().all()
        assert got == IDS and all(type(x) is Xid for x in got)
        arr = conn.execute(select(func.array_agg(orders.c.id))).scalar()
        assert sorted(arr) == IDS and all(type(x) is Xid for x in arr)
        tags = conn.execute(select(orders.c.tags).where(orders.c.id == IDS[3])).scalar()
        assert tags == [IDS[3]] and type(tags[0]) is Xid
        assert conn.execute(select(orders.c.n).where(orders.c.id == str(IDS[4]))).scalar() == 4
        ns = conn.execute(select(orders.c.n).where(orders.c.id.in_(IDS[5:8])).order_by(orders.c.n)).scalars().all()
        assert ns == [5, 6, 7]
        new = conn.execute(orders.insert().values(n=-1).returning(orders.c.id)).scalar()
        assert type(new) is Xid and abs(new.time - datetime.now(timezone.utc)) < timedelta(minutes=1)
        mine = pgxid.new()
        conn.execute(orders.insert(), {"id": mine, "n": -2})
        assert conn.execute(select(orders.c.n).where(orders.c.id == mine)).scalar() == -2
        conn.execute(orders.delete().where(orders.c.n < 0))
        # bad text fails in the client, with the server's message
        with pytest.raises(sa.exc.StatementError, match="invalid input syntax for type xid") as e:
            conn.execute(select(orders.c.n).where(orders.c.id == "5cnEk0efSdu"))
        assert isinstance(e.value.orig, pgxid.InvalidXidError)
        return True

    assert with_conn(driver, check)


@pytest.mark.parametrize("driver", DRIVERS)
def test_prefix_search(driver: str) -> None:
    """startswith, op("^@"), like, not_like and ~startswith take text: a prefix or
    pattern is never parsed as a whole id (InvalidXidError)."""
    def check(conn):
        c = orders.c.id
        for x in IDS[:40:4]:
            for k in (0, 1, 4, 6, 10, 11):
                p = str(x)[:k]
                want = sorted(y for y in IDS if str(y).startswith(p))
                for where in (c.startswith(p), c.op("^@")(p), c.like(p + "%"), c.startswith(p, autoescape=True)):
                    got = conn.execute(select(c).where(where).where(orders.c.n >= 0).order_by(c)).scalars().all()
                    assert got == want, (p, str(where))
                for where in (c.not_like(p + "%"), ~c.startswith(p)):
                    n = conn.execute(select(func.count()).where(where).where(orders.c.n >= 0)).scalar()
                    assert n == len(IDS) - len(want), (p, str(where))
        # a LIKE pattern in the middle of an id, and an escape
        x = IDS[7]
        p = "_" + str(x)[1:5] + "%"
        got = conn.execute(select(c).where(c.like(p))).scalars().all()
        assert x in got and all(str(y)[1:5] == str(x)[1:5] for y in got)
        return True

    assert with_conn(driver, check)


def test_prefix_search_sql() -> None:
    from sqlalchemy.dialects import postgresql

    import re

    q = select(orders.c.n).where(orders.c.id.startswith("5cnrQT"))
    sql = str(q.compile(dialect=postgresql.dialect()))
    assert re.search(r"WHERE sa_orders\.id \^@ %\(\w+\)s", sql), sql
    q = select(orders.c.n).where(orders.c.id.like("5cnrQT%"))
    sql = str(q.compile(dialect=postgresql.dialect()))
    assert re.search(r"WHERE sa_orders\.id LIKE %\(\w+\)s", sql) and "xid" not in sql.split("WHERE")[1], sql


@pytest.mark.parametrize("driver", DRIVERS)
def test_reflection(driver: str) -> None:
    def check(conn):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "Did not recognize type" would fail
            t = Table("sa_orders", MetaData(), autoload_with=conn)
            cols = {c["name"]: c["type"] for c in inspect(conn).get_columns("sa_orders")}
        assert isinstance(t.c.id.type, XidType) and isinstance(cols["id"], XidType)
        assert isinstance(t.c.tags.type, ARRAY) and isinstance(t.c.tags.type.item_type, XidType)
        got = conn.execute(select(t.c.id).where(t.c.n == 9)).scalar()
        assert got == IDS[9] and type(got) is Xid
        return True

    assert with_conn(driver, check)


@pytest.mark.parametrize("driver", DRIVERS)
def test_datetime_comparisons(driver: str) -> None:
    def check(conn):
        for t in probe_times(IDS, seed=42):
            for op, fn in OPS.items():
                n = conn.execute(select(func.count()).where(fn(orders.c.id, t))).scalar()
                assert n == expected_count(IDS, op, t), (driver, op, t)
            # the time on the left
            n = conn.execute(select(func.count()).where(t <= orders.c.id)).scalar()
            assert n == expected_count(IDS, ">=", t)
        # a DateTime expression
        lit = literal_column("'2026-03-01 12:00+00'::timestamptz", sa.DateTime(timezone=True))
        n = conn.execute(select(func.count()).where(orders.c.id < lit)).scalar()
        assert n == expected_count(IDS, "<", datetime(2026, 3, 1, 12, tzinfo=timezone.utc))
        with pytest.raises(ValueError, match="naive datetime"):
            select(func.count()).where(orders.c.id >= datetime(2026, 3, 1))
        # = has no time meaning (many ids share a millisecond): refused
        with pytest.raises(sa.exc.StatementError, match="a datetime given as an xid"):
            conn.execute(select(func.count()).where(orders.c.id == IDS[0].time))
        return True

    assert with_conn(driver, check)


def test_datetime_comparison_sql_and_plan() -> None:
    t = IDS[700].time
    stmt = select(orders.c.n).where(orders.c.id >= t, orders.c.id < t + timedelta(hours=1))

    def check(conn):
        compiled = stmt.compile(conn)
        assert "sa_orders.id >= CAST(" in compiled.string and "AS TIMESTAMP WITH TIME ZONE)" in compiled.string
        conn.execute(text("SET LOCAL enable_seqscan = off"))
        plan = "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN (COSTS OFF) " + compiled.string, compiled.params))
        assert "Index Cond" in plan and "sa_orders_pkey" in plan, plan
        return True

    assert with_conn("psycopg", check)


def test_ddl_names_the_qualified_type() -> None:
    from sqlalchemy.schema import CreateTable

    ddl = str(CreateTable(orders).compile(dialect=sa.dialects.postgresql.dialect()))
    assert "id public.xid DEFAULT xid_new() NOT NULL" in ddl and "tags public.xid[]" in ddl
    assert XidType("Ids").get_col_spec() == '"Ids".xid'


def test_orm_mapped_column() -> None:
    class Base(DeclarativeBase):
        pass

    class Order(Base):
        __tablename__ = "sa_orm"
        id: Mapped[Xid] = mapped_column(XidType, primary_key=True, server_default=text("xid_new()"))
        item: Mapped[str] = mapped_column(Text)

    engine = sa.create_engine(url("psycopg"))
    register(engine)
    Base.metadata.create_all(engine)
    with Session(engine) as s:
        s.add(Order(item="apple"))  # xid_new() on the server
        s.flush()
        time.sleep(0.002)  # a later millisecond
        s.add(Order(id=pgxid.new(), item="pear"))  # made here, later
        s.commit()
        got = s.scalars(select(Order).order_by(Order.id)).all()
        assert [o.item for o in got] == ["apple", "pear"] and all(type(o.id) is Xid for o in got)
        recent = s.scalars(select(Order).where(Order.id >= datetime.now(timezone.utc) - timedelta(minutes=5))).all()
        assert len(recent) == 2
        assert s.get(Order, got[1].id).item == "pear"
    engine.dispose()
