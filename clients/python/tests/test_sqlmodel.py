"""SQLModel: a table model with an Xid primary key against the live server
(pgxid.sqlalchemy's XidType as the column type, Pydantic validation from
pgxid.pydantic)."""

from __future__ import annotations

from datetime import timedelta
from typing import Optional

import pytest

import pgxid
from pgxid import Xid
from conftest import HAVE_DB

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

sqlmodel = pytest.importorskip("sqlmodel")
from pydantic import ValidationError  # noqa: E402
from sqlalchemy import text  # noqa: E402
from sqlmodel import Field, Session, SQLModel, create_engine, select  # noqa: E402

from pgxid.sqlalchemy import XidType, register  # noqa: E402

SCHEMA = {"type": "string", "pattern": "^[1-9A-HJ-NP-Za-km-z]{11}$", "minLength": 11, "maxLength": 11}


class Item(SQLModel, table=True):
    __tablename__ = "sqlm_items"
    id: Xid = Field(default_factory=pgxid.new, sa_type=XidType, primary_key=True)
    name: str
    parent: Optional[Xid] = Field(default=None, sa_type=XidType, foreign_key="sqlm_items.id")


class Event(SQLModel, table=True):
    __tablename__ = "sqlm_events"
    id: Optional[Xid] = Field(default=None, sa_type=XidType, primary_key=True,
                              sa_column_kwargs={"server_default": text("xid_new()")})
    what: str


class Untyped(SQLModel, table=True):
    # without sa_type SQLModel maps any str subclass to VARCHAR
    __tablename__ = "sqlm_untyped"
    id: Xid = Field(primary_key=True)


@pytest.fixture(scope="module")
def engine():
    e = create_engine("postgresql+psycopg://")
    register(e)
    SQLModel.metadata.create_all(e, tables=[Item.__table__, Event.__table__, Untyped.__table__])
    yield e
    e.dispose()


def test_columns_are_public_xid(engine) -> None:
    with engine.connect() as c:
        types = dict(c.execute(text(
            "SELECT attrelid::regclass::text || '.' || attname, format_type(atttypid, atttypmod)"
            " FROM pg_attribute WHERE attrelid IN ('sqlm_items'::regclass, 'sqlm_events'::regclass,"
            " 'sqlm_untyped'::regclass) AND attnum > 0 AND NOT attisdropped")).all())
    assert types["sqlm_items.id"] == types["sqlm_items.parent"] == types["sqlm_events.id"] == "public.xid"
    assert types["sqlm_untyped.id"] == "character varying"


def test_primary_key_round_trip(engine) -> None:
    with Session(engine) as s:
        root = Item(name="root")
        s.add(root)
        s.commit()
        child = Item(name="child", parent=root.id)
        s.add(child)
        s.commit()
        root_id, child_id = root.id, child.id
    assert type(root_id) is Xid and child_id > root_id
    with Session(engine) as s:
        got = s.get(Item, child_id)
        assert got is not None and type(got.id) is Xid and got.parent == root_id and type(got.parent) is Xid
        assert s.exec(select(Item).where(Item.parent == root_id)).one().id == child_id
        # the column compared with an aware datetime: xid >= timestamptz
        since = root_id.time
        assert {i.id for i in s.exec(select(Item).where(Item.id >= since))} >= {root_id, child_id}
        assert s.exec(select(Item).where(Item.id < since - timedelta(days=1))).all() == []


def test_server_default_primary_key(engine) -> None:
    with Session(engine) as s:
        e = Event(what="made")
        s.add(e)
        s.commit()
        s.refresh(e)
        assert type(e.id) is Xid and pgxid.is_valid(e.id)
        assert s.exec(select(Event).where(Event.id == e.id)).one().what == "made"


def test_validation_and_schema() -> None:
    item = Item.model_validate({"id": "5cnEkaefSdu", "name": "x"})
    assert type(item.id) is Xid and item.model_dump_json() == '{"id":"5cnEkaefSdu","name":"x","parent":null}'
    with pytest.raises(ValidationError) as e:
        Item.model_validate({"id": "5cnEk0efSdu", "name": "x"})
    assert [x["type"] for x in e.value.errors()] == ["xid_parsing"]
    props = Item.model_json_schema()["properties"]
    assert props["id"] == dict(SCHEMA, title="Id")
