"""Plain str parameters (no Xid) with each driver: what works, what fails
loudly, and what assignment casts from text/varchar to xid would change
(measured in a scratch database that gets the casts).

Findings, asserted below:
- A str scalar works everywhere (psycopg sends it untyped, psycopg2 as a
  literal, asyncpg lets the server type it), and so does a list of str for
  ``id = ANY(%s)`` with psycopg 3 and asyncpg.
- psycopg2 sends a list of str as ARRAY['...'], a text[]: ``id = ANY(%s)``
  fails loudly (42883, ``operator does not exist: public.xid = text``).
  An assignment cast does not change that (no assignment there); Xid
  values do (pgxid.psycopg2 writes them '...'::public.xid).
- Only a parameter the client itself types as text/varchar in an
  assignment (INSERT ... SELECT unnest(%s::text[]), UPDATE ... SET id =
  %s::text, INSERT ... VALUES (%s::varchar)) changes with assignment
  casts, from an error (42804) to a success.  No result changes, and no
  Python driver types a str parameter that way by itself.
"""

from __future__ import annotations

import asyncio

import pytest

import pgxid
from pgxid import Xid
from conftest import HAVE_DB

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

psycopg = pytest.importorskip("psycopg")
psycopg2 = pytest.importorskip("psycopg2")
asyncpg = pytest.importorskip("asyncpg")

IDS = [pgxid.new() for _ in range(3)]
TEXTS = [str(x) for x in IDS]


def outcomes(dbname: str) -> dict:
    """What each path does in a database: 'ok' or the error's SQLSTATE."""
    out = {}

    def attempt(name, fn):
        try:
            fn()
            out[name] = "ok"
        except (psycopg.Error, psycopg2.Error) as e:
            out[name] = getattr(e, "sqlstate", None) or e.pgcode
        except asyncpg.PostgresError as e:
            out[name] = e.sqlstate

    with psycopg.connect(dbname=dbname, autocommit=True) as c:
        c.execute("CREATE TEMP TABLE tp (id public.xid)")
        c.execute("INSERT INTO tp SELECT unnest(%s::text[]::public.xid[])", [TEXTS])
        attempt("psycopg insert str", lambda: c.execute("INSERT INTO tp VALUES (%s)", [TEXTS[0]]))
        attempt("psycopg = ANY(list of str)", lambda: c.execute("SELECT 1 FROM tp WHERE id = ANY(%s)", [TEXTS]))
        attempt("psycopg insert select unnest(list of str)",
                lambda: c.execute("INSERT INTO tp SELECT unnest(%s)", [TEXTS]))
        attempt("psycopg insert select unnest(list of str::text[])",
                lambda: c.execute("INSERT INTO tp SELECT unnest(%s::text[])", [TEXTS]))
        attempt("psycopg update set id = text", lambda: c.execute("UPDATE tp SET id = %s::text WHERE false", [TEXTS[0]]))
        attempt("psycopg insert varchar", lambda: c.execute("INSERT INTO tp VALUES (%s::varchar)", [TEXTS[0]]))
    c2 = psycopg2.connect(dbname=dbname)
    c2.autocommit = True
    cur = c2.cursor()
    cur.execute("CREATE TEMP TABLE tp (id public.xid)")
    attempt("psycopg2 insert str", lambda: cur.execute("INSERT INTO tp VALUES (%s)", [TEXTS[0]]))
    attempt("psycopg2 = ANY(list of str)", lambda: cur.execute("SELECT 1 FROM tp WHERE id = ANY(%s)", [TEXTS]))
    c2.close()

    async def apg():
        conn = await asyncpg.connect(database=dbname)
        try:
            await conn.execute("CREATE TEMP TABLE tp (id public.xid)")
            for name, q, arg in (("asyncpg insert str", "INSERT INTO tp VALUES ($1)", TEXTS[0]),
                                 ("asyncpg = ANY(list of str)", "SELECT 1 FROM tp WHERE id = ANY($1)", TEXTS)):
                try:
                    await conn.execute(q, arg)
                    out[name] = "ok"
                except asyncpg.PostgresError as e:
                    out[name] = e.sqlstate
                except (asyncpg.exceptions.DataError, TypeError) as e:
                    out[name] = type(e).__name__
        finally:
            await conn.close()

    asyncio.run(apg())
    return out


NOW = {
    "psycopg insert str": "ok",
    "psycopg = ANY(list of str)": "ok",
    "psycopg insert select unnest(list of str)": "42725",
    "psycopg insert select unnest(list of str::text[])": "42804",
    "psycopg update set id = text": "42804",
    "psycopg insert varchar": "42804",
    "psycopg2 insert str": "ok",
    "psycopg2 = ANY(list of str)": "42883",
    "asyncpg insert str": "ok",
    "asyncpg = ANY(list of str)": "ok",
}


def test_plain_str_paths_and_assignment_casts() -> None:
    assert outcomes("xid_clients") == NOW
    with psycopg.connect(autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS xid_clients_casts")
        admin.execute("CREATE DATABASE xid_clients_casts")
    try:
        with psycopg.connect(dbname="xid_clients_casts", autocommit=True) as c:
            c.execute("CREATE EXTENSION xid SCHEMA public")
            c.execute("CREATE CAST (text AS public.xid) WITH INOUT AS ASSIGNMENT")
            c.execute("CREATE CAST (varchar AS public.xid) WITH INOUT AS ASSIGNMENT")
        with_casts = outcomes("xid_clients_casts")
    finally:
        with psycopg.connect(autocommit=True) as admin:
            admin.execute("DROP DATABASE xid_clients_casts")
    changed = {k: (NOW[k], v) for k, v in with_casts.items() if v != NOW[k]}
    assert changed == {
        "psycopg insert select unnest(list of str::text[])": ("42804", "ok"),
        "psycopg update set id = text": ("42804", "ok"),
        "psycopg insert varchar": ("42804", "ok"),
    }


def test_xid_values_fix_the_any_case(pg) -> None:
    pg.execute("CREATE TEMP TABLE tp2 (id public.xid)")
    pg.execute("INSERT INTO tp2 SELECT unnest(%s)", [IDS])
    assert pg.execute("SELECT count(*) FROM tp2 WHERE id = ANY(%s)", [[Xid(t) for t in TEXTS]]).fetchone()[0] == 3
