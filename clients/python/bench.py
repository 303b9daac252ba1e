#!/usr/bin/env python3
"""bench.py: pgxid's codec beside Python's uuid module, in one run.

    python3 bench.py [--quick]

Each operation runs N times, best of 7 repeats (timeit), in ns per
operation; the ratio is pgxid's time over uuid's (below 1.0: pgxid is
faster).  Inputs are 1,000 distinct values cycled, made before timing.
"""

from __future__ import annotations

import platform
import random
import sys
import timeit
import uuid

sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__file__), "src"))
import pgxid  # noqa: E402
from pgxid import Xid, XidGenerator  # noqa: E402

quick = "--quick" in sys.argv
N = 20_000 if quick else 200_000
REPEAT = 3 if quick else 7

rng = random.Random(1)
payloads = [rng.getrandbits(64) for _ in range(1000)]
xid_texts = [pgxid.encode(p) for p in payloads]
xids = [Xid(t) for t in xid_texts]
uuids = [uuid.uuid4() for _ in range(1000)]
uuid_texts = [str(u) for u in uuids]
uuid_ints = [u.int for u in uuids]
gen = XidGenerator()


def per_op(stmt: str, env: dict) -> float:
    loop = f"for v in data:\n    {stmt}"
    reps = N // 1000
    t = min(timeit.repeat(loop, globals=env, number=reps, repeat=REPEAT))
    return t / (reps * 1000) * 1e9


def per_call(fn) -> float:
    t = min(timeit.repeat(fn, number=N, repeat=REPEAT))
    return t / N * 1e9


rows = [
    ("parse text", per_op("Xid(v)", {"Xid": Xid, "data": xid_texts}),
     "uuid.UUID(str)", per_op("UUID(v)", {"UUID": uuid.UUID, "data": uuid_texts})),
    ("format (value to text)", per_op("str(v)", {"data": xids}),
     "str(uuid)", per_op("str(v)", {"data": uuids})),
    ("format from the integer", per_op("str(from_int(v))", {"from_int": Xid.from_int, "data": payloads}),
     "str(UUID(int=n))", per_op("str(UUID(int=v))", {"UUID": uuid.UUID, "data": uuid_ints})),
    ("to bytes", per_op("bytes(v)", {"data": xids}),
     "uuid.bytes", per_op("v.bytes", {"data": uuids})),
    ("to int", per_op("int(v)", {"data": xids}),
     "uuid.int", per_op("v.int", {"data": uuids})),
]
gen_ns = per_call(gen)
new_ns = per_call(pgxid.new)
u4 = per_call(uuid.uuid4)
rows.append(("generate (XidGenerator())", gen_ns, "uuid.uuid4()", u4))
rows.append(("generate (pgxid.new())", new_ns, "uuid.uuid4()", u4))
if hasattr(uuid, "uuid7"):
    rows.append(("generate (XidGenerator())", gen_ns, "uuid.uuid7()", per_call(uuid.uuid7)))
rows.append(("generate (XidGenerator())", gen_ns, "uuid.uuid1()", per_call(uuid.uuid1)))

print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
      f"{platform.machine()}, N={N}, best of {REPEAT}")
print()
print("| operation | pgxid ns | uuid operation | uuid ns | ratio |")
print("| --- | ---: | --- | ---: | ---: |")
for name, ours, uname, theirs in rows:
    print(f"| {name} | {ours:.0f} | {uname} | {theirs:.0f} | {ours / theirs:.2f} |")
