"""Every snippet of the section "From your application" of the package's
README.md (clients/python/README.md) runs.

Fenced blocks there are ```sh, ```python or ```python django, and one
```ini, the mypy configuration that test.sh checks app/shop with (any other
kind fails this test, so none goes unrun).  In order:
- sh blocks run with sh -e at the top of the repository, in a virtualenv
  that sees the test venv's packages (a .pth file), with no package
  index (PIP_NO_INDEX) and no build isolation, which would need the
  network;
- python blocks run in that virtualenv's python, all in one namespace,
  with the PG* variables of the test database;
- python django blocks likewise, after Django is configured with that
  database (a project's settings do this).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import HAVE_DB

TOP = Path(__file__).resolve().parents[3]
README = TOP / "clients" / "python" / "README.md"

RUNNER = r'''
import json, os, sys, traceback
blocks = json.load(sys.stdin)
ns = {"__name__": "__readme__"}
for i, (kind, code) in enumerate(blocks):
    if kind == "python django":
        from django.conf import settings
        if not settings.configured:
            import django
            settings.configure(DATABASES={"default": {
                "ENGINE": "django.db.backends.postgresql", "NAME": os.environ["PGDATABASE"],
                "USER": os.environ.get("PGUSER", ""), "HOST": os.environ.get("PGHOST", ""),
                "PORT": os.environ.get("PGPORT", "")}}, USE_TZ=True,
                INSTALLED_APPS=["django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes"])
            django.setup()
    try:
        exec(compile(code, f"README block {i + 1}", "exec"), ns)
    except Exception:
        traceback.print_exc()
        print(f"README block {i + 1} ({kind}) failed:\n{code}")
        sys.exit(1)
    print(f"README block {i + 1} ({kind}) ran")
'''


def python_blocks() -> list:
    text = README.read_text()
    start = text.index("\n## From your application\n")
    end = min([i for i in (text.find("\n### ", start + 1), text.find("\n## ", start + 1)) if i > 0] + [len(text)])
    section = text[start:end]
    return re.findall(r"^```([^\n]*)\n(.*?)^```", section, re.S | re.M)


def test_readme_has_python_blocks() -> None:
    blocks = python_blocks()
    kinds = [k for k, _ in blocks]
    assert set(kinds) <= {"sh", "python", "python django", "ini"}, kinds
    assert kinds.count("ini") == 1, kinds
    assert kinds.count("sh") >= 1 and kinds.count("python") >= 6 and "python django" in kinds


@pytest.mark.skipif(not HAVE_DB, reason="no database (PGDATABASE unset)")
def test_readme_python_blocks_run(tmp_path: Path) -> None:
    import psycopg

    with psycopg.connect(autocommit=True) as c:
        c.execute("DROP TABLE IF EXISTS orders")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # the packages of the test's own venv (requirements.txt: the drivers,
    # the frameworks, setuptools for the offline build) through a .pth file
    paths = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "xid_test_venv.pth").write_text("".join(p + "\n" for p in sorted(paths)))
    # ensurepip of Python < 3.12 also puts an old setuptools first on the path
    for old in site.glob("setuptools*"):
        shutil.rmtree(old)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PATH=f"{venv}/bin:{env['PATH']}", VIRTUAL_ENV=str(venv), PIP_NO_INDEX="1",
               PIP_NO_BUILD_ISOLATION="0", PIP_DISABLE_PIP_VERSION_CHECK="1")
    blocks = python_blocks()
    for kind, code in blocks:
        if kind == "sh":
            r = subprocess.run(["sh", "-e", "-c", code], cwd=str(TOP), env=env, capture_output=True, text=True)
            assert r.returncode == 0, code + r.stdout[-3000:] + r.stderr[-3000:]
    where = subprocess.run([f"{venv}/bin/python", "-c", "import pgxid; print(pgxid.__file__)"],
                           env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr
    blocks = [b for b in blocks if b[0] != "ini"]  # test.sh's mypy check
    r = subprocess.run([f"{venv}/bin/python", "-c", RUNNER], input=json.dumps([b for b in blocks if b[0] != "sh"]),
                       env=env, capture_output=True, text=True, cwd=str(tmp_path), timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert r.stdout.count(" ran") == sum(1 for k, _ in blocks if k != "sh")
