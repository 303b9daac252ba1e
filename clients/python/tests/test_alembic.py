"""Alembic against the live server: autogenerate renders XidType with its
import (pgxid.alembic.render_item), the first migration creates the
extension (pgxid.alembic.process_revision_directives), upgrade and
downgrade run, and a second autogenerate finds nothing to do."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HAVE_DB

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

pytest.importorskip("alembic")
import psycopg  # noqa: E402

DB = "xid_alembic"

MODELS = '''
from sqlalchemy import ForeignKey, MetaData, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from pgxid import Xid
from pgxid.sqlalchemy import XidType

class Base(DeclarativeBase):
    metadata = MetaData()

class Order(Base):
    __tablename__ = "orders"
    id: Mapped[Xid] = mapped_column(XidType, primary_key=True, server_default=text("xid_new()"))
    item: Mapped[str]

class Line(Base):
    __tablename__ = "lines"
    id: Mapped[Xid] = mapped_column(XidType, primary_key=True)
    order_id: Mapped[Xid] = mapped_column(XidType, ForeignKey("orders.id"), index=True)
    related: Mapped[list] = mapped_column(ARRAY(XidType), nullable=True)
'''


def run(args: list, cwd: Path) -> str:
    env = dict(os.environ, PGDATABASE=DB, PYTHONPATH=f"{cwd}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    r = subprocess.run([sys.executable, "-m", "alembic", *args], cwd=str(cwd), env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (args, r.stdout[-3000:], r.stderr[-3000:])
    return r.stdout + r.stderr


@pytest.fixture
def fresh_db():
    with psycopg.connect(dbname="postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {DB}")
    yield
    with psycopg.connect(dbname="postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


def test_autogenerate_upgrade_downgrade(tmp_path: Path, fresh_db) -> None:
    run(["init", "migrations"], tmp_path)
    (tmp_path / "models.py").write_text(MODELS)
    ini = tmp_path / "alembic.ini"
    ini.write_text(re.sub(r"^sqlalchemy\.url = .*$", "sqlalchemy.url = postgresql+psycopg://",
                          ini.read_text(), flags=re.M))
    env_py = tmp_path / "migrations" / "env.py"
    src = env_py.read_text()
    assert src.count("target_metadata=target_metadata") == 2 and "target_metadata = None" in src
    src = src.replace("target_metadata = None", "import pgxid.alembic\nfrom models import Base\n"
                      "target_metadata = Base.metadata")
    # online mode: README's two lines
    src = src.replace("connection=connection, target_metadata=target_metadata",
                      "connection=connection, target_metadata=target_metadata,\n"
                      "            render_item=pgxid.alembic.render_item,\n"
                      "            process_revision_directives=pgxid.alembic.process_revision_directives,")
    env_py.write_text(src)

    run(["revision", "--autogenerate", "-m", "orders"], tmp_path)
    (script,) = (tmp_path / "migrations" / "versions").glob("*_orders.py")
    body = script.read_text()
    assert "from pgxid.sqlalchemy import XidType\n" in body, body
    assert "sa.Column('id', XidType(), server_default=sa.text('xid_new()'), nullable=False)" in body, body
    assert "sa.Column('related', postgresql.ARRAY(XidType()), nullable=True)" in body, body
    assert "pgxid.sqlalchemy.XidType" not in body
    up = body[body.index("def upgrade"):body.index("def downgrade")]
    down = body[body.index("def downgrade"):]
    assert up.index("op.execute('CREATE EXTENSION IF NOT EXISTS xid SCHEMA public')") < up.index("op.create_table")
    assert down.index("op.drop_table('orders')") < down.index("op.execute('DROP EXTENSION IF EXISTS xid')"), down

    run(["upgrade", "head"], tmp_path)
    with psycopg.connect(dbname=DB, autocommit=True) as c:
        assert c.execute("SELECT extnamespace::regnamespace::text FROM pg_extension"
                         " WHERE extname = 'xid'").fetchone() == ("public",)
        cols = c.execute("SELECT attrelid::regclass::text || '.' || attname, format_type(atttypid, atttypmod)"
                         " FROM pg_attribute WHERE attrelid IN ('orders'::regclass, 'lines'::regclass)"
                         " AND attnum > 0 AND NOT attisdropped ORDER BY 1").fetchall()
        assert dict(cols) == {"lines.id": "public.xid", "lines.order_id": "public.xid",
                              "lines.related": "public.xid[]", "orders.id": "public.xid",
                              "orders.item": "character varying"}
        c.execute("INSERT INTO orders (item) VALUES ('pear')")

    # the database now matches the models: nothing to generate, and no
    # second CREATE EXTENSION
    run(["revision", "--autogenerate", "-m", "again"], tmp_path)
    (again,) = (tmp_path / "migrations" / "versions").glob("*_again.py")
    body = again.read_text()
    up = body[body.index("def upgrade"):body.index("def downgrade")]
    assert "op." not in up and "EXTENSION" not in body, body

    run(["downgrade", "base"], tmp_path)
    with psycopg.connect(dbname=DB, autocommit=True) as c:
        assert c.execute("SELECT count(*) FROM pg_extension WHERE extname = 'xid'").fetchone() == (0,)
        assert c.execute("SELECT to_regclass('orders')").fetchone() == (None,)


def test_render_item_other_schema_and_others() -> None:
    import pgxid.alembic
    from pgxid.sqlalchemy import XidType
    from sqlalchemy import Integer

    class Ctx:
        imports: set = set()

    ctx = Ctx()
    assert pgxid.alembic.render_item("type", XidType("ids"), ctx) == "XidType(schema='ids')"
    assert ctx.imports == {"from pgxid.sqlalchemy import XidType"}
    assert pgxid.alembic.render_item("type", Integer(), ctx) is False
    assert pgxid.alembic.render_item("column", XidType(), ctx) is False
    assert pgxid.alembic.create_extension_sql("My Ids") == 'CREATE EXTENSION IF NOT EXISTS xid SCHEMA "My Ids"'
