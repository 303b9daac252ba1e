"""Shared fixtures, and the result lines test/clients.sh reads.

With ``XID_RESULT_LINES=1`` (clients/python/test.sh sets it, and runs
pytest without its terminal output) every test prints one line, ``ok``,
``FAIL`` or ``skip`` and its id; a failure's report follows, indented.
"""

from __future__ import annotations

import os
import sys

import pytest

RESULT_LINES = os.environ.get("XID_RESULT_LINES") == "1"


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


# ---- a database with xid (test/clients.sh sets PGHOST, PGPORT, PGUSER,
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
