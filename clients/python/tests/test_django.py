"""Django 5 with pgxid.django: the field, arrays, startswith and time
lookups as index range scans (EXPLAIN), on psycopg 3 and, in a second
process, psycopg2 (XID_DJANGO_DRIVER=psycopg2)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import pytest

import pgxid
from pgxid import Xid
from conftest import HAVE_DB, OPS, expected_count, probe_times, sample_ids

pytestmark = pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")

DRIVER = os.environ.get("XID_DJANGO_DRIVER", "psycopg")
if DRIVER == "psycopg2":
    sys.modules["psycopg"] = None  # type: ignore[assignment]  # Django then takes psycopg2

django = pytest.importorskip("django")
from django.conf import settings  # noqa: E402

if HAVE_DB and not settings.configured:
    settings.configure(
        DATABASES={"default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": os.environ["PGDATABASE"], "USER": os.environ.get("PGUSER", ""),
            "HOST": os.environ.get("PGHOST", ""), "PORT": os.environ.get("PGPORT", ""),
        }},
        INSTALLED_APPS=["djapp"],
        USE_TZ=True,
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
    )
    django.setup()

IDS = sample_ids(1500, seed=51)


@pytest.fixture(scope="module")
def models():
    from django.db import connection

    from djapp.models import Line, Order

    suffix = "" if DRIVER == "psycopg" else "_2"
    Order._meta.db_table = "dj_orders" + suffix
    Line._meta.db_table = "dj_lines" + suffix
    with connection.schema_editor() as editor:
        editor.create_model(Order)
        editor.create_model(Line)
    Order.objects.bulk_create([Order(id=x, item=f"i{i}", tags=[x]) for i, x in enumerate(IDS)])
    with connection.cursor() as cur:
        cur.execute(f"ANALYZE {Order._meta.db_table}")
    yield Order, Line
    with connection.schema_editor() as editor:
        editor.delete_model(Line)
        editor.delete_model(Order)


def test_driver(models) -> None:
    from django.db import connection

    connection.ensure_connection()
    assert type(connection.connection).__module__.split(".")[0] == DRIVER


def test_column_type_and_values(models) -> None:
    from django.db import connection

    Order, Line = models
    with connection.cursor() as cur:
        cur.execute("SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                    " WHERE attrelid = %s::regclass AND attname IN ('id', 'tags') ORDER BY attname",
                    [Order._meta.db_table])
        assert [r[0] for r in cur.fetchall()] == ["public.xid", "public.xid[]"]
        cur.execute("SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                    " WHERE attrelid = %s::regclass AND attname = 'order_id'", [Line._meta.db_table])
        assert cur.fetchone()[0] == "public.xid"
    got = list(Order.objects.order_by("id").values_list("id", flat=True))
    assert got == IDS and all(type(x) is Xid for x in got)
    o = Order.objects.get(pk=str(IDS[3]))
    assert o.item == "i3" and o.tags == [IDS[3]] and type(o.tags[0]) is Xid
    assert Order.objects.filter(tags__contains=[IDS[4]]).get().id == IDS[4]
    assert [o.item for o in Order.objects.filter(id__in=IDS[5:7]).order_by("id")] == ["i5", "i6"]


def test_db_default_and_client_ids_in_time_order(models) -> None:
    Order, Line = models
    made = []
    for i in range(20):
        o = Order.objects.create(item="server") if i % 2 else Order.objects.create(id=pgxid.new(), item="client")
        assert type(o.id) is Xid
        made.append(o.id)
        time.sleep(0.002)
    assert sorted(made) == made
    assert Order.objects.filter(id__gte=made[0].time).count() == 20
    Line.objects.create(order_id=made[0], qty=2)
    assert Line.objects.get(order__id=made[0]).order.item == "client"
    Order.objects.filter(id__in=made).delete()


def test_validation() -> None:
    from django.core.exceptions import ValidationError

    from pgxid.django import XidField

    f = XidField()
    assert f.clean("5cnEkaefSdu", None) == Xid("5cnEkaefSdu")
    with pytest.raises(ValidationError):
        f.clean("5cnEk0efSdu", None)


def test_path_converter() -> None:
    from pgxid.django import XidConverter

    c = XidConverter()
    import re

    assert re.fullmatch(c.regex, "5cnEkaefSdu") and not re.fullmatch(c.regex, "5cnEk0efSdu")
    assert c.to_python("5cnEkaefSdu") == Xid("5cnEkaefSdu") and type(c.to_python("5cnEkaefSdu")) is Xid
    with pytest.raises(ValueError):  # matches the pattern, above the largest id: no match, a 404
        c.to_python("zzzzzzzzzzz")
    assert c.to_url(Xid("5cnEkaefSdu")) == "5cnEkaefSdu"


@pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")
def test_create_extension_operation() -> None:
    from django.db import connection
    from django.db.migrations.state import ProjectState

    from pgxid.django import CreateXidExtension

    op = CreateXidExtension()
    assert op.deconstruct() == ("CreateXidExtension", [], {})
    assert CreateXidExtension("ids").deconstruct() == ("CreateXidExtension", [], {"schema": "ids"})
    with connection.schema_editor() as editor:  # the extension exists: IF NOT EXISTS, nothing to do
        op.database_forwards("shop", editor, ProjectState(), ProjectState())
    with connection.cursor() as cur:
        cur.execute("SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'xid'")
        assert cur.fetchone()[0] == "public"


def plan(qs) -> str:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SET enable_seqscan = off")
    try:
        return qs.explain()
    finally:
        with connection.cursor() as cur:
            cur.execute("RESET enable_seqscan")


def test_startswith_is_a_range_scan(models) -> None:
    Order, _ = models
    x = IDS[100]
    for n in (1, 4, 7, 11):
        got = sorted(Order.objects.filter(id__startswith=x[:n]).values_list("id", flat=True))
        assert got == [y for y in IDS if y.startswith(x[:n])]
    assert not Order.objects.filter(id__startswith="0").exists()
    assert Order.objects.filter(id__startswith="").count() == len(IDS)
    p = plan(Order.objects.filter(id__startswith=x[:6]))
    assert "Index Cond" in p and f"{x[:6]}11111" in p, p


def test_time_lookups(models) -> None:
    Order, _ = models
    lookups = {"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
    for t in probe_times(IDS, seed=52):
        for op in OPS:
            n = Order.objects.filter(**{f"id__{lookups[op]}": t}).count()
            assert n == expected_count(IDS, op, t), (op, t)
    t = IDS[800].time
    p = plan(Order.objects.filter(id__gte=t, id__lt=t + timedelta(hours=1)))
    assert "Index Cond" in p, p
    with pytest.raises(ValueError, match="naive datetime"):
        Order.objects.filter(id__gte=datetime(2026, 3, 1)).count()
    # with an id, the lookups compare ids
    assert Order.objects.filter(id__lt=IDS[10]).count() == 10


@pytest.mark.skipif(DRIVER != "psycopg", reason="the psycopg2 run itself")
def test_again_with_psycopg2() -> None:
    env = dict(os.environ, XID_DJANGO_DRIVER="psycopg2")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-x", __file__],
                       env=env, capture_output=True, text=True, cwd=os.path.dirname(__file__), timeout=600)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    assert " passed" in r.stdout and "skipped" in r.stdout  # all but this test
