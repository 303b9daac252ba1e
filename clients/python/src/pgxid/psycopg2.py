"""psycopg2: xid values as ``Xid``, arrays included.

    import psycopg2, pgxid.psycopg2
    conn = psycopg2.connect("")
    pgxid.psycopg2.register(conn)

``register`` looks the type up as ``to_regtype('public.xid')`` (or the
schema given) and registers on that connection (or globally) a typecaster
for its OID and one for its array OID, so ``id`` and ``array_agg(id)``
come back as ``Xid`` and ``list[Xid]``.  It also adapts ``Xid`` parameters
as ``'...'::public.xid``, so a list of them is an ``xid[]``
(``id = ANY(%s)``).  psycopg2 adapters are global: the last schema
registered is the one written in the cast.

A ``datetime`` parameter needs nothing: psycopg2 writes an aware one as
``'...'::timestamptz``, and ``id >= %s`` is then the server's
``xid >= timestamptz``, exactly ``xid_time(id) >= t``, on the index.
"""

from __future__ import annotations

from typing import Any, Optional

import psycopg2.extensions as ext

from ._codec import Xid

__all__ = ["register"]

_new_str = str.__new__


def _cast(value: Optional[str], cur: Any) -> Optional[Xid]:
    return None if value is None else _new_str(Xid, value)


class XidAdapter:
    """An Xid as a literal of the registered type: ``'5cnEkaefSdu'::public.xid``."""

    type_name = "public.xid"

    def __init__(self, value: Xid) -> None:
        self.value = value

    def getquoted(self) -> bytes:
        return f"'{self.value}'::{self.type_name}".encode("ascii")


def register(conn_or_curs: Any, schema: str = "public", globally: bool = False) -> tuple:
    """Look up ``schema.xid`` and register its typecasters on the connection
    (or cursor, or ``globally``).  Returns ``(oid, array_oid)``."""
    cur = conn_or_curs.cursor() if hasattr(conn_or_curs, "cursor") else conn_or_curs
    conn = cur.connection
    # the look-up must not leave an idle connection idle in a transaction
    # (holding a snapshot, blocking VACUUM); a transaction the caller has
    # open is theirs, and stays open
    was_idle = conn.get_transaction_status() == ext.TRANSACTION_STATUS_IDLE
    try:
        cur.execute(
            "SELECT t.oid, t.typarray, t.oid::regtype::text FROM pg_catalog.pg_type t"
            " WHERE t.oid = pg_catalog.to_regtype(pg_catalog.quote_ident(%s) || '.xid')",
            (schema,),
        )
        row = cur.fetchone()
    finally:
        if was_idle and conn.get_transaction_status() != ext.TRANSACTION_STATUS_IDLE:
            conn.rollback()
    if row is None:
        raise LookupError(f'type "{schema}.xid" does not exist: CREATE EXTENSION xid SCHEMA {schema}')
    oid, array_oid, regtype = row
    xid_type = ext.new_type((oid,), "XID", _cast)
    array_type = ext.new_array_type((array_oid,), "XID[]", xid_type)
    scope = None if globally else conn_or_curs
    ext.register_type(xid_type, scope)
    ext.register_type(array_type, scope)
    adapter = type("XidAdapter", (XidAdapter,), {"type_name": regtype})
    ext.register_adapter(Xid, adapter)
    return oid, array_oid
