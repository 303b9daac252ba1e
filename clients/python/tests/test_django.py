"""Django 5 with pgxid.django: the field, arrays, startswith and time
lookups as index range scans (EXPLAIN), the admin (Django's test client)
with a key the server makes and a prefix search, on psycopg 3 and, in a
second process, psycopg2 (XID_DJANGO_DRIVER=psycopg2)."""

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
        INSTALLED_APPS=["django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
                        "django.contrib.sessions", "django.contrib.messages", "djapp"],
        USE_TZ=True,
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
        SECRET_KEY="pgxid tests",
        ROOT_URLCONF="djapp.urls",
        ALLOWED_HOSTS=["testserver"],
        MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware",
                    "django.contrib.auth.middleware.AuthenticationMiddleware",
                    "django.contrib.messages.middleware.MessageMiddleware"],
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True,
                    "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                                       "django.contrib.auth.context_processors.auth",
                                                       "django.contrib.messages.context_processors.messages"]}}],
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


@pytest.fixture(scope="module")
def admin_client():
    """Django's test client, logged in to the admin as a superuser; the
    tables of Note and Memo (of djapp.urls's two admin sites)."""
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from djapp.models import Memo, Note

    call_command("migrate", verbosity=0)  # auth, admin, sessions, contenttypes
    suffix = "" if DRIVER == "psycopg" else "_2"
    Note._meta.db_table = "dj_notes" + suffix
    Memo._meta.db_table = "dj_memos" + suffix
    with connection.schema_editor() as editor:
        editor.create_model(Note)
        editor.create_model(Memo)
    user, _ = User.objects.get_or_create(username="admin" + suffix, is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    yield client, Note, Memo
    with connection.schema_editor() as editor:
        editor.delete_model(Memo)
        editor.delete_model(Note)


def test_form_with_a_server_made_key(admin_client) -> None:
    from django import forms

    from djapp.models import Memo, Note

    class NoteForm(forms.ModelForm):
        class Meta:
            model = Note
            fields = ["id", "title"]

    f = NoteForm()
    assert not f.fields["id"].required and "database makes" in f.fields["id"].help_text
    assert 'maxlength="11"' in str(f["id"]) and "required" not in str(f["id"])
    f = NoteForm({"id": "", "title": "t"})
    assert f.is_valid(), f.errors
    assert f.cleaned_data["id"] is None
    f = NoteForm({"id": "5cnEk0efSdu", "title": "t"})
    assert not f.is_valid() and f.errors["id"] == ["“5cnEk0efSdu” is not a valid xid."]
    f = NoteForm({"id": " 5cnEkaefSdu ", "title": "t"})
    assert f.is_valid() and f.cleaned_data["id"] == Xid("5cnEkaefSdu") and type(f.cleaned_data["id"]) is Xid
    assert not forms.modelform_factory(Memo, fields=["id"])().fields["id"].required
    assert [f.name for f in forms.modelform_factory(Note, exclude=[])().visible_fields()] == ["id", "title"]


def test_admin_adds_with_a_server_made_key(admin_client) -> None:
    client, Note, Memo = admin_client
    r = client.get("/admin/djapp/note/add/")
    assert r.status_code == 200 and 'name="id"' in r.text
    before = datetime.now(timezone.utc).replace(microsecond=0)
    r = client.post("/admin/djapp/note/add/", {"id": "", "title": "made by the server"})
    assert r.status_code == 302, r.text[-3000:]
    made = Note.objects.get(title="made by the server")
    assert type(made.id) is Xid and made.id.time >= before - timedelta(seconds=1)
    assert r["Location"] == f"/admin/djapp/note/{made.id}/change/" or r["Location"] == "/admin/djapp/note/"
    given = pgxid.new()
    r = client.post("/admin/djapp/note/add/", {"id": str(given), "title": "given"})
    assert r.status_code == 302 and Note.objects.get(pk=given).title == "given"
    r = client.post("/admin/djapp/note/add/", {"id": "5cnEk0efSdu", "title": "bad"})
    assert r.status_code == 200 and "is not a valid xid" in r.text
    assert not Note.objects.filter(title="bad").exists()
    # blank=True: once "" reached the database, a 500
    r = client.post("/admin/djapp/memo/add/", {"id": "", "note": str(made.id), "body": "memo"})
    assert r.status_code == 302, r.text[-3000:]
    memo = Memo.objects.get(body="memo")
    assert type(memo.id) is Xid and memo.note_id == made.id


def test_admin_change_form(admin_client) -> None:
    client, Note, _ = admin_client
    note = Note.objects.create(title="to change")
    n = Note.objects.count()
    r = client.get(f"/admin/djapp/note/{note.id}/change/")
    assert r.status_code == 200 and f'value="{note.id}"' in r.text
    r = client.post(f"/admin/djapp/note/{note.id}/change/", {"id": str(note.id), "title": "changed"})
    assert r.status_code == 302, r.text[-3000:]
    assert Note.objects.get(pk=note.id).title == "changed" and Note.objects.count() == n
    # the id left empty on a saved row: the row keeps its id
    r = client.post(f"/admin/djapp/note/{note.id}/change/", {"id": "", "title": "again"})
    assert r.status_code == 302 and Note.objects.get(pk=note.id).title == "again" and Note.objects.count() == n
    # an id that is no id's text in the URL: "doesn't exist", not a 500
    r = client.get("/admin/djapp/note/5cnEk0efSdu/change/")
    assert r.status_code == 302 and r["Location"] == "/admin/"


def search(client, url: str, term: str):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        r = client.get(url, {"q": term})
    assert r.status_code == 200, r.text[-3000:]
    return r.text, " ".join(q["sql"] for q in queries.captured_queries)


def test_admin_prefix_search(admin_client) -> None:
    client, Note, Memo = admin_client
    notes = [Note.objects.create(title=f"searched {i}") for i in range(3)]
    x = notes[1].id
    table = Note._meta.db_table
    for url in ("/admin/djapp/note/", "/admin2/djapp/note/"):
        text, sql = search(client, url, x[:7])
        assert f"{x}/change/" in text
        assert (f"{notes[0].id}/change/" in text) == notes[0].id.startswith(x[:7])
        assert f'"{table}"."id" ^@ (\'{x[:7]}\')::text' in sql, sql
        assert f'UPPER("{table}"."id"::text)' not in sql, sql
        text, sql = search(client, url, str(x))  # a whole id: that one
        assert f"{x}/change/" in text and "1 result" in text, text[-2000:]
        text, _ = search(client, url, x[:7].swapcase())  # Base58 is case-sensitive
        assert f"{x}/change/" not in text
        text, _ = search(client, url, "searched 2")  # the other field; no id: nothing, no error
        assert f"{notes[2].id}/change/" in text
        text, _ = search(client, url, '0O "no such" zzzzzzzzzzzzzzzz')
        assert "0 results" in text
    memo = Memo.objects.create(body="about x", note=notes[1])
    text, sql = search(client, "/admin2/djapp/memo/", x[:5])  # "note": the key it points at
    assert f"{memo.id}/change/" in text and '"note_id" ^@' in sql and "UPPER" not in sql.split("^@")[0][-60:], sql
    text, sql = search(client, "/admin2/djapp/memo/", memo.id[:5])  # "=id": by prefix
    assert f"{memo.id}/change/" in text and f'"{Memo._meta.db_table}"."id" ^@' in sql, sql


@pytest.mark.skipif(DRIVER != "psycopg", reason="the psycopg2 run itself")
def test_again_with_psycopg2() -> None:
    env = dict(os.environ, XID_DJANGO_DRIVER="psycopg2")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-x", __file__],
                       env=env, capture_output=True, text=True, cwd=os.path.dirname(__file__), timeout=600)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    assert " passed" in r.stdout and "skipped" in r.stdout  # all but this test
