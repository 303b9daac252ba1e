"""SQLAlchemy 2: a column type ``XidType``, reflection, time comparisons.

    from sqlalchemy import create_engine, text
    from pgxid.sqlalchemy import XidType, register

    engine = create_engine("postgresql+psycopg://...")
    register(engine)          # the driver's codecs on every new connection

    class Order(Base):
        __tablename__ = "orders"
        id: Mapped[Xid] = mapped_column(XidType, primary_key=True,
                                        server_default=text("xid_new()"))

    select(Order).where(Order.id >= datetime(2026, 1, 1, tzinfo=timezone.utc))

- ``XidType`` is written ``public.xid`` in DDL and casts (``XidType("ids")``
  for another schema) and returns ``Xid`` values.
- Importing this module registers ``public.xid`` with the PostgreSQL
  dialect's reflection, so a reflected xid column is an ``XidType`` (and an
  ``xid[]`` column an ``ARRAY(XidType)``), not ``NullType``;
  ``register_schema("ids")`` does the same for another schema.
- A comparison of an ``XidType`` column with a ``datetime`` (or a
  ``DateTime`` expression) is the server's ``xid OP timestamptz``, exactly
  ``xid_time(id) OP t``, with the time cast to ``timestamptz``: the same
  index range scan as ``id >= $1::timestamptz``.  A naive ``datetime`` is
  refused (it has no instant): a ValueError where the query is built.  In
  FastAPI take the time as ``pydantic.AwareDatetime``, so a naive one is a
  422 from validation, not a 500 from the handler.
- Prefix search: ``Order.id.startswith("5cnrQT")`` and
  ``Order.id.op("^@")("5cnrQT")`` are the server's ``id ^@ text``, and
  ``Order.id.like("5cnrQT%")`` (and ``not_like``, ``~startswith``) is its
  ``xid LIKE text``: each an index range scan, the operand sent as text and
  never parsed as a whole id.
- ``register(engine)`` sets up psycopg 3, psycopg2 or asyncpg on each
  connection the engine opens (``pgxid.psycopg``, ``pgxid.psycopg2``,
  ``pgxid.asyncpg``), which arrays (``func.array_agg(id)``) and binary
  transfers need.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, Callable, Optional

from sqlalchemy import event
from sqlalchemy.dialects.postgresql import TIMESTAMP
from sqlalchemy.dialects.postgresql.base import PGDialect
from sqlalchemy.sql import operators, sqltypes
from sqlalchemy import bindparam, cast
from sqlalchemy.sql.elements import BinaryExpression, ColumnElement
from sqlalchemy.types import UserDefinedType

from ._codec import Xid

__all__ = ["XidType", "register", "register_schema"]

_TIME_OPS = {operators.lt, operators.le, operators.gt, operators.ge}
# the operators whose right operand is text (a pattern or a prefix), not an id
_LIKE_OPS = {operators.like_op, operators.not_like_op}
_PREFIX_OPS = {operators.startswith_op, operators.not_startswith_op}
_PREFIX = operators.custom_op("^@", is_comparison=True, return_type=sqltypes.Boolean)


def _quote(schema: str) -> str:
    if schema.isidentifier() and schema == schema.lower():
        return schema
    return '"' + schema.replace('"', '""') + '"'


class XidType(UserDefinedType):
    """The xid type of the extension, in schema ``public`` unless given."""

    cache_ok = True
    render_bind_cast = True

    def __init__(self, schema: str = "public") -> None:
        self.schema = schema

    def get_col_spec(self, **kw: Any) -> str:
        return f"{_quote(self.schema)}.xid"

    @property
    def python_type(self) -> type:
        return Xid

    def bind_processor(self, dialect: Any) -> Callable[[Any], Optional[str]]:
        def process(value: Any) -> Optional[Xid]:
            if value is None:
                return None
            if isinstance(value, (_dt.date, _dt.datetime)):
                raise TypeError(
                    "a datetime given as an xid: compare the column with it "
                    "(column >= t) for xid_time(id) >= t"
                )
            return Xid(value)

        return process

    def result_processor(self, dialect: Any, coltype: Any) -> Callable[[Any], Optional[Xid]]:
        def process(value: Any) -> Optional[Xid]:
            return None if value is None else Xid(value)

        return process

    def literal_processor(self, dialect: Any) -> Callable[[Any], str]:
        spec = self.get_col_spec()

        def process(value: Any) -> str:
            return f"'{Xid(value)}'::{spec}"

        return process

    class comparator_factory(UserDefinedType.Comparator):
        """``id OP datetime`` is the server's ``xid OP timestamptz``."""

        def operate(self, op: Any, *other: Any, **kwargs: Any) -> ColumnElement:
            if op in _TIME_OPS and len(other) == 1:
                t = _time_operand(other[0])
                if t is not None:
                    return BinaryExpression(self.expr, t, op, type_=sqltypes.BOOLEANTYPE)
            if op in _PREFIX_OPS and other:
                # xid ^@ text: the ids whose text starts with the prefix, an
                # index range; a prefix has no wildcard, so autoescape and
                # escape change nothing
                e = BinaryExpression(self.expr, _text_operand(other[0]), _PREFIX, type_=sqltypes.BOOLEANTYPE)
                return e if op is operators.startswith_op else ~e
            if op in _LIKE_OPS and other:
                return super().operate(op, _text_operand(other[0]), *other[1:], **kwargs)
            if isinstance(op, operators.custom_op) and op.opstring == "^@" and len(other) == 1:
                return BinaryExpression(self.expr, _text_operand(other[0]), op, type_=sqltypes.BOOLEANTYPE)
            return super().operate(op, *other, **kwargs)

        def reverse_operate(self, op: Any, other: Any, **kwargs: Any) -> ColumnElement:
            if op in _TIME_OPS:
                t = _time_operand(other)
                if t is not None:
                    return BinaryExpression(t, self.expr, op, type_=sqltypes.BOOLEANTYPE)
            return super().reverse_operate(op, other, **kwargs)


