"""The xid format in plain Python: the value type, parsing, bounds, time.

An xid is a 64-bit unsigned payload, 42 bits of milliseconds since
2011-11-11T11:11:11.111Z then 22 further bits, written as exactly 11 symbols
of the Bitcoin Base58 alphabet, most significant first, padded with "1".
The alphabet is in ASCII order, so the text sorts exactly like the payload:
an ``Xid`` is a ``str`` holding its canonical text, and compares, sorts and
hashes as that text.  Every rule here mirrors the extension's C code
(src/uid11.c, src/xid_time.c, src/xid_like.c, src/xid_range.c), and the
tests check it against a live server.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Optional, Tuple

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
#: The largest payload, 2^64 - 1, and its text.
MAX_PAYLOAD = (1 << 64) - 1
MAX_TEXT = "jpXCZedGfVQ"
MIN_TEXT = "11111111111"
#: Bits of the time field, bits below it, and the largest millisecond.
MS_BITS = 42
RANDOM_BITS = 22
RANDOM_MASK = (1 << RANDOM_BITS) - 1
MAX_MS = (1 << MS_BITS) - 1
#: Node numbers take 0 to 12 of the 22 low bits (xid.node_bits).
MAX_NODE_BITS = 12
#: The epoch, in unix milliseconds and as an aware datetime.
EPOCH_UNIX_MS = 1321009871111
EPOCH = datetime(2011, 11, 11, 11, 11, 11, 111000, tzinfo=timezone.utc)

_LEN = 11
_B2 = 58 * 58
_B3 = _B2 * 58
_B5 = _B3 * _B2
_PAIRS = [a + b for a in ALPHABET for b in ALPHABET]
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_ONE_US = timedelta(microseconds=1)

assert EPOCH == datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=EPOCH_UNIX_MS)
assert len(ALPHABET) == 58 and "".join(sorted(ALPHABET)) == ALPHABET
assert EPOCH + timedelta(milliseconds=MAX_MS) == datetime(
    2151, 3, 25, 18, 46, 22, 214000, tzinfo=timezone.utc
)


class XidError(ValueError):
    """Text or a number that is no xid.  ``sqlstate`` is the server's code."""

    sqlstate = "22P02"

    def __init__(self, message: str, detail: Optional[str] = None) -> None:
        super().__init__(message)
        self.detail = detail


class InvalidXidError(XidError):
    """Not exactly 11 Base58 symbols (the server's 22P02,
    ``invalid input syntax for type xid: "..."``)."""

    sqlstate = "22P02"


class XidOutOfRangeError(XidError, OverflowError):
    """11 symbols above ``jpXCZedGfVQ`` (2^64 - 1), or a number outside
    0 .. 2^64 - 1 (the server's 22003).  Also a ValueError."""

    sqlstate = "22003"


class XidTimeOutOfRangeError(XidOutOfRangeError):
    """A time an xid cannot hold (before 2011-11-11 11:11:11.111+00 or
    after 2151-03-25 18:46:22.214+00): the server's 22008, ``timestamp out
    of range for type xid``.  Also an XidOutOfRangeError."""

    sqlstate = "22008"


class InvalidEscapeError(XidError):
    """A ``LIKE`` pattern that ends in a lone backslash: the server's 22025,
    ``LIKE pattern must not end with escape character``."""

    sqlstate = "22025"


def _invalid(text: str) -> XidError:
    """The server's error for text that is no xid (src/xid_io.c)."""
    if len(text) == _LEN and all(c in _VALUE for c in text):
        return XidOutOfRangeError(
            f'value "{text}" is out of range for type xid',
            f'The largest xid is "{MAX_TEXT}".',
        )
    for i, c in enumerate(text):
        if c not in _VALUE:
            detail = f'Character "{c}" at position {i + 1} is not a Base58 symbol.'
            break
    else:
        detail = "An xid is written as exactly 11 Base58 symbols."
    return InvalidXidError(f'invalid input syntax for type xid: "{text}"', detail)


def _valid(text: str) -> bool:
    # strip() removes alphabet symbols from both ends: nothing is left when
    # every symbol is one.  Fixed width and ASCII order: the text compares
    # like the payload, so the largest payload is a string comparison.
    return len(text) == _LEN and not text.strip(ALPHABET) and text <= MAX_TEXT


