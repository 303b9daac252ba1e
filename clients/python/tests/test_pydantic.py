"""Pydantic v2: Xid as a field type (pgxid.pydantic, through Xid's hooks)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from typing import Dict, List, Optional

import pytest

import pgxid
from pgxid import MAX, MIN, Xid

pydantic = pytest.importorskip("pydantic")
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError  # noqa: E402

import pgxid.pydantic as xpd  # noqa: E402

TEXT = "5cnEkaefSdu"
SCHEMA = {"type": "string", "pattern": "^[1-9A-HJ-NP-Za-km-z]{11}$", "minLength": 11, "maxLength": 11}


class Order(BaseModel):
    id: Xid
    parent: Optional[Xid] = None
    tags: List[Xid] = []


class StrictOrder(BaseModel):
    model_config = ConfigDict(strict=True)
    id: Xid


@pytest.fixture(autouse=True)
def warnings_are_errors():
    # a serializer that falls back to inference warns; none may
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_validate_from_text_and_from_xid() -> None:
    o = Order(id=TEXT, parent=Xid(TEXT), tags=[TEXT, MAX])
    assert type(o.id) is Xid and type(o.parent) is Xid and all(type(t) is Xid for t in o.tags)
    assert o.id == Xid(TEXT) and o.id.time == Xid(TEXT).time and o.tags == [TEXT, "jpXCZedGfVQ"]
    for model in (Order, StrictOrder):
        for v in (TEXT, Xid(TEXT)):
            got = model.model_validate({"id": v}).id
            assert type(got) is Xid and got == TEXT
        got = model.model_validate_json(json.dumps({"id": TEXT})).id
        assert type(got) is Xid and got == TEXT
    assert Order(id=MIN).id == "11111111111" and Order(id="jpXCZedGfVQ").id == MAX


def test_dump_as_text() -> None:
    x = pgxid.new()
    o = Order(id=x, tags=[x])
    assert o.model_dump() == {"id": x, "parent": None, "tags": [x]} and type(o.model_dump()["id"]) is Xid
    d = o.model_dump(mode="json")
    assert d == {"id": str(x), "parent": None, "tags": [str(x)]} and type(d["id"]) is str
    assert o.model_dump_json() == f'{{"id":"{x}","parent":null,"tags":["{x}"]}}'
    assert Order.model_validate_json(o.model_dump_json()) == o


BAD = ["5cnEk0efSdu", "5cnEkOefSdu", "5cnEkIefSdu", "5cnEklefSdu", "5cnEkaefSd", "5cnEkaefSduu", "",
       "jpXCZedGfVR", "jpXCZedGfVz", "zzzzzzzzzzz", "5cnEkaefSdu\n", " 5cnEkaefSdu", "5cnEkaefSdé", "5cnEkaef\u0000du"]


@pytest.mark.parametrize("model", [Order, StrictOrder])
def test_errors(model) -> None:
    for bad in BAD + [5, 1 << 40, 5.0, True, None, b"5cnEkaefSdu", bytearray(b"5cnEkaefSdu"), ["5cnEkaefSdu"]]:
        with pytest.raises(ValidationError) as e:
            model.model_validate({"id": bad})
        errors = e.value.errors(include_url=False)
        assert errors == [{"type": "xid_parsing", "loc": ("id",), "input": bad,
                           "msg": "Input should be an xid: 11 Base58 symbols, at most jpXCZedGfVQ"}], bad
    for bad in BAD + [5, None]:
        with pytest.raises(ValidationError) as e:
            model.model_validate_json(json.dumps({"id": bad}))
        assert [x["type"] for x in e.value.errors()] == ["xid_parsing"], bad


def test_accepts_exactly_what_xid_in_accepts() -> None:
    # the validator is a regex in pydantic-core; the codec mirrors xid_in
    # and is checked against the server: they must agree everywhere, above
    # all around the largest xid
    rng = random.Random(34)
    ta = TypeAdapter(Xid)
    texts = [pgxid.encode(rng.getrandbits(64)) for _ in range(3000)]
    for k in range(11):  # around jpXCZedGfVQ, symbol by symbol
        for c in pgxid.ALPHABET + "0OIl-é":
            texts.append((MAX[:k] + c + MAX[k + 1:]))
            texts.append((MAX[:k] + c + "z" * (10 - k)))
            texts.append((MAX[:k] + c + "1" * (10 - k)))
    for t in list(texts[:3000]):
        i = rng.randrange(11)
        texts.append(t[:i] + rng.choice("0OIl_%\\ é\n") + t[i + 1:])
        texts.append(t[:i] + t[i + 1:])
        texts.append(t + rng.choice(pgxid.ALPHABET))
        texts.append(pgxid.encode(rng.getrandbits(64) | (0xFFFF_FF00 << 32)))
    accepted = 0
    for t in texts:
        try:
            got = ta.validate_python(t)
        except ValidationError:
            assert not pgxid.is_valid(t), t
        else:
            assert pgxid.is_valid(t) and got == Xid(t) and type(got) is Xid, t
            accepted += 1
    assert 3000 < accepted < len(texts) - 3000


def test_json_schema() -> None:
    props = Order.model_json_schema()["properties"]
    assert props["id"] == dict(SCHEMA, title="Id")
    assert props["parent"] == {"anyOf": [SCHEMA, {"type": "null"}], "default": None, "title": "Parent"}
    assert props["tags"] == {"items": SCHEMA, "type": "array", "default": [], "title": "Tags"}
    assert TypeAdapter(Xid).json_schema() == SCHEMA == xpd.JSON_SCHEMA
    assert TypeAdapter(Xid).json_schema(mode="serialization") == SCHEMA


def test_keys_type_adapter_and_subclass() -> None:
    ta = TypeAdapter(Dict[Xid, int])
    d = ta.validate_json(f'{{"{TEXT}": 1}}')
    assert d == {TEXT: 1} and all(type(k) is Xid for k in d)
    assert ta.dump_json(d) == f'{{"{TEXT}":1}}'.encode()
    with pytest.raises(ValidationError):
        ta.validate_python({"nope": 1})

    class OrderId(Xid):
        __slots__ = ()

    class M(BaseModel):
        id: OrderId

    assert type(M(id=TEXT).id) is OrderId and M(id=TEXT).model_dump_json() == f'{{"id":"{TEXT}"}}'


def test_codec_does_not_import_pydantic() -> None:
    r = subprocess.run([sys.executable, "-c",
                        "import sys, pgxid; pgxid.Xid('5cnEkaefSdu'); pgxid.new();"
                        "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'pgxid.'))))"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "['pgxid._codec', 'pgxid._generate', 'pgxid._ulid', 'pgxid._uuid']", r.stdout + r.stderr
