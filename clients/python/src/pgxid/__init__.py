"""pgxid: the xid identifiers of the PostgreSQL extension xid, in Python.

The codec needs nothing but the standard library::

    >>> from pgxid import Xid
    >>> x = Xid("5cnEkaefSdu")
    >>> x.time
    datetime.datetime(2026, 11, 21, 0, 0, tzinfo=datetime.timezone.utc)

Driver support lives in its own modules, each imported only when used:
``pgxid.psycopg`` (psycopg 3), ``pgxid.psycopg2``, ``pgxid.asyncpg``,
``pgxid.sqlalchemy`` and ``pgxid.django``.  Each finds the type by its OID,
``to_regtype('public.xid')`` (or the schema you name), never by the bare
name ``xid``, which is PostgreSQL's own transaction id type.  The
frameworks: ``pgxid.pydantic`` (which ``Xid`` uses when Pydantic v2 asks:
FastAPI, SQLModel) and ``pgxid.alembic``.
"""

from ._codec import (
    ALPHABET,
    EPOCH,
    MAX,
    MAX_MS,
    MAX_NODE_BITS,
    MAX_PAYLOAD,
    MIN,
    RANDOM_BITS,
    InvalidEscapeError,
    InvalidXidError,
    Xid,
    XidError,
    XidOutOfRangeError,
    XidTimeOutOfRangeError,
    decode,
    encode,
    is_valid,
    like_bounds,
    like_lower_bound,
    like_upper_bound,
    node,
    parse,
    prefix_bounds,
    prefix_lower_bound,
    prefix_upper_bound,
    time,
    time_lower_bound,
    time_upper_bound,
)
from ._generate import XidGenerator, new, new_at
from ._ulid import InvalidUlidError, from_ulid, from_ulid_flake, to_ulid
from ._uuid import NotAnXidUuidError, from_uuid, to_uuid

__version__ = "1.3.0"

__all__ = [
    "ALPHABET", "EPOCH", "MAX", "MAX_MS", "MAX_NODE_BITS", "MAX_PAYLOAD", "MIN",
    "RANDOM_BITS", "InvalidEscapeError", "InvalidXidError", "Xid", "XidError", "XidGenerator",
    "XidOutOfRangeError", "XidTimeOutOfRangeError", "decode", "encode", "is_valid", "like_bounds",
    "like_lower_bound", "like_upper_bound", "new", "new_at", "node", "parse",
    "prefix_bounds", "prefix_lower_bound", "prefix_upper_bound", "time",
    "time_lower_bound", "time_upper_bound",
    "NotAnXidUuidError", "from_uuid", "to_uuid",
    "InvalidUlidError", "from_ulid", "from_ulid_flake", "to_ulid",
]
