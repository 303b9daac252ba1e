"""Pydantic v2: ``Xid`` as a field type, and so in FastAPI and SQLModel.

    from pydantic import BaseModel
    from pgxid import Xid

    class Order(BaseModel):
        id: Xid

    Order(id="5cnEkaefSdu").id          # Xid('5cnEkaefSdu')
    Order.model_validate_json('{"id": "5cnEkaefSdu"}')
    Order(id=x).model_dump_json()       # '{"id":"5cnEkaefSdu"}'

``Xid`` carries the hooks itself (``__get_pydantic_core_schema__``,
``__get_pydantic_json_schema__``), which import this module the first time
Pydantic asks, so ``import pgxid`` never imports Pydantic.

- Validation takes the text (from Python or JSON) or an ``Xid``, and
  accepts exactly what the server's ``xid_in`` does; anything else is one
  validation error of type ``xid_parsing``, "Input should be an xid: 11
  Base58 symbols, at most jpXCZedGfVQ" (``Xid(text)`` gives the server's
  own message).  A payload (``int``) or ``bytes`` is refused, as by
  ``Xid()``: convert those explicitly (``Xid.from_int``,
  ``Xid.from_bytes``).
- The value is an ``Xid``, so ``model_dump()`` gives ``Xid`` (a ``str``)
  and ``model_dump(mode="json")``/``model_dump_json()`` the text.
- The JSON schema (and so FastAPI's OpenAPI) is a string of exactly 11
  Base58 symbols: ``{"type": "string", "pattern": PATTERN, "minLength":
  11, "maxLength": 11}``.
"""

from __future__ import annotations

import functools
from typing import Any, Dict

from pydantic_core import core_schema

from ._codec import ALPHABET, MAX_TEXT, Xid

__all__ = ["PATTERN", "JSON_SCHEMA", "ERROR_TYPE", "ERROR_MESSAGE", "xid_core_schema", "xid_json_schema"]

#: 11 symbols of the Base58 alphabet (no 0, O, I, l): what the text of an
#: xid looks like, in the JSON schema.  (Validation also refuses the 11
#: symbol texts above the largest xid, jpXCZedGfVQ.)
PATTERN = "^[1-9A-HJ-NP-Za-km-z]{11}$"
JSON_SCHEMA: Dict[str, Any] = {"type": "string", "pattern": PATTERN, "minLength": 11, "maxLength": 11}
ERROR_TYPE = "xid_parsing"
ERROR_MESSAGE = "Input should be an xid: 11 Base58 symbols, at most jpXCZedGfVQ"


def _range_class(chars: str) -> str:
    """A regex character class of symbols of the alphabet, as ranges."""
    runs: list = []
    for c in chars:
        if runs and ord(c) == ord(runs[-1][1]) + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "[" + "".join(a if a == b else f"{a}-{b}" for a, b in runs) + "]"


def _canonical_regex() -> str:
    """Exactly the canonical texts: 11 symbols whose value is at most
    2^64 - 1.  The text sorts like the value, so that is the texts
    lexicographically <= jpXCZedGfVQ: a prefix of it, one symbol below its
    next, then any symbols; or jpXCZedGfVQ itself."""
    alts = []
    for k in range(len(MAX_TEXT)):
        below = ALPHABET[: ALPHABET.index(MAX_TEXT[k])]
        rest = len(MAX_TEXT) - k - 1
        alts.append(MAX_TEXT[:k] + _range_class(below) + (f"{_range_class(ALPHABET)}{{{rest}}}" if rest else ""))
    alts.append(MAX_TEXT)
    return "^(?:" + "|".join(alts) + ")$"


#: what validation checks, in pydantic-core's own regex engine
CANONICAL_REGEX = _canonical_regex()


def xid_core_schema(cls: type = Xid) -> core_schema.CoreSchema:
    """The core schema of ``cls`` (``Xid`` or a subclass): a string matched
    against CANONICAL_REGEX, then made a ``cls`` by ``str.__new__`` with no
    Python code in between (so validating an xid costs no more than a
    UUID), serialized as the string it is."""
    return core_schema.custom_error_schema(
        core_schema.no_info_after_validator_function(
            functools.partial(str.__new__, cls),
            core_schema.str_schema(pattern=CANONICAL_REGEX, strict=True),
        ),
        custom_error_type=ERROR_TYPE,
        custom_error_message=ERROR_MESSAGE,
    )


def xid_json_schema(schema: core_schema.CoreSchema, handler: Any) -> Dict[str, Any]:
    """The JSON schema of an xid: a string of 11 Base58 symbols."""
    js = handler.resolve_ref_schema(handler(schema))
    js.clear()
    js.update(JSON_SCHEMA)
    return js
