#!/usr/bin/env python3
"""bench.py: pgxid's codec beside Python's uuid module, in one run.

    python3 bench.py [--quick]
    python3 bench.py --frameworks [--quick]

Each operation runs N times, best of 7 repeats (timeit), in ns per
operation; the ratio is pgxid's time over uuid's (below 1.0: pgxid is
faster).  Inputs are 1,000 distinct values cycled, made before timing.

--frameworks (needs pydantic and fastapi, e.g. the venv of test.sh)
times the same work with an ``Xid`` and a ``uuid.UUID``, in one process:
Pydantic validate + dump of a model with one such field (from a dict and
from JSON), and a FastAPI request whose path parameter is one, answered
with a model holding it (the ASGI app called directly: no network, no
HTTP client, so the framework's own work is what is timed).  Rounds of
each alternate, xid and uuid, and the best round counts, so that a load
that comes and goes on a shared machine touches both alike.
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


def frameworks() -> None:
    import asyncio
    import time

    import fastapi
    import pydantic
    import pydantic_core
    import starlette
    from pydantic import BaseModel

    rounds = 5 if quick else 30
    n = 1000

    class MX(BaseModel):
        id: Xid

    class MU(BaseModel):
        id: uuid.UUID

    rng_ = random.Random(2)
    xs = [pgxid.encode(rng_.getrandbits(64)) for _ in range(n)]
    us = [str(uuid.UUID(int=rng_.getrandbits(128), version=4)) for _ in range(n)]
    jx = [f'{{"id":"{v}"}}' for v in xs]
    ju = [f'{{"id":"{v}"}}' for v in us]

    def dict_json(M, data):
        for v in data:
            M.model_validate({"id": v}).model_dump_json()

    def dict_dict(M, data):
        for v in data:
            M.model_validate({"id": v}).model_dump()

    def json_json(M, data):
        for v in data:
            M.model_validate_json(v).model_dump_json()

    app = fastapi.FastAPI()

    # response_model, not a return annotation: this file's annotations are
    # strings, and these models are local
    @app.get("/x/{item_id}", response_model=MX)
    async def get_x(item_id: Xid):
        return MX(id=item_id)

    @app.get("/u/{item_id}", response_model=MU)
    async def get_u(item_id: uuid.UUID):
        return MU(id=item_id)

    def scope(path: str) -> dict:
        return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
                "root_path": "", "headers": [(b"host", b"bench")], "server": ("bench", 80),
                "client": ("bench", 1)}

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    def _send(out):
        async def send(m):
            out.append(m)
        return send

    async def requests(paths):
        for p in paths:
            out = []
            await app(scope(p), receive, _send(out))
            assert out[0]["status"] == 200, out

    # short rounds, many of them: a request takes tens of microseconds, and
    # the best of many short rounds is the one no other process disturbed
    px = [f"/x/{v}" for v in xs[:50]]
    pu = [f"/u/{v}" for v in us[:50]]
    loop = asyncio.new_event_loop()
    body = []
    loop.run_until_complete(app(scope(px[0]), receive, _send(body)))
    assert body[1]["body"] == f'{{"id":"{xs[0]}"}}'.encode(), body

    cases = [
        ("Pydantic: validate a dict + model_dump_json()", lambda: dict_json(MX, xs), lambda: dict_json(MU, us), n, 1),
        ("Pydantic: validate a dict + model_dump()", lambda: dict_dict(MX, xs), lambda: dict_dict(MU, us), n, 1),
        ("Pydantic: model_validate_json() + model_dump_json()", lambda: json_json(MX, jx), lambda: json_json(MU, ju), n, 1),
        ("FastAPI: GET /{id} -> model with the id (ASGI)", lambda: loop.run_until_complete(requests(px)),
         lambda: loop.run_until_complete(requests(pu)), len(px), 5),
    ]
    best = {}
    for _ in range(rounds):
        for name, fx, fu, count, times in cases:
            for _ in range(times):
                for key, f in (("xid", fx), ("uuid", fu)):
                    t0 = time.perf_counter()
                    f()
                    dt = (time.perf_counter() - t0) / count * 1e9
                    best[name, key] = min(best.get((name, key), dt), dt)
    print(f"Python {platform.python_version()}, pydantic {pydantic.VERSION}, "
          f"pydantic-core {pydantic_core.__version__}, fastapi {fastapi.__version__}, "
          f"starlette {starlette.__version__}, best of {rounds} alternating rounds")
    print()
    print("| operation | Xid ns | uuid.UUID ns | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for name, _, _, _, _ in cases:
        x, u = best[name, "xid"], best[name, "uuid"]
        print(f"| {name} | {x:.0f} | {u:.0f} | {x / u:.2f} |")


if "--frameworks" in sys.argv:
    frameworks()
    sys.exit(0)
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
