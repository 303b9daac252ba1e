"""An application outside the package (clients/python/test.sh): pgxid
installed from the built wheel or sdist, real queries through psycopg 3
and SQLAlchemy 2 against the server (PGHOST, PGPORT, PGUSER, PGDATABASE)."""

import psycopg
from sqlalchemy import create_engine, select, text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

import pgxid
import pgxid.psycopg
from pgxid import Xid
from pgxid.sqlalchemy import XidType, register

assert "site-packages" in pgxid.__file__ or "/site/" in pgxid.__file__, pgxid.__file__

with psycopg.connect(autocommit=True) as conn:
    pgxid.psycopg.register(conn)
    conn.execute("DROP TABLE IF EXISTS app_orders")
    conn.execute("CREATE TABLE app_orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)")
    made = conn.execute("INSERT INTO app_orders (item) VALUES ('pear') RETURNING id").fetchone()[0]
    assert type(made) is Xid
    assert conn.execute("SELECT item FROM app_orders WHERE id = %s", [made]).fetchone()[0] == "pear"
    rows = conn.execute("SELECT id FROM app_orders WHERE id ^@ %s", [made[:7]]).fetchall()
    assert [r[0] for r in rows] == [made]
    lo, hi = pgxid.prefix_bounds(made[:7])
    assert conn.execute("SELECT count(*) FROM app_orders WHERE id BETWEEN %s AND %s", [lo, hi]).fetchone()[0] == 1


class Base(DeclarativeBase):
    pass


class Order(Base):
    __tablename__ = "app_orders"
    id: Mapped[Xid] = mapped_column(XidType, primary_key=True, server_default=text("xid_new()"))
    item: Mapped[str]


engine = create_engine("postgresql+psycopg://")
register(engine)
with Session(engine) as session:
    plum = Order(item="plum")
    session.add(plum)
    session.commit()
    assert type(plum.id) is Xid
    assert session.get(Order, plum.id).item == "plum"
    assert session.scalars(select(Order).where(Order.id == plum.id)).one().item == "plum"
engine.dispose()
print(f"psycopg and SQLAlchemy: inserted {made} and {plum.id}, selected by id and by prefix")