def _text_operand(other: Any) -> ColumnElement:
    """A pattern or prefix, bound as text (an expression is left as it is)."""
    if isinstance(other, ColumnElement):
        return other
    return bindparam(None, other, type_=sqltypes.Text())


def _time_operand(other: Any) -> Optional[ColumnElement]:
    """A datetime or DateTime expression as a timestamptz, else None."""
    if isinstance(other, _dt.datetime):
        if other.tzinfo is None or other.utcoffset() is None:
            raise ValueError(
                "an xid compared with a naive datetime: give the datetime a tzinfo "
                "(a naive one would be read in the session's TimeZone)"
            )
        return cast(bindparam(None, other, type_=TIMESTAMP(timezone=True)), TIMESTAMP(timezone=True))
    if isinstance(other, _dt.date):
        raise TypeError("an xid compared with a date: compare with an aware datetime")
    if isinstance(other, ColumnElement) and isinstance(other.type, sqltypes.DateTime):
        if other.type.timezone:
            return other
        return cast(other, TIMESTAMP(timezone=True))
    return None


def register_schema(schema: str) -> None:
    """Reflect the xid type of ``schema`` (``public`` is done on import)."""

    def make(*args: Any, **kwargs: Any) -> XidType:
        return XidType(schema)

    for key in {f"{schema}.xid", f"{_quote(schema)}.xid"}:
        PGDialect.ischema_names[key.lower()] = make


PGDialect.ischema_names["public.xid"] = XidType


def _setup_connection(dbapi_connection: Any, schema: str) -> None:
    driver = getattr(dbapi_connection, "driver_connection", dbapi_connection)
    module = type(driver).__module__
    if module.startswith("asyncpg"):
        from . import asyncpg as xid_asyncpg

        dbapi_connection.run_async(lambda conn: xid_asyncpg.register(conn, schema))
    elif module.startswith("psycopg2"):
        from . import psycopg2 as xid_psycopg2

        xid_psycopg2.register(driver, schema)  # leaves the connection idle
    elif module.startswith("psycopg"):
        from . import psycopg as xid_psycopg

        if hasattr(dbapi_connection, "run_async"):
            dbapi_connection.run_async(lambda conn: xid_psycopg.register_async(conn, schema))
        else:
            xid_psycopg.register(driver, schema)
    else:
        raise TypeError(f"pgxid.sqlalchemy: no support for the driver {module}")


def register(engine: Any, schema: str = "public") -> None:
    """On every connection ``engine`` (sync or async) opens, register the
    driver's xid codecs (psycopg 3, psycopg2 or asyncpg)."""
    sync_engine = getattr(engine, "sync_engine", engine)

    @event.listens_for(sync_engine, "connect")
    def _connect(dbapi_connection: Any, connection_record: Any) -> None:
        _setup_connection(dbapi_connection, schema)

    if schema != "public":
        register_schema(schema)
