"""The codec against the server: the same text, errors, times and bounds as
the extension's own functions, for many values."""

from __future__ import annotations

import random
import time as _time
from datetime import datetime, timedelta, timezone

import pytest

import pgxid
from pgxid import EPOCH, MAX, Xid

UTC = timezone.utc
EDGES = [0, 1, 57, 58, 2**22, 58**10 - 1, 58**10, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]


def sample_payloads(n: int, seed: int) -> list:
    rng = random.Random(seed)
    out = list(EDGES)
    for _ in range(n):
        bits = rng.choice((64, 64, 64, 63, 50, 42, 30, 22, 8))
        out.append(rng.getrandbits(bits))
    return out


def test_text_matches_xid_out(pg) -> None:
    payloads = sample_payloads(50000, 10)
    rows = pg.execute(
        "SELECT b::public.xid::text FROM unnest(%s::bytea[]) WITH ORDINALITY AS u(b, i) ORDER BY i",
        [[v.to_bytes(8, "big") for v in payloads]],
    ).fetchall()
    assert len(rows) == len(payloads)
    mismatches = [(v, t) for v, (t,) in zip(payloads, rows) if pgxid.encode(v) != t]
    assert mismatches == []


def test_xid_in_reads_client_text(pg) -> None:
    payloads = sample_payloads(20000, 11)
    rows = pg.execute(
        "SELECT t::public.xid::bytea FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i",
        [[pgxid.encode(v) for v in payloads]],
    ).fetchall()
    assert [int.from_bytes(b, "big") for (b,) in rows] == payloads


def test_time_random_node_match(pg) -> None:
    ids = [Xid.from_int(v) for v in sample_payloads(5000, 12)]
    rows = pg.execute(
        "SELECT xid_time(x), xid_random(x),"
        " ARRAY(SELECT xid_node(x, b) FROM generate_series(0, 12) b ORDER BY b)"
        " FROM unnest(%s::text[]::public.xid[]) WITH ORDINALITY AS u(x, i) ORDER BY i",
        [list(ids)],
    ).fetchall()
    for x, (t, r, nodes) in zip(ids, rows):
        assert (x.time, x.random, [x.node(b) for b in range(13)]) == (t, r, nodes)


def invalid_inputs() -> list:
    rng = random.Random(13)
    out = ["", "1", "5cnEkaefSd", "5cnEkaefSduu", "5cnEk0efSdu", " 5cnEkaefSd", "5cnEkaefSd ",
           "5cnEkaefSdO", "5cnEkaefSdI", "5cnEkaefSdl", "jpXCZedGfVR", "zzzzzzzzzzz", "jpXCZedGfW1",
           "2026-11-20", "2026-11-20 12:00:00+00", "ÄcnEkaefSdu", "5cnEkaéfSdu", "5cnEk-efSdu",
           "11111111111111111111", "jq111111111", "kzzzzzzzzzz"]
    for _ in range(300):
        s = list(pgxid.encode(rng.getrandbits(64)))
        s[rng.randrange(11)] = rng.choice("0OIl_-+ /é")
        out.append("".join(s))
    for _ in range(100):
        out.append("".join(rng.choice(pgxid.ALPHABET) for _ in range(rng.choice((10, 12, 3)))))
    for _ in range(100):
        out.append(pgxid.encode(rng.getrandbits(64))[:1].replace("5", "k") + "".join(
            rng.choice(pgxid.ALPHABET) for _ in range(10)))
    return out


def test_uuid_matches_casts(pg) -> None:
    """to_uuid is id::uuid and from_uuid is uuid::xid, both ways, for many
    ids; a uuid the server refuses, the client refuses with its error."""
    import uuid

    ids = [Xid.from_int(v) for v in sample_payloads(20000, 13)]
    rows = pg.execute(
        "SELECT x::uuid, x::uuid::public.xid::text"
        " FROM unnest(%s::text[]::public.xid[]) WITH ORDINALITY AS u(x, i) ORDER BY i",
        [list(ids)],
    ).fetchall()
    assert len(rows) == len(ids)
    assert [(pgxid.to_uuid(x), x) for x in ids] == [(u, t) for u, t in rows]
    assert [pgxid.from_uuid(u) for u, _ in rows] == ids
    import psycopg

    not_ours = [uuid.uuid4(), uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057"), uuid.UUID(int=0),
                uuid.UUID(int=pgxid.to_uuid(ids[20]).int | 1)]
    for u in not_ours:
        with pytest.raises(psycopg.Error) as srv:
            pg.execute("SELECT %s::uuid::public.xid", [str(u)])
        with pytest.raises(pgxid.XidError) as e:
            pgxid.from_uuid(u)
        assert (str(e.value), e.value.sqlstate) == (srv.value.diag.message_primary, srv.value.diag.sqlstate), u


