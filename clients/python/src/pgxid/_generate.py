"""Making xids in the application, with the server's layout (src/xid_generate.c).

42 bits of milliseconds from the wall clock, then 22 bits: in a new
millisecond a random start in the lower half of the counter bits, in the
same millisecond the last value plus a random step of 1 to 32; when a
millisecond is used up, or the clock went back, the next id borrows the
following millisecond.  So ids are unique and strictly increasing within
one generator (and so within a process for the module's ``new()``), across
threads.  With ``node_bits`` = b > 0 the top b of the 22 bits hold
``node_id``, as ``xid.node_bits``/``xid.node_id`` do on a server, and two
generators with different node ids never make the same id.

The random bits are a tie-breaker, not a secret: ``random.Random`` seeded
from ``os.urandom``, reseeded in a child after ``fork``.
"""

from __future__ import annotations

import os
import random
import threading
from time import time_ns as _time_ns
import weakref
from datetime import datetime
from typing import Optional

from ._codec import (
    _B5,
    _PAIRS,
    ALPHABET,
    MAX_MS,
    MAX_NODE_BITS,
    RANDOM_BITS,
    RANDOM_MASK,
    EPOCH_UNIX_MS,
    Xid,
    XidOutOfRangeError,
    encode,
    ms_of,
)

_MAX_STEP = 32
_B3 = 58 * 58 * 58
_new_str = str.__new__
_generators: "weakref.WeakSet[XidGenerator]" = weakref.WeakSet()


def _node_layout(node_bits: int, node_id: Optional[int]) -> tuple:
    """Counter bits and the node field shifted into place (xid_node_layout)."""
    for name, v in (("node_bits", node_bits), ("node_id", node_id)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise TypeError(f"{name} is an int")
    if not 0 <= node_bits <= MAX_NODE_BITS:
        raise ValueError(f"node bits {node_bits} is out of range (0 to {MAX_NODE_BITS})")
    if node_bits > 0 and node_id is None:
        raise ValueError(f"node_bits is {node_bits} but node_id is not set")
    nid = -1 if node_id is None else node_id
    if node_bits > 0 and not 0 <= nid < (1 << node_bits) or node_bits == 0 and nid > 0:
        raise ValueError(f"node_id {nid} does not fit in node_bits {node_bits}")
    counter_bits = RANDOM_BITS - node_bits
    return counter_bits, (nid << counter_bits if node_bits > 0 else 0)


class XidGenerator:
    """A source of new xids, strictly increasing, thread-safe.

    ``XidGenerator()`` has no node number; ``XidGenerator(node_bits=4,
    node_id=3)`` puts node 3 in the top 4 of the 22 low bits, like a server
    with ``xid.node_bits = 4`` and ``xid.node_id = 3``: give each process
    that makes ids for the same table its own node id.  Call it (or
    ``.new()``) for an ``Xid``.
    """

    __slots__ = (
        "node_bits", "node_id", "_counter_bits", "_node_field", "_counter_max",
        "_half", "_step_mask", "_lock", "_last", "_rand", "_getrandbits", "_cache_ms",
        "_cache_lo", "_cache_text", "__weakref__",
    )

    def __init__(self, node_bits: int = 0, node_id: Optional[int] = None) -> None:
        self._counter_bits, self._node_field = _node_layout(node_bits, node_id)
        self.node_bits = node_bits
        self.node_id = node_id
        self._counter_max = (1 << self._counter_bits) - 1
        self._half = self._counter_max >> 1
        self._step_mask = (_MAX_STEP >> min(node_bits, 5)) - 1
        self._last = 0
        self._cache_ms = -1
        self._cache_lo = 0
        self._cache_text = ""
        self._reseed()
        _generators.add(self)

    def _reseed(self) -> None:
        self._lock = threading.Lock()
        self._rand = random.Random(os.urandom(32))
        self._getrandbits = self._rand.getrandbits

    @property
    def last(self) -> Optional[Xid]:
        """The last id made, None before the first."""
        return Xid.from_int(self._last) if self._last else None

    def new(self) -> Xid:
        """A new id, above every id this generator made before."""
        now = _time_ns() // 1_000_000 - EPOCH_UNIX_MS
        if not 0 <= now <= MAX_MS:
            raise XidOutOfRangeError(
                "the clock is outside the times an xid holds",
                "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.",
            )
        with self._lock:
            rnd = self._getrandbits(64)
            old = self._last
            ms = old >> RANDOM_BITS
            # Every value this generator made carries its own node number,
            # so xid_new()'s case of a last value with another node number
            # cannot arise here.
            if ms < now:
                ms = now  # a new millisecond
                low = self._node_field | (rnd & self._half)
            else:
                step = 1 + ((rnd >> 32) & self._step_mask)
                if (old & self._counter_max) + step <= self._counter_max:
                    low = (old & RANDOM_MASK) + step
                else:
                    ms += 1  # this millisecond is used up: borrow the next
                    if ms > MAX_MS:
                        raise XidOutOfRangeError("no xid is left after 2151-03-25 18:46:22.214+00")
                    low = self._node_field | (rnd & self._half)
            self._last = (ms << RANDOM_BITS) | low
            # The text: the six leading symbols once per millisecond, the
            # last five from the remainder (no carry in 99.4% of ids).
            if ms != self._cache_ms:
                hi, lo = divmod(ms << RANDOM_BITS, _B5)
                self._cache_ms, self._cache_lo = ms, lo
                self._cache_text = encode(hi * _B5)[:6]
            lo = self._cache_lo + low
            head = self._cache_text
        if lo < _B5:
            a, r = divmod(lo, _B3)
            b, c = divmod(r, 58)
            return _new_str(Xid, f"{head}{_PAIRS[a]}{_PAIRS[b]}{ALPHABET[c]}")
        return _new_str(Xid, encode((ms << RANDOM_BITS) | low))

    __call__ = new

    def new_at(self, t: datetime) -> Xid:
        """An id for an instant (truncated to the millisecond) with random
        low bits and this generator's node number, for backfilling; as
        ``xid_new(timestamptz)``, not ordered against ``new()``."""
        ms = ms_of(t)
        with self._lock:
            rnd = self._rand.getrandbits(RANDOM_BITS)
        return Xid.from_int(ms << RANDOM_BITS | self._node_field | (rnd & self._counter_max))


def _after_fork() -> None:
    # a child must not repeat its parent's random sequence
    for g in list(_generators):
        g._reseed()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

_default = XidGenerator()


def new() -> Xid:
    """A new id from this process's generator (no node number)."""
    return _default.new()


def new_at(t: datetime) -> Xid:
    """An id for the instant ``t`` (aware datetime), for backfilling."""
    return _default.new_at(t)
