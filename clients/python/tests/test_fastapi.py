"""FastAPI: Xid path, query and body parameters and responses, against the
live server (psycopg 3 with pgxid.psycopg, and SQLAlchemy with
pgxid.sqlalchemy), through FastAPI's TestClient, and what the generated
OpenAPI says."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import List, Optional

import pytest

import pgxid
from pgxid import Xid
from conftest import HAVE_DB

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

fastapi = pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi import FastAPI, HTTPException  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from pydantic import AwareDatetime, BaseModel  # noqa: E402

pytest.importorskip("sqlalchemy")
from sqlalchemy import create_engine, select  # noqa: E402
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column  # noqa: E402

from pgxid.sqlalchemy import XidType, register  # noqa: E402

SCHEMA = {"type": "string", "pattern": "^[1-9A-HJ-NP-Za-km-z]{11}$", "minLength": 11, "maxLength": 11}
MESSAGE = "Input should be an xid: 11 Base58 symbols, at most jpXCZedGfVQ"


class OrderIn(BaseModel):
    item: str
    parent: Optional[Xid] = None


class Order(BaseModel):
    id: Xid
    item: str
    parent: Optional[Xid] = None


def make_app() -> FastAPI:
    import psycopg
    import pgxid.psycopg

    app = FastAPI()

    def db() -> "psycopg.Connection":
        conn = psycopg.connect(autocommit=True)
        pgxid.psycopg.register(conn)
        return conn

    with db() as c:
        c.execute("DROP TABLE IF EXISTS api_orders")
        c.execute("CREATE TABLE api_orders (id public.xid PRIMARY KEY DEFAULT xid_new(),"
                  " item text NOT NULL, parent public.xid)")

    @app.post("/orders", status_code=201)
    def create(order: OrderIn) -> Order:
        with db() as c:
            row = c.execute("INSERT INTO api_orders (item, parent) VALUES (%s, %s) RETURNING id, item, parent",
                            [order.item, order.parent]).fetchone()
        assert type(row[0]) is Xid
        return Order(id=row[0], item=row[1], parent=row[2])

    @app.get("/orders/{order_id}")
    def read(order_id: Xid) -> Order:
        assert type(order_id) is Xid
        with db() as c:
            row = c.execute("SELECT id, item, parent FROM api_orders WHERE id = %s", [order_id]).fetchone()
        if row is None:
            raise HTTPException(404, f"no order {order_id}")
        return Order(id=row[0], item=row[1], parent=row[2])

    @app.get("/orders")
    def since(after: Optional[Xid] = None, start: Optional[datetime] = None) -> List[Order]:
        with db() as c:
            rows = c.execute("SELECT id, item, parent FROM api_orders WHERE (%s::public.xid IS NULL OR id > %s)"
                             " AND (%s::timestamptz IS NULL OR id >= %s::timestamptz) ORDER BY id",
                             [after, after, start, start]).fetchall()
        return [Order(id=r[0], item=r[1], parent=r[2]) for r in rows]

    # SQLAlchemy, as README shows: the time is an AwareDatetime, so a naive
    # one is a 422 (pgxid.sqlalchemy would refuse it in the handler: a 500)
    class Base(DeclarativeBase):
        pass

    class Row(Base):
        __tablename__ = "api_orders"
        id: Mapped[Xid] = mapped_column(XidType, primary_key=True)
        item: Mapped[str]

    engine = create_engine("postgresql+psycopg://")
    register(engine)

    @app.get("/recent")
    def recent(since: AwareDatetime) -> List[Xid]:
        with Session(engine) as session:
            return list(session.scalars(select(Row.id).where(Row.id >= since).order_by(Row.id)))

    @app.get("/recent-plain")
    def recent_plain(since: datetime) -> List[Xid]:  # what not to write
        with Session(engine) as session:
            return list(session.scalars(select(Row.id).where(Row.id >= since).order_by(Row.id)))

    return app


@pytest.fixture(scope="module")
def client():
    with TestClient(make_app(), raise_server_exceptions=False) as c:
        yield c


def test_body_in_and_out_and_path(client) -> None:
    r = client.post("/orders", json={"item": "pear"})
    assert r.status_code == 201, r.text
    first = r.json()
    assert pgxid.is_valid(first["id"]) and first["item"] == "pear" and first["parent"] is None
    r = client.post("/orders", json={"item": "plum", "parent": first["id"]})
    assert r.status_code == 201 and r.json()["parent"] == first["id"]
    second = r.json()["id"]
    assert second > first["id"]  # xid_new(): later is larger
    r = client.get(f"/orders/{second}")
    assert r.status_code == 200 and r.json() == {"id": second, "item": "plum", "parent": first["id"]}
    r = client.get(f"/orders/{pgxid.MIN}")
    assert r.status_code == 404 and r.json() == {"detail": "no order 11111111111"}


def test_query_parameters(client) -> None:
    ids = [client.post("/orders", json={"item": f"q{i}"}).json()["id"] for i in range(3)]
    r = client.get("/orders", params={"after": ids[0]})
    got = [o["id"] for o in r.json()]
    assert r.status_code == 200 and got[-2:] == ids[1:] and ids[0] not in got
    t = Xid(ids[1]).time
    r = client.get("/orders", params={"start": t.isoformat()})
    assert r.status_code == 200 and [o["id"] for o in r.json()][-2:] == ids[1:]
    assert all(Xid(o["id"]).time >= t for o in r.json())


@pytest.mark.parametrize("bad", ["5cnEk0efSdu", "jpXCZedGfVR", "5cnEkaefSd", "12345"])
def test_invalid_ids_are_422(client, bad: str) -> None:
    for r, loc in ((client.get(f"/orders/{bad}"), ["path", "order_id"]),
                   (client.get("/orders", params={"after": bad}), ["query", "after"]),
                   (client.post("/orders", json={"item": "x", "parent": bad}), ["body", "parent"])):
        assert r.status_code == 422, r.text
        (err,) = r.json()["detail"]
        assert (err["type"], err["loc"], err["msg"], err["input"]) == ("xid_parsing", loc, MESSAGE, bad)
    r = client.post("/orders", json={"item": "x", "parent": 5})
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "xid_parsing"


def test_openapi(client) -> None:
    spec = client.get("/openapi.json").json()
    (path_param,) = spec["paths"]["/orders/{order_id}"]["get"]["parameters"]
    assert path_param == {"name": "order_id", "in": "path", "required": True,
                          "schema": dict(SCHEMA, title="Order Id")}
    query = {p["name"]: p for p in spec["paths"]["/orders"]["get"]["parameters"]}
    assert query["after"]["in"] == "query" and query["after"]["required"] is False
    assert query["after"]["schema"]["anyOf"] == [SCHEMA, {"type": "null"}]
    schemas = spec["components"]["schemas"]
    assert schemas["Order"]["properties"]["id"] == dict(SCHEMA, title="Id")
    assert schemas["Order"]["properties"]["parent"]["anyOf"] == [SCHEMA, {"type": "null"}]
    assert schemas["OrderIn"]["properties"]["parent"]["anyOf"] == [SCHEMA, {"type": "null"}]
    ok = spec["paths"]["/orders/{order_id}"]["get"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Order"}


def test_sqlalchemy_time_comparison_with_an_aware_datetime(client) -> None:
    made = client.post("/orders", json={"item": "since"}).json()["id"]
    t = Xid(made).time
    r = client.get("/recent", params={"since": t.isoformat()})
    assert r.status_code == 200 and r.json() == [made], r.text
    r = client.get("/recent", params={"since": t.replace(tzinfo=None).isoformat()})
    assert r.status_code == 422, r.text
    (err,) = r.json()["detail"]
    assert (err["type"], err["loc"]) == ("timezone_aware", ["query", "since"])
    # a plain datetime reaches pgxid.sqlalchemy, which refuses the naive one
    # in the handler: a 500
    assert client.get("/recent-plain", params={"since": t.isoformat()}).json() == [made]
    assert client.get("/recent-plain", params={"since": t.replace(tzinfo=None).isoformat()}).status_code == 500
