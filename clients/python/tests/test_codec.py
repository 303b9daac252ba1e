"""The codec alone: no database (test_server.py checks it against one)."""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import threading
from datetime import datetime, timedelta, timezone

import pytest

import pgxid
from pgxid import (
    EPOCH,
    MAX,
    MIN,
    InvalidXidError,
    Xid,
    XidError,
    XidGenerator,
    XidOutOfRangeError,
)

UTC = timezone.utc
# The test vectors of docs/format.md (section 7)
SPEC = [(0, "11111111111"), (1 << 22, "1111111NVpb"), (86_400_000 << 22, "113q8KFkAEs")]


@pytest.mark.parametrize("payload,text", SPEC)
def test_spec_vectors(payload: int, text: str) -> None:
    assert pgxid.encode(payload) == text
    assert pgxid.decode(text) == payload
    assert int(Xid(text)) == payload
    assert Xid.from_int(payload) == text


def test_edges() -> None:
    assert Xid.from_int(0) == MIN == "11111111111"
    assert Xid.from_int(2**64 - 1) == MAX == "jpXCZedGfVQ"
    assert int(MAX) == 2**64 - 1
    for v in (1, 57, 58, 2**63 - 1, 2**63, 2**64 - 2, 58**10 - 1, 58**10):
        assert int(Xid.from_int(v)) == v
    assert bytes(MAX) == b"\xff" * 8
    assert bytes(Xid.from_int(2**63)) == b"\x80" + b"\x00" * 7
    assert Xid.from_bytes(bytes.fromhex("1b9a4507be400000")) == "5cnEkaefSdu"


def test_round_trip_random() -> None:
    rng = random.Random(1)
    for _ in range(20000):
        v = rng.getrandbits(rng.choice((64, 63, 40, 20)))
        x = Xid.from_int(v)
        assert len(x) == 11
        assert int(x) == v
        assert Xid(str(x)) == x
        assert Xid.from_bytes(bytes(x)) == x


def test_text_order_is_payload_order() -> None:
    rng = random.Random(2)
    values = [rng.getrandbits(64) for _ in range(5000)] + [0, 2**64 - 1, 2**63]
    ids = [Xid.from_int(v) for v in values]
    assert [int(x) for x in sorted(ids)] == sorted(values)
    a, b = Xid.from_int(5), Xid.from_int(6)
    assert a < b and b > a and a <= a and a != b


def test_value_type() -> None:
    x = Xid("5cnEkaefSdu")
    assert str(x) == "5cnEkaefSdu" and type(str(x)) is str
    assert repr(x) == "Xid('5cnEkaefSdu')"
    assert f"{x}" == "5cnEkaefSdu"
    assert x == "5cnEkaefSdu" and hash(x) == hash("5cnEkaefSdu")
    assert {x: 1}[Xid("5cnEkaefSdu")] == 1
    assert json.dumps({"id": x}) == '{"id": "5cnEkaefSdu"}'
    assert pickle.loads(pickle.dumps(x)) == x and type(pickle.loads(pickle.dumps(x))) is Xid
    assert type(copy.copy(x)) is Xid
    assert Xid(x) is x
    with pytest.raises((AttributeError, TypeError)):
        x.foo = 1  # type: ignore[attr-defined]
    assert x.time == datetime(2026, 11, 21, tzinfo=UTC)
    assert x.random == 0 and x.ms == int(x) >> 22 and x.payload == int(x)


def test_time() -> None:
    assert pgxid.time("11111111111") == EPOCH
    assert pgxid.time(MAX) == datetime(2151, 3, 25, 18, 46, 22, 214000, tzinfo=UTC)
    x = Xid.from_xid_epoch_ms(1234567, 99)
    assert x.time == EPOCH + timedelta(milliseconds=1234567)
    assert x.time.tzinfo is UTC


