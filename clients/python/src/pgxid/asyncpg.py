"""asyncpg: xid values as ``Xid``, binary (default) or text, arrays, COPY.

    import asyncpg, pgxid.asyncpg
    conn = await asyncpg.connect()
    await pgxid.asyncpg.register(conn)
    # or for a pool: asyncpg.create_pool(init=pgxid.asyncpg.register)

``register`` looks the type up as ``to_regtype('public.xid')`` (or the
schema given), then gives asyncpg a codec for that type (asyncpg names a
type by name and schema; both are read from the OID found, so it is this
type and never PostgreSQL's own ``xid``).  Arrays of xid follow, and the
binary codec is what ``copy_records_to_table`` needs.

The trap it closes: in ``id >= $1`` the server types ``$1`` as an xid, so
a ``datetime`` argument would have to become an xid.  No single id makes
all four of ``< <= > >=`` mean ``xid_time(id) OP t``, so the codec refuses
a datetime with a message saying what to write: ``id >= $1::timestamptz``,
the server's exact time comparison, on the index.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from ._codec import Xid, encode

__all__ = ["register", "TIME_HINT"]

_new_str = str.__new__

TIME_HINT = (
    "an xid parameter got a {}: to compare ids with a time, write the parameter "
    "as $1::timestamptz (id >= $1::timestamptz means xid_time(id) >= $1 and uses the index)"
)


def _xid(value: Any) -> Xid:
    if type(value) is Xid:
        return value
    if isinstance(value, str):
        return Xid(value)
    if isinstance(value, date):
        raise TypeError(TIME_HINT.format(type(value).__name__))
    raise TypeError(f"an xid parameter takes an Xid or its text, not {type(value).__name__}")


def _encode_binary(value: Any) -> bytes:
    return bytes(_xid(value))


def _decode_binary(data: bytes) -> Xid:
    return _new_str(Xid, encode(int.from_bytes(data, "big")))


def _encode_text(value: Any) -> str:
    return str(_xid(value))


def _decode_text(text: str) -> Xid:
    return _new_str(Xid, text)


async def register(conn: Any, schema: str = "public", format: str = "binary") -> int:
    """Look up ``schema.xid`` and set its codec on ``conn``; returns its OID.
    ``format`` is ``"binary"`` (8 bytes, needed by ``copy_records_to_table``)
    or ``"text"``."""
    row = await conn.fetchrow(
        "SELECT t.oid, t.typname, n.nspname FROM pg_catalog.pg_type t"
        " JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace"
        " WHERE t.oid = pg_catalog.to_regtype(pg_catalog.quote_ident($1) || '.xid')",
        schema,
    )
    if row is None:
        raise LookupError(f'type "{schema}.xid" does not exist: CREATE EXTENSION xid SCHEMA {schema}')
    if format == "binary":
        encoder, decoder = _encode_binary, _decode_binary
    elif format == "text":
        encoder, decoder = _encode_text, _decode_text
    else:
        raise ValueError('format is "binary" or "text"')
    await conn.set_type_codec(
        row["typname"], schema=row["nspname"], encoder=encoder, decoder=decoder, format=format
    )
    return row["oid"]
