"""An xid as a UUIDv7 and back, as the extension's casts (1.2) make them.

The UUID holds the id's instant as unix milliseconds in its first 48 bits,
version 7, the top 12 of the id's 22 low bits (rand_a), variant 10, the
bottom 10 bits, then 52 zero bits (src/xid_uuid.c).  It sorts as the id
does and converts back exactly; any other UUID is refused, as the server's
``uuid::xid`` refuses it (SQLSTATE 22023).
"""

from __future__ import annotations

import uuid
from typing import Union

from ._codec import (
    EPOCH_UNIX_MS,
    MAX_MS,
    RANDOM_BITS,
    RANDOM_MASK,
    Xid,
    XidError,
    XidTimeOutOfRangeError,
    _decode_valid,
)


class NotAnXidUuidError(XidError):
    """A UUID that ``to_uuid`` did not make (the server's 22023,
    ``uuid "..." is not an xid``)."""

    sqlstate = "22023"


def to_uuid(id: Union[str, Xid]) -> uuid.UUID:
    """The id as a version 7 UUID with its time (``id::uuid``)."""
    payload = _decode_valid(id) if isinstance(id, Xid) else int(Xid(id))
    unix_ms = (payload >> RANDOM_BITS) + EPOCH_UNIX_MS
    low = payload & RANDOM_MASK
    value = (
        (unix_ms << 80) | (0x7 << 76) | ((low >> 10) << 64) | (0b10 << 62) | ((low & 0x3FF) << 52)
    )
    return uuid.UUID(int=value)


def from_uuid(u: Union[str, uuid.UUID]) -> Xid:
    """The id a UUID made by ``to_uuid`` stands for (``uuid::xid``)."""
    if not isinstance(u, uuid.UUID):
        u = uuid.UUID(str(u))
    value = u.int
    if (value >> 76) & 0xF != 7 or (value >> 62) & 0b11 != 0b10 or value & ((1 << 52) - 1):
        raise NotAnXidUuidError(
            f'uuid "{u}" is not an xid',
            "An xid as a uuid is a version 7 uuid whose last 52 bits are zero.",
        )
    ms = (value >> 80) - EPOCH_UNIX_MS
    if not 0 <= ms <= MAX_MS:
        raise XidTimeOutOfRangeError(
            "timestamp out of range for type xid",
            "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.",
        )
    low = (((value >> 64) & 0xFFF) << 10) | ((value >> 52) & 0x3FF)
    return Xid.from_xid_epoch_ms(ms, low)
