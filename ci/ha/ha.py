"""ci/ha/ha.py: the clients of ci/ha.sh (Patroni with etcd), with
psycopg 3 from Debian.

  ha.py writers DSN OUT STOP_FILE SECONDS
      Four writers, each on a connection of its own made with DSN (libpq's
      multi-host form with target_session_attrs=read-write, so a writer
      finds the primary after a switchover or failover by itself): INSERT
      ... DEFAULT xid_new() RETURNING id, and every tenth time SELECT
      xid_new() (an id returned to a client and stored nowhere).  Each
      operation is a line of OUT.W: kind (c committed, r returned, u sent
      but its outcome unknown: the connection broke), the monotonic clock
      when it was sent and when its answer came (ns), the id as bigint, the
      server's port.  A broken connection is made again after 0.1 s; runs
      until STOP_FILE exists or SECONDS have passed.

  ha.py check OUT EVENTS DSN_FINAL NODES_JSON
      Reads the writers' lines and EVENTS (one line per event: name, the
      monotonic ns when it started and when the new primary took writes, its
      port) and checks, printing "ok" or "FAIL" lines:
      - for each event: every id sent after the new primary took writes is
        above every id any client saw before the event started, and for
        any two operations, one answered before the other was sent, the
        later has the larger id (the order clients can observe);
      - no id twice, committed or returned;
      - every committed row is on the final primary (no committed row lost),
        and every stored row was committed or had an unknown outcome;
      - each committed id carries the node number of the member that made it.
"""

import bisect
import glob
import json
import os
import sys
import threading
import time

NODE_BITS = 4


def writers(dsn, out, stop_file, seconds):
    import psycopg
    deadline = time.monotonic() + seconds

    def writer(w):
        conn = None
        n = 0
        with open(f"{out}.{w}", "w", buffering=1) as f:
            while time.monotonic() < deadline and not os.path.exists(stop_file):
                if conn is None:
                    try:
                        conn = psycopg.connect(dsn, autocommit=True, connect_timeout=2)
                        port = int(conn.info.port)
                    except Exception:
                        conn = None
                        time.sleep(0.1)
                        continue
                n += 1
                stored = n % 10 != 0
                t0 = time.monotonic_ns()
                try:
                    if stored:
                        row = conn.execute("INSERT INTO ids (w) VALUES (%s) RETURNING id::bigint",
                                           (w,)).fetchone()
                    else:
                        row = conn.execute("SELECT xid_new()::bigint").fetchone()
                    t1 = time.monotonic_ns()
                    f.write(f"{'c' if stored else 'r'} {t0} {t1} {row[0]} {port}\n")
                except Exception:
                    if stored:
                        f.write(f"u {t0} 0 0 {port}\n")
                    try:
                        conn.close()
                    except Exception:
                        pass
                    conn = None
                    time.sleep(0.1)
                    continue
                time.sleep(0.004)
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


failures = 0


def report(ok, text):
    global failures
    if not ok:
        failures += 1
    print(("ok   " if ok else "FAIL ") + "patroni: " + text, flush=True)


def check(out, events_file, dsn_final, nodes_json):
    import psycopg
    ops = []
    for fn in glob.glob(out + ".*"):
        with open(fn) as f:
            for line in f:
                k, t0, t1, i, port = line.split()
                ops.append((k, int(t0), int(t1), int(i), int(port)))
    events = []
    with open(events_file) as f:
        for line in f:
            name, t_start, t_serving, port = line.rstrip("\n").split("\t")
            events.append((name, int(t_start), int(t_serving), int(port)))
    nodes = {int(k): v for k, v in json.load(open(nodes_json)).items()}
    answered = sorted((t1, i) for k, t0, t1, i, p in ops if k in "cr")
    ack_times = [a[0] for a in answered]
    prefix_max = []
    m = -1
    for t1, i in answered:
        m = max(m, i)
        prefix_max.append(m)

    def top_before(t):
        j = bisect.bisect_left(ack_times, t)
        return prefix_max[j - 1] if j > 0 else -1

    # ids answered before an operation was sent are all below its id
    late = [(k, t0, i) for k, t0, t1, i, p in ops if k in "cr" and i <= top_before(t0)]
    for e, (name, t_start, t_serving, port) in enumerate(events):
        t_next = events[e + 1][1] if e + 1 < len(events) else float("inf")
        before = top_before(t_start)
        after = [(k, i) for k, t0, t1, i, p in ops if k in "cr" and t_serving <= t0 < t_next]
        stored_after = [i for k, i in after if k == "c"]
        low = min((i for k, i in after), default=None)
        bad = [x for x in late if t_serving <= x[1] < t_next]
        report(low is not None and low > before and not bad and len(stored_after) >= 20,
               f"{name}: the new primary (port {port}) made {len(after)} ids for the writers "
               f"({len(stored_after)} committed), the lowest above every id any client saw before the "
               f"event; each id above every id answered before it was asked for")
    report(not late, f"all {len(answered)} ids answered to the writers across every event: each above every "
           f"id answered before it was asked for ({len(late)} not)")

    committed = [i for k, t0, t1, i, p in ops if k == "c"]
    returned = [i for k, t0, t1, i, p in ops if k == "r"]
    unknown = sum(1 for o in ops if o[0] == "u")
    with psycopg.connect(dsn_final, autocommit=True) as conn:
        stored = [r[0] for r in conn.execute("SELECT id::bigint FROM ids")]
    every = committed + returned
    report(len(set(every)) == len(every) and not set(returned) & set(stored),
           f"no id twice: {len(committed)} committed and {len(returned)} returned and never stored, all distinct")
    sset = set(stored)
    lost = [i for i in committed if i not in sset]
    extra = len(sset) - len(set(committed) & sset)
    report(not lost and extra <= unknown,
           f"no committed row lost (synchronous_mode): all {len(committed)} committed rows on the last primary; "
           f"{extra} stored rows whose commit the client did not see (<= {unknown} sent when the connection broke)")
    wrong = [(i, p) for k, t0, t1, i, p in ops
             if k in "cr" and ((i & ((1 << 22) - 1)) >> (22 - NODE_BITS)) != nodes[p]]
    report(not wrong, f"each of the {len(answered)} ids carries the xid.node_id of the member that made it "
           f"(set per member through Patroni's postgresql.parameters): {len(wrong)} do not")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if sys.argv[1] == "writers":
        writers(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    else:
        check(*sys.argv[2:6])
