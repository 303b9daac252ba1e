"""Alembic: autogenerate renders ``XidType`` with its import, and the
first migration that needs the type creates the extension.

In ``env.py``, pass both hooks to ``context.configure`` (online mode)::

    import pgxid.alembic

    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_item=pgxid.alembic.render_item,
        process_revision_directives=pgxid.alembic.process_revision_directives,
    )

- ``render_item`` writes an ``XidType`` column as ``XidType()`` (or
  ``XidType(schema='ids')``) and adds ``from pgxid.sqlalchemy import
  XidType`` to the migration's imports.  Without it Alembic writes
  ``pgxid.sqlalchemy.XidType()`` and no import, and the migration fails
  with a NameError.
- ``process_revision_directives``: when the target metadata has an
  ``XidType`` column and the database has no extension xid yet, the new
  migration's upgrade starts with ``op.execute("CREATE EXTENSION IF NOT
  EXISTS xid SCHEMA public")`` (the schema of the type) and its downgrade
  ends with ``op.execute("DROP EXTENSION IF EXISTS xid")``.

Either hook can be called from one of your own (each returns what Alembic
expects: ``False`` from ``render_item`` for what it does not render).
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from alembic.operations import ops
from sqlalchemy import text

from .sqlalchemy import XidType, _quote

__all__ = ["render_item", "process_revision_directives", "create_extension_sql", "drop_extension_sql"]

IMPORT = "from pgxid.sqlalchemy import XidType"


def render_item(type_: str, obj: Any, autogen_context: Any) -> Any:
    """Alembic's render_item hook: ``XidType(...)`` with its import."""
    if type_ == "type" and isinstance(obj, XidType):
        autogen_context.imports.add(IMPORT)
        return "XidType()" if obj.schema == "public" else f"XidType(schema={obj.schema!r})"
    return False


def create_extension_sql(schema: str = "public") -> str:
    return f"CREATE EXTENSION IF NOT EXISTS xid SCHEMA {_quote(schema)}"


def drop_extension_sql() -> str:
    return "DROP EXTENSION IF EXISTS xid"


def _xid_types(metadata: Any) -> Iterator[XidType]:
    if metadata is None:
        return
    for md in metadata if isinstance(metadata, (list, tuple)) else [metadata]:
        for table in md.tables.values():
            for column in table.columns:
                t = column.type
                item = getattr(t, "item_type", None)  # ARRAY(XidType)
                if isinstance(t, XidType):
                    yield t
                elif isinstance(item, XidType):
                    yield item


def _installed(context: Any) -> Optional[bool]:
    conn = getattr(context, "connection", None)
    if conn is None:
        return None  # offline: cannot tell
    return conn.execute(text("SELECT true FROM pg_catalog.pg_extension WHERE extname = 'xid'")).scalar() is True


def process_revision_directives(context: Any, revision: Any, directives: list) -> None:
    """Alembic's process_revision_directives hook: the first migration that
    needs the xid type creates the extension.  (Alembic runs env.py, and
    so this, for ``revision --autogenerate``, and for a plain ``revision``
    only with ``revision_environment = true``.)"""
    if not directives:
        return
    script = directives[0]
    xid_type = next(_xid_types(context.opts.get("target_metadata")), None)
    if xid_type is None or _installed(context) is not False:
        return
    script.upgrade_ops.ops.insert(0, ops.ExecuteSQLOp(create_extension_sql(xid_type.schema)))
    script.downgrade_ops.ops.append(ops.ExecuteSQLOp(drop_extension_sql()))