ERRORS = [
    ("", InvalidXidError, "An xid is written as exactly 11 Base58 symbols."),
    ("5cnEkaefSd", InvalidXidError, "An xid is written as exactly 11 Base58 symbols."),
    ("5cnEkaefSduu", InvalidXidError, "An xid is written as exactly 11 Base58 symbols."),
    ("5cnEk0efSdu", InvalidXidError, 'Character "0" at position 6 is not a Base58 symbol.'),
    (" 5cnEkaefSd", InvalidXidError, 'Character " " at position 1 is not a Base58 symbol.'),
    ("5cnEkaefSdu ", InvalidXidError, 'Character " " at position 12 is not a Base58 symbol.'),
    ("5cnEkaefSdO", InvalidXidError, 'Character "O" at position 11 is not a Base58 symbol.'),
    ("2026-11-20", InvalidXidError, 'Character "0" at position 2 is not a Base58 symbol.'),
    ("jpXCZedGfVR", XidOutOfRangeError, 'The largest xid is "jpXCZedGfVQ".'),
    ("zzzzzzzzzzz", XidOutOfRangeError, 'The largest xid is "jpXCZedGfVQ".'),
]


@pytest.mark.parametrize("text,error,detail", ERRORS)
def test_errors(text: str, error: type, detail: str) -> None:
    with pytest.raises(error) as e:
        Xid(text)
    assert isinstance(e.value, ValueError) and isinstance(e.value, XidError)
    if error is XidOutOfRangeError:
        assert str(e.value) == f'value "{text}" is out of range for type xid'
        assert e.value.sqlstate == "22003" and isinstance(e.value, OverflowError)
    else:
        assert str(e.value) == f'invalid input syntax for type xid: "{text}"'
        assert e.value.sqlstate == "22P02"
    assert e.value.detail == detail
    assert not pgxid.is_valid(text)
    with pytest.raises(error):
        pgxid.decode(text)


