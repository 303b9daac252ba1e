package io.github.xidpg.xid;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Ids with the layout of the server's xid_new(): the millisecond, then 22
 * bits.  In a new millisecond the counter starts at a random value in the
 * lower half of its bits; within a millisecond it steps by 1 to 32 (32 &gt;&gt;
 * nodeBits, at least 1); when a millisecond is used up, or the clock went
 * back, it borrows the next one.  So its ids strictly increase, across threads
 * too: the last id is one 64-bit word updated with compare-and-swap, as the
 * server does, never a lock.  With nodeBits &gt; 0 the top nodeBits of the 22
 * bits hold the node number (xid.node_bits, xid.node_id), and generators with
 * different node numbers never make the same id.
 */
public final class XidGenerator {
    static final XidGenerator DEFAULT = new XidGenerator(0, 0);

    private final AtomicLong last = new AtomicLong();
    private final int counterBits;
    private final long counterMax;
    private final long nodeField;
    private final long stepMask;
    private final LongSupplier clock;

    /** A generator with no node number. */
    public XidGenerator() {
        this(0, 0);
    }

    /** A generator for node nodeId under a layout of nodeBits (0 to 12) node bits. */
    public XidGenerator(int nodeBits, int nodeId) {
        this(nodeBits, nodeId, System::currentTimeMillis);
    }

    /** As above, with a clock in milliseconds since 1970 (for tests). */
    public XidGenerator(int nodeBits, int nodeId, LongSupplier clock) {
        if (nodeBits < 0 || nodeBits > Xid.MAX_NODE_BITS) {
            throw new IllegalArgumentException("node bits " + nodeBits + " is out of range (0 to 12)");
        }
        if (nodeId < 0 || nodeId >= 1 << nodeBits) {
            throw new IllegalArgumentException("node id " + nodeId + " does not fit in " + nodeBits + " node bits");
        }
        this.counterBits = Xid.RANDOM_BITS - nodeBits;
        this.counterMax = (1L << counterBits) - 1;
        this.nodeField = (long) nodeId << counterBits;
        this.stepMask = (32 >> Math.min(nodeBits, 5)) - 1;
        this.clock = clock;
    }

    /** A new id, above every id this generator made before. */
    public Xid next() {
        long now = clock.getAsLong() - Xid.EPOCH_MS;
        Xid.checkMs(now);
        long rnd = ThreadLocalRandom.current().nextLong();
        long start = nodeField | (rnd & (counterMax >>> 1));
        long step = 1 + ((rnd >>> 32) & stepMask);
        long old = last.get();
        for (;;) {
            long oldMs = old >>> Xid.RANDOM_BITS;
            long next;
            if (oldMs < now) {
                next = now << Xid.RANDOM_BITS | start; // a new millisecond
            } else if ((old & counterMax) <= counterMax - step
                    && ((old & Xid.RANDOM_MASK) >>> counterBits) == (nodeField >>> counterBits)) {
                next = old + step;
            } else {
                // this millisecond is used up (or has another layout): borrow the next one
                Xid.checkMs(oldMs + 1);
                next = (oldMs + 1) << Xid.RANDOM_BITS | start;
            }
            long seen = last.compareAndExchange(old, next);
            if (seen == old) {
                return Xid.ofPayload(next);
            }
            old = seen;
        }
    }
}