def encode(payload: int) -> str:
    """The text of a payload (0 .. 2^64 - 1), as ``xid_out``."""
    if type(payload) is not int and (isinstance(payload, bool) or not isinstance(payload, int)):
        raise TypeError(f"an xid payload is an int, not {type(payload).__name__}")
    if not 0 <= payload <= MAX_PAYLOAD:
        raise XidOutOfRangeError(
            f"{payload} is out of range for type xid",
            "An xid payload is from 0 to 18446744073709551615.",
        )
    hi, lo = divmod(payload, _B5)
    top, mid = divmod(hi, _B5)
    a, r = divmod(mid, _B3)
    b, c = divmod(r, 58)
    d, r = divmod(lo, _B3)
    e, f = divmod(r, 58)
    p = _PAIRS
    return f"{ALPHABET[top]}{p[a]}{p[b]}{ALPHABET[c]}{p[d]}{p[e]}{ALPHABET[f]}"


_DIGITS = bytes.maketrans(ALPHABET.encode("ascii"), bytes(range(58)))
_B6 = 58**6


def _decode_valid(text: str) -> int:
    """The payload of valid text: two groups of digits, the low one in
    small-int arithmetic."""
    a, b, c, d, e, f, g, h, i, j, k = text.encode("ascii").translate(_DIGITS)
    return ((((a * 58 + b) * 58 + c) * 58 + d) * 58 + e) * _B6 + (
        ((((f * 58 + g) * 58 + h) * 58 + i) * 58 + j) * 58 + k
    )


def decode(text: str) -> int:
    """The payload of canonical text, strictly, as ``xid_in``."""
    if type(text) is not str and not isinstance(text, str):
        raise TypeError(f"xid text is a str, not {type(text).__name__}")
    if not _valid(text):
        raise _invalid(str(text))
    return _decode_valid(text)


def is_valid(text: object) -> bool:
    """Is this canonical xid text (what the server's input accepts)?"""
    return isinstance(text, str) and _valid(text)


_new_str = str.__new__


def _int_arg(name: str, v: object) -> int:
    """An int argument: a bool, a float (even 1.0 or NaN), a Fraction or
    a Decimal is a TypeError, never truncated into an id."""
    if type(v) is int:
        return v  # type: ignore[return-value]
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    return int(v)


def _low_arg(low: object) -> int:
    low = _int_arg("low bits", low)
    if not 0 <= low <= RANDOM_MASK:
        raise XidOutOfRangeError(
            f"low bits {low} are out of range for type xid",
            f"The low bits of an xid are from 0 to {RANDOM_MASK}.",
        )
    return low


