"""An xid as a ULID and back, and the id of a ulid-flake id, as the
extension's functions (1.2) make them.

A ULID is 128 bits: unix milliseconds in the first 48, then randomness.
``to_ulid`` writes the id's instant there, its 22 low bits first in the
randomness and zeros after them, as 26 symbols of Crockford's Base32
(``xid_to_ulid``); the ULID sorts as the id does.  ``from_ulid`` keeps a
ULID's time and the 22 bits after it (``xid_from_ulid``): the id of a ULID
that ``to_ulid`` made is exact, any other ULID loses the rest of its
randomness.  A ulid-flake id (a zero sign bit, 43 bits of milliseconds
since 2024-01-01T00:00:00Z, 20 bits) converts whole, its 20 bits on top of
the id's 22 (``xid_from_ulid_flake``).  src/xid_uuid.c has the reasoning.
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
    XidOutOfRangeError,
    XidTimeOutOfRangeError,
    _decode_valid,
    _int_arg,
)

# Crockford's Base32 as ULID writes it (no I, L, O, U)
_ULID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# ulid-flake's epoch, 2024-01-01T00:00:00Z, in unix milliseconds
_FLAKE_EPOCH_UNIX_MS = 1704067200000

_ULID_LEN = 26
_ULID_VALUE = {c: i for i, c in enumerate(_ULID_ALPHABET)}
_ULID_VALUE.update({c.lower(): i for c, i in _ULID_VALUE.items()})
_FLAKE_LOW_BITS = 20

assert len(_ULID_ALPHABET) == 32 and "".join(sorted(_ULID_ALPHABET)) == _ULID_ALPHABET


class InvalidUlidError(XidError):
    """Text that is no ULID (the server's 22P02,
    ``invalid input syntax for a ulid: "..."``)."""

    sqlstate = "22P02"


def _xid_of_unix_ms(unix_ms: int, low: int) -> Xid:
    """The id of a unix millisecond and 22 bits, or the server's error for
    a time an xid cannot hold."""
    ms = unix_ms - EPOCH_UNIX_MS
    if not 0 <= ms <= MAX_MS:
        raise XidTimeOutOfRangeError(
            "timestamp out of range for type xid",
            "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.",
        )
    return Xid.from_xid_epoch_ms(ms, low)


def _ulid_of_int(value: int) -> Xid:
    """The id of a ULID's 128 bits: its time and the 22 bits after it."""
    return _xid_of_unix_ms(value >> 80, (value >> 58) & RANDOM_MASK)


def to_ulid(id: Union[str, Xid]) -> str:
    """The id as a ULID's 26 symbols, uppercase, with its time
    (``xid_to_ulid(id)``)."""
    payload = _decode_valid(id) if isinstance(id, Xid) else int(Xid(id))
    value = ((payload >> RANDOM_BITS) + EPOCH_UNIX_MS) << 80 | (payload & RANDOM_MASK) << 58
    # 26 symbols of 5 bits are 130 bits: the first symbol holds 3
    return "".join(_ULID_ALPHABET[(value >> shift) & 31] for shift in range(125, -1, -5))


def from_ulid(u: Union[str, uuid.UUID]) -> Xid:
    """The id of a ULID, its time and the 22 bits after it
    (``xid_from_ulid``): its 26 symbols in either case, or its 16 bytes as a
    ``uuid.UUID`` (a ULID stored as a uuid, as pgx_ulid casts it)."""
    if isinstance(u, uuid.UUID):
        return _ulid_of_int(u.int)
    if not isinstance(u, str):
        raise TypeError(f"a ULID is a str or a uuid.UUID, not {type(u).__name__}")
    # the server counts bytes, and reads the symbols in order: a first
    # symbol above 7 is named as such even when a later one is no symbol
    if len(u.encode("utf-8", "surrogatepass")) != _ULID_LEN:
        raise _invalid_ulid(u, "A ulid is 26 symbols of Crockford's Base32.")
    value = 0
    for i, c in enumerate(u):
        v = _ULID_VALUE.get(c)
        if v is None:
            raise _invalid_ulid(u, "A ulid is 26 symbols of Crockford's Base32.")
        if i == 0 and v > 7:
            raise _invalid_ulid(u, "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.")
        value = value << 5 | v
    return _ulid_of_int(value)


def _invalid_ulid(text: str, detail: str) -> InvalidUlidError:
    return InvalidUlidError(f'invalid input syntax for a ulid: "{text}"', detail)


def from_ulid_flake(flake: int) -> Xid:
    """The id of a ulid-flake id (``xid_from_ulid_flake``): its time, and its
    20 bits as the top 20 of the id's 22, so that distinct flakes give
    distinct ids in the same order.  An int from 0 to 2^63 - 1."""
    flake = _int_arg("a ulid-flake id", flake)
    if not 0 <= flake < 1 << 63:
        raise XidOutOfRangeError(
            f"ulid-flake id {flake} is out of range", "A ulid-flake id has a zero sign bit."
        )
    low = flake & ((1 << _FLAKE_LOW_BITS) - 1)
    return _xid_of_unix_ms(
        (flake >> _FLAKE_LOW_BITS) + _FLAKE_EPOCH_UNIX_MS, low << (RANDOM_BITS - _FLAKE_LOW_BITS)
    )