def test_type_errors() -> None:
    for bad in (5, b"5cnEkaefSdu", None, 1.5):
        with pytest.raises(TypeError):
            Xid(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Xid.from_int(True)
    with pytest.raises(TypeError):
        pgxid.encode(1.0)  # type: ignore[arg-type]
    with pytest.raises(XidOutOfRangeError):
        Xid.from_int(2**64)
    with pytest.raises(XidOutOfRangeError):
        Xid.from_int(-1)
    with pytest.raises(XidError):
        Xid.from_bytes(b"\x00" * 7)
    assert pgxid.is_valid("5cnEkaefSdu") and not pgxid.is_valid(5)


def test_node() -> None:
    x = Xid.from_xid_epoch_ms(1000, 0b1011 << 18 | 12345)
    assert x.node(4) == 0b1011 and pgxid.node(x, 0) == 0 and x.node(12) == int(x) >> 10 & 0xFFF
    with pytest.raises(ValueError, match="node bits 13 is out of range"):
        x.node(13)


def test_prefix_bounds() -> None:
    assert pgxid.prefix_bounds("") == (MIN, MAX)
    assert pgxid.prefix_bounds("5cnrQT") == ("5cnrQT11111", "5cnrQTzzzzz")
    assert pgxid.prefix_bounds("jpXCZedGfVQ") == (MAX, MAX)
    assert pgxid.prefix_bounds("jpXCZedGfVR") is None
    assert pgxid.prefix_bounds("jpX") == ("jpX11111111", MAX)
    assert pgxid.prefix_bounds("jq") is None
    assert pgxid.prefix_bounds("5cn0") is None
    assert pgxid.prefix_bounds("5cnrQT111111") is None
    rng = random.Random(3)
    for _ in range(2000):
        x = Xid.from_int(rng.getrandbits(64))
        n = rng.randint(1, 11)
        lo, hi = pgxid.prefix_bounds(x[:n])
        assert lo <= x <= hi and lo[:n] == hi[:n] == x[:n]
        assert lo == x[:n] + "1" * (11 - n)


def test_time_bounds() -> None:
    t = datetime(2026, 1, 1, 12, 0, 5, 500, tzinfo=UTC)  # 0.5 ms into a millisecond
    lo = pgxid.time_lower_bound(t)
    assert lo is not None and lo.time == t.replace(microsecond=1000) and lo.random == 0
    assert pgxid.time_lower_bound(t, False) == lo
    up = pgxid.time_upper_bound(t)
    assert up is not None and up.time == t.replace(microsecond=0) and up.random == 2**22 - 1
    assert pgxid.time_upper_bound(t, False) == up
    whole = t.replace(microsecond=0)
    assert pgxid.time_lower_bound(whole).time == whole
    assert pgxid.time_lower_bound(whole, False).time == whole + timedelta(milliseconds=1)
    assert pgxid.time_upper_bound(whole).time == whole
    assert pgxid.time_upper_bound(whole, False).time == whole - timedelta(milliseconds=1)
    assert pgxid.time_lower_bound(EPOCH - timedelta(days=1)) == MIN
    assert pgxid.time_upper_bound(EPOCH - timedelta(microseconds=1)) is None
    assert pgxid.time_upper_bound(EPOCH, False) is None
    assert pgxid.time_lower_bound(datetime(2200, 1, 1, tzinfo=UTC)) is None
    assert pgxid.time_upper_bound(datetime(2200, 1, 1, tzinfo=UTC)) == Xid.from_xid_epoch_ms(2**42 - 1, 2**22 - 1)
    with pytest.raises(ValueError, match="naive"):
        pgxid.time_lower_bound(datetime(2026, 1, 1))
    other = timezone(timedelta(hours=5))
    assert pgxid.time_lower_bound(datetime(2026, 1, 1, 5, tzinfo=other)) == pgxid.time_lower_bound(
        datetime(2026, 1, 1, tzinfo=UTC))


def test_like_bounds() -> None:
    assert pgxid.like_bounds("5cnrQT%") == ("5cnrQT11111", "5cnrQTzzzzz")
    assert pgxid.like_bounds("5cnrQT%a") == ("5cnrQT11111", "5cnrQTzzzzz")
    assert pgxid.like_bounds("5cnrQT_____") == ("5cnrQT11111", "5cnrQTzzzzz")
    assert pgxid.like_bounds("5cnrQT____") is None  # 10 symbols
    assert pgxid.like_bounds("5cnrQT______") is None  # 12
    assert pgxid.like_bounds("%") == (MIN, MAX)
    assert pgxid.like_bounds("5cnrQT1111%%") == ("5cnrQT11111", "5cnrQT1111z")
    assert pgxid.like_bounds("5c\\nr%") == ("5cnr1111111", "5cnrzzzzzzz")
    assert pgxid.like_bounds("5c\\%%") is None
    assert pgxid.like_bounds("5cnEkaefSdu") == ("5cnEkaefSdu", "5cnEkaefSdu")
    assert pgxid.like_bounds("5cnEkaefSduu%") is None
    assert pgxid.like_bounds("0%") is None


# a pattern that ends in a lone backslash: matching it is the server's
# 22025, and so is asking for its bounds, whatever comes before it
LONE_ESCAPE = ["é8Cdc9Wxaws%\\", "8Cdc9Wxaws%\\", "\\", "5cnr\\", "5cnr%\\", "5c\\\\\\",
               "5cnEkaefSduuuuu\\", "0%\\", "%_%\\"]


@pytest.mark.parametrize("pattern", LONE_ESCAPE)
def test_like_pattern_ending_in_an_escape_is_an_error(pattern: str) -> None:
    for f in (pgxid.like_bounds, pgxid.like_lower_bound, pgxid.like_upper_bound):
        with pytest.raises(pgxid.InvalidEscapeError) as e:
            f(pattern)
        assert str(e.value) == "LIKE pattern must not end with escape character"
        assert e.value.sqlstate == "22025" and isinstance(e.value, ValueError)


def test_like_pattern_ending_in_an_escaped_backslash() -> None:
    assert pgxid.like_bounds("5cnr\\\\%") is None  # a literal backslash: no id has one
    assert pgxid.like_bounds("5cnr%\\\\") == ("5cnr1111111", "5cnrzzzzzzz")


def test_from_unix_ms_and_datetime() -> None:
    # the common call: an id for a Unix time, not the xid epoch's 2068
    now_ms = 1795000000123  # 2026-11-18T11:06:40.123Z
    x = Xid.from_unix_ms(now_ms)
    assert x.time == datetime(2026, 11, 18, 11, 6, 40, 123000, tzinfo=UTC) and x.random == 0
    assert Xid.from_unix_ms(now_ms, 12345).random == 12345
    assert Xid.from_unix_ms(1321009871111) == MIN
    assert Xid.from_unix_ms(1321009871111 + 2**42 - 1, 2**22 - 1) == MAX
    assert Xid.from_datetime(x.time) == x
    assert Xid.from_datetime(x.time + timedelta(microseconds=999), 7) == Xid.from_unix_ms(now_ms, 7)
    other = timezone(timedelta(hours=5, minutes=30))
    assert Xid.from_datetime(x.time.astimezone(other)) == x
    assert Xid.from_xid_epoch_ms(x.ms, 5) == Xid.from_unix_ms(now_ms, 5)
    assert Xid.from_xid_epoch_ms(0) == MIN and Xid.from_xid_epoch_ms(2**42 - 1, 2**22 - 1) == MAX
    assert Xid.from_xid_epoch_ms(now_ms).time.year == 2068  # why the name says its epoch


def test_time_constructor_errors() -> None:
    import decimal
    import fractions

    for f, arg in ((Xid.from_unix_ms, 1795000000123), (Xid.from_xid_epoch_ms, 1000)):
        for bad in (True, False, 1.0, 1795000000123.5, float("nan"), float("inf"),
                    fractions.Fraction(1, 2), decimal.Decimal(1), "1000", None):
            with pytest.raises(TypeError, match="must be an int, not"):
                f(bad)
            with pytest.raises(TypeError, match="low bits must be an int, not"):
                f(arg, bad)
        for low in (-1, 2**22):
            with pytest.raises(XidOutOfRangeError, match=f"low bits {low} are out of range for type xid"):
                f(arg, low)
    for ms in (1321009871110, 1321009871111 + 2**42, -1):
        with pytest.raises(XidOutOfRangeError, match=f"Unix millisecond {ms} is out of range for type xid"):
            Xid.from_unix_ms(ms)
    for ms in (-1, 2**42):
        with pytest.raises(XidOutOfRangeError, match=f"xid epoch millisecond {ms} is out of range"):
            Xid.from_xid_epoch_ms(ms)
    with pytest.raises(ValueError, match="naive datetime"):
        Xid.from_datetime(datetime(2026, 1, 1))
    with pytest.raises(XidOutOfRangeError, match="timestamp out of range for type xid") as e:
        Xid.from_datetime(datetime(2011, 1, 1, tzinfo=UTC))
    assert e.value.sqlstate == "22008"  # the server's, for a time
    with pytest.raises(TypeError):
        Xid.from_datetime(1795000000123)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="low bits must be an int, not bool"):
        Xid.from_datetime(datetime(2026, 1, 1, tzinfo=UTC), True)
    assert not hasattr(Xid, "from_parts")


