"""The package as users get it: a wheel built from pyproject.toml with no
network, installed, imported from where it was installed."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import pgxid

HERE = Path(__file__).resolve().parent.parent


def test_wheel_builds_offline_and_imports(tmp_path: Path) -> None:
    # find_spec, not import: importing setuptools after something imported
    # the standard library's distutils (Python 3.11) fails
    for m in ("pip", "setuptools"):
        if importlib.util.find_spec(m) is None:
            pytest.skip(f"no {m}")
    src = tmp_path / "src"
    # build from a copy: setuptools writes build/ and *.egg-info beside the sources
    subprocess.run(["cp", "-r", str(HERE), str(src)], check=True)
    for junk in ("tests/__pycache__",):
        subprocess.run(["rm", "-rf", str(src / junk)], check=True)
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                        "-w", str(tmp_path / "dist"), str(src)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    wheels = list((tmp_path / "dist").glob(f"pgxid-{pgxid.__version__}-*.whl"))
    assert len(wheels) == 1
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    for m in ("__init__", "_codec", "_generate", "psycopg", "psycopg2", "asyncpg", "sqlalchemy", "django", "pydantic", "alembic"):
        assert f"pgxid/{m}.py" in names
    assert "pgxid/py.typed" in names
    assert not any(n.startswith("tests/") for n in names)
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target",
                        str(tmp_path / "site"), str(wheels[0])], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    env["PYTHONPATH"] = str(tmp_path / "site")
    r = subprocess.run([sys.executable, "-c", "import pgxid; print(pgxid.__file__); print(pgxid.Xid.from_int(1 << 22))"],
                       env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    path, text = r.stdout.split()
    assert path.startswith(str(tmp_path / "site")) and text == "1111111NVpb"