def test_ulid_matches_functions(pg) -> None:
    """to_ulid is xid_to_ulid, from_ulid is xid_from_ulid (text and uuid),
    from_ulid_flake is xid_from_ulid_flake, for many values; what the server
    refuses, the client refuses with its message."""
    import uuid

    import psycopg

    rng = random.Random(15)
    ids = [Xid.from_int(v) for v in sample_payloads(20000, 15)]
    rows = pg.execute(
        "SELECT xid_to_ulid(x), xid_from_ulid(xid_to_ulid(x))::text, xid_from_ulid(lower(xid_to_ulid(x)))::text"
        " FROM unnest(%s::text[]::public.xid[]) WITH ORDINALITY AS u(x, i) ORDER BY i",
        [list(ids)],
    ).fetchall()
    assert len(rows) == len(ids)
    assert [(pgxid.to_ulid(x), x, x) for x in ids] == [tuple(r) for r in rows]
    assert [pgxid.from_ulid(u) for u, _, _ in rows] == ids
    # ULIDs of another maker: any randomness, as text and as a uuid
    first, last = 1321009871111, 1321009871111 + pgxid.MAX_MS  # unix ms
    values = [rng.randint(first, last) << 80 | rng.getrandbits(80) for _ in range(5000)]
    texts = ["".join("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[(v >> s) & 31] for s in range(125, -1, -5)) for v in values]
    rows = pg.execute(
        "SELECT xid_from_ulid(t)::text, xid_from_ulid(u)::text"
        " FROM unnest(%s::text[], %s::uuid[]) WITH ORDINALITY AS a(t, u, i) ORDER BY i",
        [texts, [uuid.UUID(int=v) for v in values]],
    ).fetchall()
    assert [(pgxid.from_ulid(t), pgxid.from_ulid(uuid.UUID(int=v))) for t, v in zip(texts, values)] == [
        tuple(r) for r in rows
    ]
    # flakes: every time an xid holds, and the edges of the 20 bits
    top = (last - 1704067200000) << 20 | 0xFFFFF
    flakes = [0, 1, 0xFFFFF, top] + [rng.randint(0, top) for _ in range(10000)]
    rows = pg.execute(
        "SELECT xid_from_ulid_flake(f)::text FROM unnest(%s::bigint[]) WITH ORDINALITY AS u(f, i) ORDER BY i",
        [flakes],
    ).fetchall()
    assert [pgxid.from_ulid_flake(f) for f in flakes] == [t for (t,) in rows]
    bad = [("", "text"), ("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "text"), ("01ARZ3NDEKTSV4RRFFQ69G5FA", "text"),
           ("01ARZ3NDEKTSV4RRFFQ69G5FAVX", "text"), ("01ARZ3NDEKTSV4RRFFQ69G5FAU", "text"),
           ("01arz3ndektsv4rrffq69g5fai", "text"), ("8é" + "0" * 23, "text"), ("8é" + "0" * 24, "text"),
           ("00000000000000000000000000", "text"), ("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "text"),
           (uuid.UUID(int=0), "uuid"), (uuid.UUID(int=(1 << 128) - 1), "uuid"),
           (-1, "flake"), (-(1 << 63), "flake"), (top + 1, "flake"), ((1 << 63) - 1, "flake")]
    for v, kind in bad:
        sql = {"text": "SELECT xid_from_ulid(%s::text)", "uuid": "SELECT xid_from_ulid(%s::uuid)",
               "flake": "SELECT xid_from_ulid_flake(%s::bigint)"}[kind]
        with pytest.raises(psycopg.Error) as srv:
            pg.execute(sql, [v])
        convert = pgxid.from_ulid_flake if kind == "flake" else pgxid.from_ulid
        with pytest.raises(pgxid.XidError) as e:
            convert(v)
        d = srv.value.diag
        assert (str(e.value), e.value.detail, e.value.sqlstate) == (d.message_primary, d.message_detail, d.sqlstate), v


def server_input_errors(pg, inputs: list[str]) -> list[tuple[str | None, str | None, str | None]]:
    """What the server says of each text as public.xid: message, detail and
    SQLSTATE, or Nones where it takes it.  pg_input_error_info() on 16 and
    later; before it (15), each text cast on its own."""
    import psycopg

    if pg.info.server_version >= 160000:
        return pg.execute(
            "SELECT e.message, e.detail, e.sql_error_code FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, i),"
            " LATERAL pg_input_error_info(t, 'public.xid') e ORDER BY i",
            [inputs],
        ).fetchall()
    out: list[tuple[str | None, str | None, str | None]] = []
    for t in inputs:
        try:
            pg.execute("SELECT %s::text::public.xid", [t])
            out.append((None, None, None))
        except psycopg.Error as e:
            out.append((e.diag.message_primary, e.diag.message_detail, e.diag.sqlstate))
    return out


def test_errors_match_xid_in(pg) -> None:
    inputs = invalid_inputs()
    rows = server_input_errors(pg, inputs)
    checked = 0
    for text, (message, detail, code) in zip(inputs, rows):
        if message is None:
            assert pgxid.is_valid(text), text
            assert Xid(text) == text
            continue
        with pytest.raises(pgxid.XidError) as e:
            Xid(text)
        assert (str(e.value), e.value.detail, e.value.sqlstate) == (message, detail, code), text
        assert not pgxid.is_valid(text)
        checked += 1
    assert checked > 400


def test_prefix_bounds_match(pg) -> None:
    rng = random.Random(14)
    prefixes = ["", "j", "jp", "jpX", "jpY", "jq", "k", "z", "zzzzzzzzzzz", "jpXCZedGfVQ", "jpXCZedGfVR",
                "jpXCZedGfV", "jpXCZedGfW", "0", "5cn0", "5cnrQT111111", "1", "11111111111"]
    for _ in range(3000):
        x = pgxid.encode(rng.getrandbits(64))
        p = x[: rng.randint(0, 11)]
        if rng.random() < 0.1 and p:
            i = rng.randrange(len(p))
            p = p[:i] + rng.choice("0Ol%_ ") + p[i + 1:]
        prefixes.append(p)
    rows = pg.execute(
        "SELECT xid_prefix_lower_bound(p), xid_prefix_upper_bound(p)"
        " FROM unnest(%s::text[]) WITH ORDINALITY AS u(p, i) ORDER BY i",
        [prefixes],
    ).fetchall()
    nulls = 0
    for p, (lo, hi) in zip(prefixes, rows):
        assert (pgxid.prefix_lower_bound(p), pgxid.prefix_upper_bound(p)) == (lo, hi), p
        nulls += lo is None
        assert (pgxid.prefix_bounds(p) is None) == (lo is None)
    assert 10 < nulls < len(prefixes) / 2


def sample_times(n: int, seed: int) -> list:
    rng = random.Random(seed)
    last = EPOCH + timedelta(milliseconds=2**42 - 1)
    out = [EPOCH, EPOCH - timedelta(microseconds=1), EPOCH + timedelta(microseconds=1),
           EPOCH + timedelta(microseconds=999), EPOCH + timedelta(microseconds=1000),
           last, last + timedelta(microseconds=1), last - timedelta(microseconds=1),
           last + timedelta(microseconds=1000), datetime(1999, 1, 1, tzinfo=UTC),
           datetime(2200, 1, 1, tzinfo=UTC), datetime(2026, 11, 20, 12, 0, 5, 500, tzinfo=UTC)]
    span = int((last - EPOCH) / timedelta(microseconds=1))
    for _ in range(n):
        us = rng.randint(-10**9, span + 10**9)
        if rng.random() < 0.3:
            us -= us % 1000  # on a millisecond
        tz = timezone(timedelta(minutes=rng.choice((0, 60, -300, 330, 765))))
        out.append((EPOCH + timedelta(microseconds=us)).astimezone(tz))
    return out


def test_time_bounds_match(pg) -> None:
    times = sample_times(3000, 15)
    rows = pg.execute(
        "SELECT xid_time_lower_bound(t, true), xid_time_lower_bound(t, false),"
        " xid_time_upper_bound(t, true), xid_time_upper_bound(t, false)"
        " FROM unnest(%s::timestamptz[]) WITH ORDINALITY AS u(t, i) ORDER BY i",
        [times],
    ).fetchall()
    for t, row in zip(times, rows):
        mine = (pgxid.time_lower_bound(t, True), pgxid.time_lower_bound(t, False),
                pgxid.time_upper_bound(t, True), pgxid.time_upper_bound(t, False))
        assert mine == row, t
    assert any(None in r for r in rows) and any(None not in r for r in rows)


def like_patterns() -> list:
    rng = random.Random(16)
    out = ["", "%", "_", "%%", "\\", "5cnr\\", "5cnr%\\", "\\%", "5c\\nr%", "5c\\%%", "5cnrQT%",
           "5cnrQT%a", "5cnrQT_____", "5cnrQT____", "5cnrQT______", "5cnrQT1111%%", "jq%",
           "jpXCZedGfVQ", "jpXCZedGfVR", "jpXCZedGfVQ%", "jpXCZedGfVQ_", "5cnEkaefSduu%",
           "0%", "5cn_%", "_5cn%", "%5cn", "5cnr\\_%", "5cnrQT\\"]
    for _ in range(3000):
        x = pgxid.encode(rng.getrandbits(64))
        chars = list(x[: rng.randint(0, 11)])
        tail = rng.choice(["%", "", "_" * (11 - len(chars)), "_" * rng.randint(0, 12), "%a", "%_%",
                           "_" * rng.randint(0, 3) + "%", "\\", "x\\", "%\\%"])
        if chars and rng.random() < 0.15:
            chars.insert(rng.randrange(len(chars)), "\\")
        out.append("".join(chars) + tail)
    return out


def ends_in_lone_escape(p: str) -> bool:
    return (len(p) - len(p.rstrip("\\"))) % 2 == 1


def test_like_bounds_match(pg) -> None:
    patterns = [p for p in like_patterns() if not ends_in_lone_escape(p)]
    rows = pg.execute(
        "SELECT xid_like_lower_bound(p), xid_like_upper_bound(p)"
        " FROM unnest(%s::text[]) WITH ORDINALITY AS u(p, i) ORDER BY i",
        [patterns],
    ).fetchall()
    for p, (lo, hi) in zip(patterns, rows):
        assert (pgxid.like_lower_bound(p), pgxid.like_upper_bound(p)) == (lo, hi), p
    assert sum(lo is None for lo, _ in rows) > 100


@pytest.mark.parametrize("pattern", ["é8Cdc9Wxaws%\\", "8Cdc9Wxaws%\\", "5cnr\\", "0%\\"])
def test_like_pattern_ending_in_an_escape_is_22025_on_both(pg, pattern: str) -> None:
    # one answer everywhere: the server's bound functions raise 22025, and
    # so does the package.  (LIKE itself raises it only when the matcher
    # reaches the escape: core's LIKE, which xid's LIKE is exactly.)
    import psycopg

    for sql in ("SELECT xid_like_lower_bound(%s)", "SELECT xid_like_upper_bound(%s)"):
        with pytest.raises(psycopg.Error) as e:
            pg.execute(sql, [pattern])
        assert e.value.sqlstate == "22025", (sql, pattern)
        assert str(e.value.diag.message_primary) == "LIKE pattern must not end with escape character"
    with pytest.raises(pgxid.InvalidEscapeError) as c:
        pgxid.like_bounds(pattern)
    assert c.value.sqlstate == "22025" and str(c.value) == e.value.diag.message_primary
    assert len([p for p in like_patterns() if ends_in_lone_escape(p)]) > 100


def test_like_bounds_hold_the_matches(pg) -> None:
    # the bounds are a promise about LIKE itself: every match lies in them
    ids = [pgxid.new() for _ in range(20)] + [Xid.from_int(v) for v in sample_payloads(200, 17)]
    # (matching a pattern that ends in a lone escape is an error)
    patterns = [p for p in like_patterns()[:700] if not ends_in_lone_escape(p)]
    rows = pg.execute(
        "SELECT p, x::text FROM unnest(%s::text[]) p, unnest(%s::text[]::public.xid[]) x WHERE x LIKE p",
        [patterns, list(ids)],
    ).fetchall()
    assert rows
    for p, x in rows:
        b = pgxid.like_bounds(p)
        assert b is not None and b[0] <= x <= b[1], (p, x)


def test_client_and_server_ids_interleave_in_time_order(pg) -> None:
    pg.execute("CREATE TABLE interleave (id public.xid PRIMARY KEY, seq int NOT NULL, src text NOT NULL)")
    gen = pgxid.XidGenerator()
    start = datetime.now(UTC)
    for seq in range(300):
        if seq % 2 == 0:
            pg.execute("INSERT INTO interleave VALUES (%s, %s, 'client')", (gen(), seq))
        else:
            pg.execute("INSERT INTO interleave VALUES (xid_new(), %s, 'server')", (seq,))
        _time.sleep(0.002)  # the next id is in a later millisecond
    end = datetime.now(UTC)
    rows = pg.execute("SELECT id, seq, src, xid_time(id) FROM interleave ORDER BY id").fetchall()
    assert [r[1] for r in rows] == list(range(300))
    assert {r[2] for r in rows} == {"client", "server"}
    for x, _, _, t in rows:
        assert x.time == t and start - timedelta(milliseconds=1) <= t <= end
    # and the server's time operators agree with the client's times
    mid = rows[150][0].time
    n = pg.execute("SELECT count(*) FROM interleave WHERE id >= %s", (mid,)).fetchone()[0]
    assert n == sum(1 for r in rows if r[0].time >= mid)