class Xid(str):
    """An xid: immutable, hashable, a ``str`` holding its canonical text.

    ``Xid("5cnEkaefSdu")`` parses strictly (InvalidXidError or
    XidOutOfRangeError, both ValueError, with the server's messages).
    It prints, compares, sorts and hashes as its text, which is the
    payload's order; ``int(x)`` is the payload and ``bytes(x)`` its 8 bytes
    big-endian (the binary wire format).  Equal to the plain ``str`` of its
    text.  ``Xid.from_int`` and ``Xid.from_bytes`` build one from a payload,
    ``Xid.from_unix_ms`` and ``Xid.from_datetime`` from a time.
    """

    __slots__ = ()

    def __new__(cls, text: str) -> "Xid":
        if type(text) is str:
            if len(text) == _LEN and not text.strip(ALPHABET) and text <= MAX_TEXT:
                return _new_str(cls, text)
            raise _invalid(text)
        if isinstance(text, Xid) and cls is Xid:
            return text
        if isinstance(text, str):
            return cls(str(text))
        if isinstance(text, (bytes, bytearray, memoryview)):
            raise TypeError("Xid() takes the text; use Xid.from_bytes() for the 8-byte form")
        if isinstance(text, int):
            raise TypeError("Xid() takes the text; use Xid.from_int() for a payload")
        raise TypeError(f"Xid() takes the text, not {type(text).__name__}")

    @classmethod
    def from_int(cls, payload: int) -> "Xid":
        """The xid of a payload, 0 .. 2^64 - 1."""
        return _new_str(cls, encode(payload))

    @classmethod
    def from_bytes(cls, data: bytes) -> "Xid":
        """The xid of 8 bytes, big-endian (the binary format, ``bytea::xid``)."""
        if len(data) != 8:
            raise XidError(
                f"bytes of length {len(data)} do not match type xid",
                "An xid converts from exactly 8 bytes, most significant first.",
            )
        return _new_str(cls, encode(int.from_bytes(data, "big")))

    @classmethod
    def from_unix_ms(cls, ms: int, low: int = 0) -> "Xid":
        """The xid of a Unix time in milliseconds (``time.time_ns() // 10**6``)
        and the 22 bits below it: what ``xid_new(t)`` makes for that
        millisecond, with ``low`` for its random bits.  An int, from
        1321009871111 (the xid epoch, 2011-11-11T11:11:11.111Z) to
        5719060958325 (2151-03-25T18:46:22.214Z)."""
        ms = _int_arg("Unix milliseconds", ms)
        xms = ms - EPOCH_UNIX_MS
        if not 0 <= xms <= MAX_MS:
            raise XidOutOfRangeError(
                f"Unix millisecond {ms} is out of range for type xid",
                f"An xid holds Unix milliseconds from {EPOCH_UNIX_MS} to {EPOCH_UNIX_MS + MAX_MS}.",
            )
        return _new_str(cls, encode(xms << RANDOM_BITS | _low_arg(low)))

    @classmethod
    def from_datetime(cls, t: datetime, low: int = 0) -> "Xid":
        """The xid of an aware datetime (its millisecond, rounded down, as
        ``xid_new(t)``) and the 22 bits below it."""
        ms = ms_of(t)
        return _new_str(cls, encode(ms << RANDOM_BITS | _low_arg(low)))

    @classmethod
    def from_xid_epoch_ms(cls, ms: int, low: int = 0) -> "Xid":
        """The xid of a millisecond counted from the xid epoch,
        2011-11-11T11:11:11.111Z (0 .. 2^42 - 1, the id's top 42 bits,
        ``x.ms``), and the 22 bits below it.  For a Unix time use
        ``from_unix_ms``."""
        ms = _int_arg("xid epoch milliseconds", ms)
        if not 0 <= ms <= MAX_MS:
            raise XidOutOfRangeError(
                f"xid epoch millisecond {ms} is out of range for type xid",
                f"Milliseconds since the xid epoch are from 0 to {MAX_MS}.",
            )
        return _new_str(cls, encode(ms << RANDOM_BITS | _low_arg(low)))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """Pydantic v2 support, in pgxid.pydantic (imported only here)."""
        from .pydantic import xid_core_schema

        return xid_core_schema(cls)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: Any) -> Any:
        from .pydantic import xid_json_schema

        return xid_json_schema(schema, handler)

    def __int__(self) -> int:
        return _decode_valid(self)

    def __bytes__(self) -> bytes:
        return _decode_valid(self).to_bytes(8, "big")

    def __repr__(self) -> str:
        return f"Xid('{self}')"

    @property
    def payload(self) -> int:
        """The 64-bit payload (the same as ``int(x)``)."""
        return _decode_valid(self)

    @property
    def ms(self) -> int:
        """Milliseconds since the epoch, the top 42 bits."""
        return _decode_valid(self) >> RANDOM_BITS

    @property
    def time(self) -> datetime:
        """The creation time, an aware datetime in UTC, to the millisecond
        (as ``xid_time``)."""
        return EPOCH + timedelta(milliseconds=_decode_valid(self) >> RANDOM_BITS)

    @property
    def random(self) -> int:
        """The 22 bits below the time (as ``xid_random``)."""
        return _decode_valid(self) & RANDOM_MASK

    def node(self, bits: int) -> int:
        """The node number of an id made with ``bits`` node bits (as ``xid_node``)."""
        return node(self, bits)


MIN = Xid(MIN_TEXT)
MAX = Xid(MAX_TEXT)


def parse(text: str) -> Xid:
    """Strict parse: the same as ``Xid(text)``."""
    return Xid(text)


def time(id: str) -> datetime:
    """The creation time of an xid (text or Xid), as ``xid_time``."""
    return EPOCH + timedelta(milliseconds=decode(id) >> RANDOM_BITS)


def node(id: str, bits: int) -> int:
    """The node field of an id under a layout of ``bits`` node bits (0 to 12);
    0 for 0 bits.  As ``xid_node(id, bits)``."""
    if isinstance(bits, bool) or not isinstance(bits, int):
        raise TypeError("node bits are an int")
    if not 0 <= bits <= MAX_NODE_BITS:
        raise ValueError(f"node bits {bits} is out of range")
    return (decode(id) & RANDOM_MASK) >> (RANDOM_BITS - bits)


# ---- prefixes (uid11_starts_with_bounds, ^@, xid_prefix_lower_bound)

_POW58 = [58**n for n in range(_LEN)]


def _starts_with_bounds(prefix: str) -> Optional[Tuple[int, int]]:
    n = len(prefix)
    if n == 0:
        return 0, MAX_PAYLOAD
    if n > _LEN or prefix.strip(ALPHABET):
        return None
    if n == _LEN:
        if prefix > MAX_TEXT:
            return None
        v = _decode_valid(prefix)
        return v, v
    v = 0
    for c in prefix:
        v = v * 58 + _VALUE[c]
    scale = _POW58[_LEN - n]
    lo = v * scale
    if lo > MAX_PAYLOAD:
        return None  # even the lowest id with this prefix is above 2^64-1
    return lo, min(lo + scale - 1, MAX_PAYLOAD)