def test_generator_order_and_layout() -> None:
    g = XidGenerator()
    before = datetime.now(UTC) - timedelta(milliseconds=1)
    ids = [g() for _ in range(50000)]
    after = datetime.now(UTC)
    assert all(a < b for a, b in zip(ids, ids[1:]))
    assert len(set(ids)) == len(ids)
    assert all(before <= x.time <= after for x in ids[::997] + ids[-1:])
    assert g.last == ids[-1]
    # a new millisecond starts in the lower half of the 22 bits
    firsts = [b for a, b in zip(ids, ids[1:]) if b.ms != a.ms]
    assert firsts and all(x.random < 2**21 for x in firsts)
    steps = [int(b) - int(a) for a, b in zip(ids, ids[1:]) if b.ms == a.ms]
    assert steps and min(steps) >= 1 and max(steps) <= 32


def test_generator_threads() -> None:
    g = XidGenerator()
    out: list = [[] for _ in range(4)]

    def work(i: int) -> None:
        out[i].extend(g() for _ in range(20000))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [x for ids in out for x in ids]
    assert len(set(every)) == 80000
    for ids in out:
        assert all(a < b for a, b in zip(ids, ids[1:]))


@pytest.mark.parametrize("bits", [1, 4, 5, 8, 12])
def test_generator_nodes(bits: int) -> None:
    node = (1 << bits) - 1 if bits % 2 else 1
    g = XidGenerator(node_bits=bits, node_id=node)
    ids = [g() for _ in range(20000)]
    assert all(x.node(bits) == node for x in ids)
    assert all(a < b for a, b in zip(ids, ids[1:]))
    counter_half = 1 << (22 - bits - 1)
    firsts = [b for a, b in zip(ids, ids[1:]) if b.ms != a.ms]
    assert all((x.random & (2 * counter_half - 1)) < counter_half for x in firsts)


