package io.github.xidpg.xid;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.IntUnaryOperator;

/**
 * The codec against java.util.UUID, side by side in one run (no JMH in
 * Debian's archive here): each case runs over 4,096 prepared inputs; after a
 * warm-up the cases take turns, round after round, so that a change in the
 * machine's load touches them alike, and the best round of each counts.
 *
 * <pre>java -cp ... io.github.xidpg.xid.XidBench [rounds]</pre>
 */
public final class XidBench {
    static final int N = 4096;
    static final Xid[] IDS = new Xid[N];
    static final String[] TEXTS = new String[N];
    static final UUID[] UUIDS = new UUID[N];
    static final String[] UUID_TEXTS = new String[N];
    static int sink;

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        SplittableRandom rnd = new SplittableRandom();
        for (int i = 0; i < N; i++) {
            IDS[i] = Xid.ofPayload(rnd.nextLong());
            TEXTS[i] = IDS[i].toString();
            UUIDS[i] = UUID.randomUUID();
            UUID_TEXTS[i] = UUIDS[i].toString();
        }
        XidGenerator gen = new XidGenerator();
        Map<String, IntUnaryOperator> cases = new java.util.LinkedHashMap<>();
        cases.put("parse: Xid.parse", i -> Xid.parse(TEXTS[i]).random());
        cases.put("parse: UUID.fromString", i -> (int) UUID.fromString(UUID_TEXTS[i]).getLeastSignificantBits());
        cases.put("format: Xid.toString", i -> IDS[i].toString().length());
        cases.put("format: UUID.toString", i -> UUIDS[i].toString().length());
        cases.put("generate: XidGenerator.next", i -> gen.next().random());
        cases.put("generate: Xid.newXid().toString", i -> Xid.newXid().toString().length());
        cases.put("generate: UUID.randomUUID", i -> (int) UUID.randomUUID().getLeastSignificantBits());
        cases.put("generate: UUID.randomUUID().toString", i -> UUID.randomUUID().toString().length());

        Map<String, Integer> reps = new TreeMap<>();
        Map<String, Double> best = new TreeMap<>();
        for (var e : cases.entrySet()) {
            // warm up (JIT) and size a round to about 0.1 s
            int r = 1;
            while (true) {
                long t0 = System.nanoTime();
                run(e.getValue(), r);
                if (System.nanoTime() - t0 > 100_000_000L) {
                    break;
                }
                r *= 2;
            }
            reps.put(e.getKey(), r);
            best.put(e.getKey(), Double.MAX_VALUE);
        }
        for (int k = 0; k < rounds; k++) {
            for (var e : cases.entrySet()) {
                int r = reps.get(e.getKey());
                long t0 = System.nanoTime();
                run(e.getValue(), r);
                double ns = (double) (System.nanoTime() - t0) / ((long) r * N);
                best.merge(e.getKey(), ns, Math::min);
            }
        }
        System.out.println(System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", best of " + rounds + " rounds, cases interleaved");
        for (String k : cases.keySet()) {
            System.out.printf("%-40s %8.1f ns/op%n", k, best.get(k));
        }
        System.out.printf("ratio parse    Xid.parse / UUID.fromString               %.2f%n",
                best.get("parse: Xid.parse") / best.get("parse: UUID.fromString"));
        System.out.printf("ratio format   Xid.toString / UUID.toString              %.2f%n",
                best.get("format: Xid.toString") / best.get("format: UUID.toString"));
        System.out.printf("ratio generate XidGenerator.next / UUID.randomUUID       %.2f%n",
                best.get("generate: XidGenerator.next") / best.get("generate: UUID.randomUUID"));
        System.out.printf("ratio generate, as text: Xid / UUID                      %.2f%n",
                best.get("generate: Xid.newXid().toString") / best.get("generate: UUID.randomUUID().toString"));
        if (sink == 42) {
            System.out.println();
        }
    }

    static void run(IntUnaryOperator f, int reps) {
        int s = 0;
        for (int r = 0; r < reps; r++) {
            for (int i = 0; i < N; i++) {
                s ^= f.applyAsInt(i);
            }
        }
        sink ^= s;
    }
}