def _xids(bounds: Optional[Tuple[int, int]]) -> Optional[Tuple[Xid, Xid]]:
    if bounds is None:
        return None
    return Xid.from_int(bounds[0]), Xid.from_int(bounds[1])


def prefix_bounds(prefix: str) -> Optional[Tuple[Xid, Xid]]:
    """The first and last id whose text starts with ``prefix`` (as ``^@``):
    every id for ``""``, None when no id can (a symbol outside Base58, more
    than 11 symbols, above the largest id).  The same as
    ``xid_prefix_lower_bound``/``xid_prefix_upper_bound``."""
    return _xids(_starts_with_bounds(prefix))


def prefix_lower_bound(prefix: str) -> Optional[Xid]:
    b = prefix_bounds(prefix)
    return b[0] if b else None


def prefix_upper_bound(prefix: str) -> Optional[Xid]:
    b = prefix_bounds(prefix)
    return b[1] if b else None


# ---- times (xid_time_op_ms, xid_time_lower_bound)


def _aware(t: datetime) -> datetime:
    if not isinstance(t, datetime):
        raise TypeError(f"a time is a datetime, not {type(t).__name__}")
    if t.tzinfo is None or t.utcoffset() is None:
        raise ValueError(
            "a naive datetime has no instant: give it a tzinfo (datetime.now(timezone.utc))"
        )
    return t


def _floor_ceil_ms(t: datetime) -> Tuple[int, int]:
    us = (_aware(t) - EPOCH) // _ONE_US
    floor = us // 1000
    return floor, floor if us % 1000 == 0 else floor + 1


def time_lower_bound(t: datetime, inclusive: bool = True) -> Optional[Xid]:
    """The first id made at or after ``t`` (inclusive) or after it, None when
    there is none; as ``xid_time_lower_bound(t, inclusive)``: ``id >= t`` is
    ``id >= time_lower_bound(t)``."""
    floor, ceil = _floor_ceil_ms(t)
    m = ceil if inclusive else floor + 1
    if m > MAX_MS:
        return None
    return Xid.from_int(max(m, 0) << RANDOM_BITS)


def time_upper_bound(t: datetime, inclusive: bool = True) -> Optional[Xid]:
    """The last id made at or before ``t`` (inclusive) or before it, None when
    there is none; as ``xid_time_upper_bound(t, inclusive)``."""
    floor, ceil = _floor_ceil_ms(t)
    m = floor if inclusive else ceil - 1
    if m < 0:
        return None
    return Xid.from_int(min(m, MAX_MS) << RANDOM_BITS | RANDOM_MASK)


def ms_of(t: datetime) -> int:
    """The millisecond since the epoch that holds ``t`` (rounded down), or
    XidOutOfRangeError when an xid cannot hold it (as ``xid_new(t)``)."""
    floor, _ = _floor_ceil_ms(t)
    if not 0 <= floor <= MAX_MS:
        raise XidTimeOutOfRangeError(
            "timestamp out of range for type xid",
            "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.",
        )
    return floor


# ---- LIKE patterns (xid_like_bounds, xid_like_lower_bound)


def like_bounds(pattern: str) -> Optional[Tuple[Xid, Xid]]:
    """The first and last id that ``id LIKE pattern`` can match (the bounds of
    its fixed prefix, backslash escapes undone), None when no id can; as
    ``xid_like_lower_bound``/``xid_like_upper_bound``.  A pattern that ends
    in a lone backslash is an error, InvalidEscapeError (the server's 22025),
    whatever comes before it, as matching it is."""
    n = len(pattern)
    if pattern.endswith("\\"):
        j = 0
        while j < n:
            j += 2 if pattern[j] == "\\" else 1
        if j > n:
            raise InvalidEscapeError("LIKE pattern must not end with escape character")
    i = 0
    prefix = []
    while i < n and pattern[i] != "%" and pattern[i] != "_":
        if pattern[i] == "\\":
            i += 1
        if len(prefix) == _LEN:
            return None  # longer than any xid's text
        prefix.append(pattern[i])
        i += 1
    underscores = 0
    percent = False
    literals = 0
    while i < n:
        c = pattern[i]
        if c == "%":
            percent = True
        elif c == "_":
            underscores += 1
        else:
            if c == "\\":
                i += 1
            literals += 1
        i += 1
    fixed = len(prefix)
    if literals == 0 and (fixed + underscores > _LEN if percent else fixed + underscores != _LEN):
        return None  # every xid's text has 11 symbols
    return _xids(_starts_with_bounds("".join(prefix)))


def like_lower_bound(pattern: str) -> Optional[Xid]:
    b = like_bounds(pattern)
    return b[0] if b else None


def like_upper_bound(pattern: str) -> Optional[Xid]:
    b = like_bounds(pattern)
    return b[1] if b else None