def test_generator_node_errors() -> None:
    with pytest.raises(ValueError, match="node_id is not set"):
        XidGenerator(node_bits=4)
    with pytest.raises(ValueError, match="node_id 16 does not fit in node_bits 4"):
        XidGenerator(node_bits=4, node_id=16)
    with pytest.raises(ValueError, match="node_id 1 does not fit in node_bits 0"):
        XidGenerator(node_id=1)
    with pytest.raises(ValueError, match="out of range"):
        XidGenerator(node_bits=13, node_id=0)
    XidGenerator(node_id=0)


def test_generator_exhausted_millisecond_borrows() -> None:
    # with 12 node bits a millisecond holds 512 to 1024 ids (a start in the
    # lower half of 10 bits, steps of 1): 20000 made faster than that borrow
    # the next milliseconds, still strictly increasing
    g = XidGenerator(node_bits=12, node_id=7)
    ids = [g() for _ in range(20000)]
    assert all(a < b for a, b in zip(ids, ids[1:]))
    per_ms: dict = {}
    for x in ids:
        per_ms[x.ms] = per_ms.get(x.ms, 0) + 1
    assert max(per_ms.values()) <= 1024
    assert len(per_ms) >= 20000 // 1024 + 1
    assert all(int(b) - int(a) == 1 for a, b in zip(ids, ids[1:]) if a.ms == b.ms)


def test_new_at() -> None:
    t = datetime(2030, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)
    x = pgxid.new_at(t)
    assert x.time == t.replace(microsecond=123000)
    g = XidGenerator(node_bits=3, node_id=5)
    assert g.new_at(t).node(3) == 5
    with pytest.raises(XidOutOfRangeError, match="timestamp out of range for type xid"):
        pgxid.new_at(EPOCH - timedelta(microseconds=1))
    with pytest.raises(ValueError, match="naive"):
        pgxid.new_at(datetime(2030, 1, 1))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_reseeds() -> None:
    # a child that goes on making ids must not repeat the parent's
    g = XidGenerator()
    g()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.write(w, ",".join(g._rand.getrandbits(64).__str__() for _ in range(4)).encode())
        os._exit(0)
    os.close(w)
    child = os.read(r, 1000).decode()
    os.close(r)
    os.waitpid(pid, 0)
    parent = ",".join(str(g._rand.getrandbits(64)) for _ in range(4))
    assert child and child != parent


