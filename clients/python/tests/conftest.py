"""Shared fixtures, and the result lines ci/clients.sh reads.

The tests run with ``pytest`` in clients/python (README's "Testing").
With ``XID_RESULT_LINES=1`` (clients/python/test.sh sets it, and runs
pytest without its terminal output) every test prints one line, ``ok``,
``FAIL`` or ``skip`` and its id; a failure's report follows, indented.
"""

from __future__ import annotations

import os
import sys

import pytest

RESULT_LINES = os.environ.get("XID_RESULT_LINES") == "1"

# the package from src/: pyproject.toml's pythonpath puts it on this
# process's path, PYTHONPATH on the path of the processes the tests start
# (alembic's command, test_django's second run)
SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH")) if p)


def _say(line: str) -> None:
    sys.__stdout__.write(line + "\n")
    sys.__stdout__.flush()


def _details(text: str) -> None:
    for line in text.splitlines()[-60:]:
        _say("    " + line)


if RESULT_LINES:

    def pytest_runtest_logreport(report: pytest.TestReport) -> None:
        name = report.nodeid.removeprefix("tests/")
        if report.failed:
            _say(f"FAIL {name}" + ("" if report.when == "call" else f" ({report.when})"))
            _details(report.longreprtext)
        elif report.skipped and report.when != "teardown":
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            _say(f"skip {name}: {reason}")
        elif report.passed and report.when == "call":
            _say(f"ok   {name}")

    def pytest_collectreport(report: pytest.CollectReport) -> None:
        if report.failed:
            _say(f"FAIL collecting {report.nodeid}")
            _details(report.longreprtext)


# ---- a database with xid (ci/clients.sh sets PGHOST, PGPORT, PGUSER,
# PGDATABASE; without them the tests that need one are skipped)

HAVE_DB = bool(os.environ.get("PGDATABASE"))
needs_db = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")


@pytest.fixture
def pg():
    """A psycopg 3 connection, autocommit, with xid registered."""
    if not HAVE_DB:
        pytest.skip("no database (PGDATABASE unset)")
    import psycopg

    import pgxid.psycopg

    with psycopg.connect(autocommit=True) as conn:
        pgxid.psycopg.register(conn)
        yield conn


# ---- data: ids at known times, and what a time comparison must return

import operator
import random as _random
from datetime import datetime, timedelta, timezone

OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
DAY0 = datetime(2026, 3, 1, tzinfo=timezone.utc)


def sample_ids(n: int = 3000, seed: int = 7) -> list:
    """Ids over a day, several in some milliseconds, sorted."""
    from pgxid import EPOCH, Xid

    rng = _random.Random(seed)
    base = (DAY0 - EPOCH) // timedelta(milliseconds=1)
    out = set()
    while len(out) < n:
        ms = base + rng.randrange(86_400_000)
        for _ in range(rng.choice((1, 1, 1, 3))):
            out.add(Xid.from_xid_epoch_ms(ms, rng.getrandbits(22)))
    return sorted(out)[:n]


def probe_times(ids: list, seed: int = 8) -> list:
    """Times to compare with: on an id's millisecond, inside it, between."""
    rng = _random.Random(seed)
    out = []
    for x in rng.sample(ids, 6):
        t = x.time
        out += [t, t + timedelta(microseconds=500), t - timedelta(microseconds=1),
                t.astimezone(timezone(timedelta(hours=-7)))]
    out.append(DAY0 + timedelta(hours=rng.randrange(24), microseconds=rng.randrange(10**6)))
    return out


def expected_count(ids: list, op: str, t: datetime) -> int:
    return sum(1 for x in ids if OPS[op](x.time, t))
