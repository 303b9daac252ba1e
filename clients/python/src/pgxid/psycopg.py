"""psycopg 3: xid values as ``Xid``, text and binary, arrays, COPY.

    import psycopg, pgxid.psycopg
    conn = psycopg.connect()
    pgxid.psycopg.register(conn)

    aconn = await psycopg.AsyncConnection.connect()
    await pgxid.psycopg.register_async(aconn)

``register`` looks the type up as ``to_regtype('public.xid')`` (or the
schema given) and registers, for that OID and its array type:

- loaders (text and binary) that return ``Xid``;
- dumpers for ``Xid`` (text and binary) that send the xid OID, so an
  ``Xid`` parameter is typed and a list of them is an ``xid[]``;
- the type info under its qualified name (``"public.xid"``), so
  ``copy.set_types(["public.xid"])`` works for binary COPY.

A ``datetime`` parameter needs nothing: psycopg sends an aware one as
``timestamptz``, and ``id >= %s`` is then the server's ``xid >= timestamptz``,
exactly ``xid_time(id) >= t``, on the index.  A naive one is sent as
``timestamp`` and read in the session's TimeZone, as for any
``timestamptz`` comparison: pass aware datetimes.
"""

from __future__ import annotations

from typing import Any, Optional

from psycopg import AsyncConnection, BaseConnection, Connection, sql
from psycopg.abc import AdaptContext, Buffer
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format, TransactionStatus
from psycopg.types import TypeInfo

from ._codec import Xid, encode

__all__ = ["register", "register_async", "register_type_info", "fetch_type_info",
           "XidLoader", "XidBinaryLoader"]

_new_str = str.__new__

_QUERY = """\
SELECT t.oid, t.typarray, t.oid::regtype::text, t.typdelim
FROM pg_catalog.pg_type t
WHERE t.oid = pg_catalog.to_regtype({name})
"""


def _type_name(schema: str) -> sql.Composable:
    return sql.Literal(sql.Identifier(schema).as_string(None) + ".xid")


def fetch_type_info(conn: BaseConnection[Any], schema: str = "public") -> TypeInfo:
    """The xid type of ``schema`` in this database, found by
    ``to_regtype('schema.xid')``; LookupError when it is not installed there."""
    query = sql.SQL(_QUERY).format(name=_type_name(schema))
    # the look-up must not leave an idle connection idle in a transaction;
    # a transaction the caller has open stays open
    was_idle = conn.info.transaction_status == TransactionStatus.IDLE
    cur = conn.cursor(binary=False)
    try:
        row = cur.execute(query).fetchone()  # type: ignore[union-attr]
    finally:
        cur.close()
        if was_idle and conn.info.transaction_status != TransactionStatus.IDLE:
            conn.rollback()
    return _info(row, schema)


def _info(row: Optional[tuple], schema: str) -> TypeInfo:
    if row is None:
        raise LookupError(
            f'type "{schema}.xid" does not exist: CREATE EXTENSION xid SCHEMA {schema}'
        )
    oid, array_oid, regtype, delim = row
    return TypeInfo(regtype, oid, array_oid, regtype=regtype, delimiter=delim)


class XidLoader(Loader):
    """Text: 11 Base58 symbols, always canonical from the server."""

    def load(self, data: Buffer) -> Xid:
        return _new_str(Xid, bytes(data).decode("ascii"))


class XidBinaryLoader(Loader):
    """Binary: 8 bytes, big-endian."""

    format = Format.BINARY

    def load(self, data: Buffer) -> Xid:
        return _new_str(Xid, encode(int.from_bytes(data, "big")))


class _XidDumper(Dumper):
    def dump(self, obj: Xid) -> Buffer:
        return obj.encode("ascii")


class _XidBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: Xid) -> Buffer:
        return bytes(obj)


def register_type_info(info: TypeInfo, context: Optional[AdaptContext] = None) -> TypeInfo:
    """Register loaders and dumpers for the xid type described by ``info``
    (from ``fetch_type_info``), in ``context`` (a connection or cursor) or
    globally."""
    info.register(context)
    adapters = context.adapters if context is not None else None
    if adapters is None:
        from psycopg import adapters as global_adapters

        adapters = global_adapters
    adapters.register_loader(info.oid, XidLoader)
    adapters.register_loader(info.oid, XidBinaryLoader)
    attrs = {"oid": info.oid}
    adapters.register_dumper(Xid, type("XidDumper", (_XidDumper,), attrs))
    adapters.register_dumper(Xid, type("XidBinaryDumper", (_XidBinaryDumper,), attrs))
    return info


def register(conn: Connection[Any], schema: str = "public",
             context: Optional[AdaptContext] = None) -> TypeInfo:
    """Look up ``schema.xid`` on ``conn`` and register it there (or in
    ``context``).  Returns its TypeInfo (``.oid``, ``.array_oid``).  For an
    ``AsyncConnection``: ``await register_async(conn)``."""
    if isinstance(conn, AsyncConnection):
        raise TypeError("pgxid.psycopg.register() takes a Connection: for an AsyncConnection, "
                        "await pgxid.psycopg.register_async(conn)")
    return register_type_info(fetch_type_info(conn, schema), context or conn)


async def register_async(conn: AsyncConnection[Any], schema: str = "public",
                         context: Optional[AdaptContext] = None) -> TypeInfo:
    """``register`` for a ``psycopg.AsyncConnection``."""
    query = sql.SQL(_QUERY).format(name=_type_name(schema))
    was_idle = conn.info.transaction_status == TransactionStatus.IDLE
    try:
        async with conn.cursor(binary=False) as cur:
            await cur.execute(query)
            row = await cur.fetchone()
    finally:
        if was_idle and conn.info.transaction_status != TransactionStatus.IDLE:
            await conn.rollback()
    return register_type_info(_info(row, schema), context or conn)