# An xid as a UUIDv7 and back: the server's casts (expected/convert.out)
UUID_VECTORS = [
    ("jpXCZedGfVQ", "05339252-f906-7fff-bff0-000000000000"),
    ("11111111111", "01339252-f907-7000-8000-000000000000"),
    ("5cnE1111112", "01a1fb61-0ee6-718c-b810-000000000000"),
    ("5cnEzzzzzzz", "01a1fb69-173e-78b7-9ff0-000000000000"),
]


@pytest.mark.parametrize("text,u", UUID_VECTORS)
def test_uuid_vectors(text: str, u: str) -> None:
    import uuid

    assert pgxid.to_uuid(text) == uuid.UUID(u)
    assert pgxid.to_uuid(Xid(text)).version == 7
    assert pgxid.from_uuid(u) == text
    assert pgxid.from_uuid(uuid.UUID(u)) == text


def test_uuid_round_trip_and_order() -> None:
    rng = random.Random(35)
    ids = [Xid.from_int(rng.getrandbits(64)) for _ in range(2000)] + [MIN, MAX]
    for x in ids:
        assert pgxid.from_uuid(pgxid.to_uuid(x)) == x
    assert sorted(ids) == sorted(ids, key=lambda x: pgxid.to_uuid(x).int)


@pytest.mark.parametrize(
    "u,error,message",
    [
        # a v7 of another maker, a v4: the server's 22023
        ("01890a5d-ac96-774b-bcce-b302099a8057", pgxid.NotAnXidUuidError, "is not an xid"),
        ("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", pgxid.NotAnXidUuidError, "is not an xid"),
        # before the epoch
        ("00000000-0000-7000-8000-000000000000", XidOutOfRangeError, "timestamp out of range"),
    ],
)
def test_uuid_refused(u: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message) as e:
        pgxid.from_uuid(u)
    if error is pgxid.NotAnXidUuidError:
        assert e.value.sqlstate == "22023"


# An xid as a ULID and back, and ulid-flake ids: the server's functions
# (expected/convert.out; the ids and flakes from xid_to_ulid,
# xid_from_ulid and xid_from_ulid_flake on a server)
ULID_VECTORS = [
    ("11111111111", "016E955Y870000000000000000"),
    ("11111111112", "016E955Y870000800000000000"),
    ("1111111NVpa", "016E955Y87ZZZZR00000000000"),
    ("jpXCZedGfVQ", "056E955Y86ZZZZR00000000000"),
    ("5cnEkaefSdu", "01M7XPE6000000000000000000"),
    ("EgStYr6K4Me", "02FAWM9EC0ZA86800000000000"),
    ("hjgP5681E9f", "0506ZH5TR9JDYPG00000000000"),
    ("UiL9JJc4g6N", "03S96Q2NRK3D0ER00000000000"),
    ("2T6BG6cdtfU", "01ARZ3NDEKTSV4R00000000000"),
]


@pytest.mark.parametrize("text,u", ULID_VECTORS)
def test_ulid_vectors(text: str, u: str) -> None:
    import uuid

    assert pgxid.to_ulid(text) == u
    assert pgxid.to_ulid(Xid(text)) == u
    assert pgxid.from_ulid(u) == text
    assert pgxid.from_ulid(u.lower()) == text
    # the same 128 bits as a uuid (pgx_ulid's cast)
    value = 0
    for c in u:
        value = value << 5 | "0123456789ABCDEFGHJKMNPQRSTVWXYZ".index(c)
    assert pgxid.from_ulid(uuid.UUID(int=value)) == text


def test_ulid_spec_example_and_flakes() -> None:
    import uuid

    # the ULID spec's example keeps its time and the 22 bits after it
    assert pgxid.from_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV") == "2T6BG6cdtfU"
    assert pgxid.from_ulid("01arz3ndektsv4rrffq69g5fav") == "2T6BG6cdtfU"
    assert pgxid.from_ulid(uuid.UUID("01563e3a-b5d3-d676-4c61-efb99302bd5b")) == "2T6BG6cdtfU"
    assert pgxid.from_ulid("01ARZ3NDEKTSV4S00000000000") == "2T6BG6cdtfU"
    for flake, text in [(14246757444195114, "4ryqEBY4ykb"), (0, "4jJqhYTcPVR"), (1, "4jJqhYTcPVV"),
                        ((1 << 20) - 1, "4jJqhYTytJw")]:
        assert pgxid.from_ulid_flake(flake) == text
    with pytest.raises(TypeError):
        pgxid.from_ulid_flake(1.0)  # type: ignore[arg-type]


def test_ulid_round_trip_and_order() -> None:
    rng = random.Random(36)
    ids = [Xid.from_int(rng.getrandbits(64)) for _ in range(2000)] + [MIN, MAX]
    for x in ids:
        assert pgxid.from_ulid(pgxid.to_ulid(x)) == x
    assert sorted(ids) == sorted(ids, key=pgxid.to_ulid)
    # distinct flakes, distinct ids in the same order
    flakes = sorted({rng.getrandbits(55) for _ in range(2000)})
    assert [pgxid.from_ulid_flake(f) for f in flakes] == sorted(pgxid.from_ulid_flake(f) for f in flakes)
    assert len({pgxid.from_ulid_flake(f) for f in flakes}) == len(flakes)


ULID_SYMBOLS = "A ulid is 26 symbols of Crockford's Base32."
TIME_RANGE = "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00."


@pytest.mark.parametrize(
    "u,error,message,detail",
    [
        ("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", pgxid.InvalidUlidError,
         'invalid input syntax for a ulid: "8ZZZZZZZZZZZZZZZZZZZZZZZZZ"', "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ."),
        ("01ARZ3NDEKTSV4RRFFQ69G5FA", pgxid.InvalidUlidError,
         'invalid input syntax for a ulid: "01ARZ3NDEKTSV4RRFFQ69G5FA"', ULID_SYMBOLS),
        ("01ARZ3NDEKTSV4RRFFQ69G5FAU", pgxid.InvalidUlidError,
         'invalid input syntax for a ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAU"', ULID_SYMBOLS),
        ("", pgxid.InvalidUlidError, 'invalid input syntax for a ulid: ""', ULID_SYMBOLS),
        # the server counts bytes: 25 characters, 26 bytes, first symbol 8
        ("8é" + "0" * 23, pgxid.InvalidUlidError,
         'invalid input syntax for a ulid: "8é' + "0" * 23 + '"', "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ."),
        ("8é" + "0" * 24, pgxid.InvalidUlidError, 'invalid input syntax for a ulid: "8é' + "0" * 24 + '"', ULID_SYMBOLS),
        # before the epoch, after 2151
        ("00000000000000000000000000", XidOutOfRangeError, "timestamp out of range for type xid", TIME_RANGE),
        ("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", XidOutOfRangeError, "timestamp out of range for type xid", TIME_RANGE),
    ],
)
def test_ulid_refused(u: str, error: type, message: str, detail: str) -> None:
    with pytest.raises(error) as e:
        pgxid.from_ulid(u)
    assert (str(e.value), e.value.detail) == (message, detail)
    if error is pgxid.InvalidUlidError:
        assert e.value.sqlstate == "22P02"


def test_ulid_flake_refused() -> None:
    import uuid

    for flake in (-1, -(1 << 63), 1 << 63):
        with pytest.raises(XidOutOfRangeError) as e:
            pgxid.from_ulid_flake(flake)
        assert (str(e.value), e.value.detail, e.value.sqlstate) == (
            f"ulid-flake id {flake} is out of range", "A ulid-flake id has a zero sign bit.", "22003")
    with pytest.raises(XidOutOfRangeError, match="timestamp out of range for type xid"):
        pgxid.from_ulid_flake((1 << 63) - 1)
    with pytest.raises(XidOutOfRangeError, match="timestamp out of range for type xid"):
        pgxid.from_ulid(uuid.UUID(int=0))
