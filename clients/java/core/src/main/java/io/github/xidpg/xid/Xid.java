package io.github.xidpg.xid;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * An xid (uid11/xid profile): an unsigned 64-bit payload, 42 bits of
 * milliseconds since 2011-11-11T11:11:11.111Z then 22 bits the generator
 * fills, written as exactly 11 Base58 symbols, most significant first, padded
 * with '1'.  The alphabet is in ASCII order, so text order is payload order.
 *
 * <p>Immutable; equal, hashed and ordered by payload (unsigned); prints as its
 * text.  Every method gives the same answer as the PostgreSQL extension's SQL
 * function of the same meaning (xid_in, xid_out, xid_prefix_lower_bound,
 * xid_time_lower_bound, xid_like_lower_bound, xid_node), which the tests check
 * against a server.
 */
public final class Xid implements Comparable<Xid>, Serializable {
    private static final long serialVersionUID = 1L;

    /** Bitcoin's Base58 alphabet, in ASCII order. */
    public static final String ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    /** 2011-11-11T11:11:11.111Z in milliseconds since 1970. */
    public static final long EPOCH_MS = 1321009871111L;
    /** The epoch as an Instant. */
    public static final Instant EPOCH = Instant.ofEpochMilli(EPOCH_MS);
    /** The largest millisecond field, 2^42-1 (2151-03-25T18:46:22.214Z). */
    public static final long MAX_MS = (1L << 42) - 1;
    /** The width of the field below the time. */
    public static final int RANDOM_BITS = 22;
    /** The largest number of node bits (xid.node_bits). */
    public static final int MAX_NODE_BITS = 12;
    /** The smallest id, 11111111111. */
    public static final Xid MIN = new Xid(0);
    /** The largest id, jpXCZedGfVQ (payload 2^64-1). */
    public static final Xid MAX = new Xid(-1L);

    static final long RANDOM_MASK = (1L << RANDOM_BITS) - 1;
    private static final long B58_5 = 656356768L; // 58^5
    private static final long B29_5 = 20511149L; // 29^5 = 58^5 / 2^5
    private static final byte[] ALPHA = ALPHABET.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DECODE = new byte[256];
    private static final byte[] PAIRS = new byte[58 * 58 * 2];
    private static final long[] POW58 = new long[11];
    private static final char[] ALPHA_CHARS = ALPHABET.toCharArray();
    private static final char[] PAIR_CHARS = new char[58 * 58 * 2];

    static {
        java.util.Arrays.fill(DECODE, (byte) -1);
        for (int i = 0; i < 58; i++) {
            DECODE[ALPHA[i]] = (byte) i;
        }
        for (int i = 0; i < 58 * 58; i++) {
            PAIRS[2 * i] = ALPHA[i / 58];
            PAIRS[2 * i + 1] = ALPHA[i % 58];
        }
        for (int i = 0; i < PAIRS.length; i++) {
            PAIR_CHARS[i] = (char) PAIRS[i];
        }
        POW58[0] = 1;
        for (int i = 1; i < 11; i++) {
            POW58[i] = POW58[i - 1] * 58;
        }
    }

    private final long payload;

    private Xid(long payload) {
        this.payload = payload;
    }

    /**
     * The id of a 64-bit payload (as the bigint and bytea casts give it); a
     * negative long is a payload at or above 2^63 (unsigned).  For an id of a
     * time, see {@link #ofUnixMillis} and {@link #ofInstant}.
     */
    public static Xid ofPayload(long payload) {
        return new Xid(payload);
    }

    /** The payload, unsigned: compare with {@link Long#compareUnsigned}, print with {@link Long#toUnsignedString}. */
    public long payload() {
        return payload;
    }

    // ---- text

    private static void encode5(int v, byte[] out, int at) {
        int high = v / 195112; // 58^3: the first two symbols
        int rest = v - high * 195112;
        int mid = rest / 58;
        out[at] = PAIRS[2 * high];
        out[at + 1] = PAIRS[2 * high + 1];
        out[at + 2] = PAIRS[2 * mid];
        out[at + 3] = PAIRS[2 * mid + 1];
        out[at + 4] = ALPHA[rest - mid * 58];
    }

    /** Write the 11 symbols into out at offset at. */
    public void encodeTo(byte[] out, int at) {
        // 58^5 = 2^5 * 29^5: shifting first leaves a positive dividend, and a
        // signed division by a constant compiles to a multiplication
        long high = (payload >>> 5) / B29_5;
        int low = (int) (payload - high * B58_5);
        int top = (int) (high / B58_5); // high < 2^35; top < 43
        out[at] = ALPHA[top];
        encode5((int) (high - top * B58_5), out, at + 1);
        encode5(low, out, at + 6);
    }

    /** The 11-symbol text, as xid_out. */
    @Override
    public String toString() {
        long high = (payload >>> 5) / B29_5;
        int low = (int) (payload - high * B58_5);
        int top = (int) (high / B58_5);
        char[] c = new char[11];
        c[0] = ALPHA_CHARS[top];
        encode5(high - top * B58_5, c, 1);
        encode5(low, c, 6);
        return new String(c);
    }

    private static void encode5(long v5, char[] out, int at) {
        int v = (int) v5;
        int high = v / 195112;
        int rest = v - high * 195112;
        int mid = rest / 58;
        out[at] = PAIR_CHARS[2 * high];
        out[at + 1] = PAIR_CHARS[2 * high + 1];
        out[at + 2] = PAIR_CHARS[2 * mid];
        out[at + 3] = PAIR_CHARS[2 * mid + 1];
        out[at + 4] = ALPHA_CHARS[rest - mid * 58];
    }

    /**
     * Strictly parse exactly 11 Base58 symbols, at most jpXCZedGfVQ, as xid_in.
     *
     * @throws XidException with the server's message and SQLSTATE (22P02, 22003)
     */
    public static Xid parse(CharSequence text) {
        if (text.length() != 11) {
            throw parseError(text.toString());
        }
        long v = 0;
        int seen = 0;
        for (int i = 0; i < 10; i++) {
            char c = text.charAt(i);
            int d = c < 256 ? DECODE[c] : -1;
            seen |= d;
            v = v * 58 + d;
        }
        char c = text.charAt(10);
        int last = c < 256 ? DECODE[c] : -1;
        if ((seen | last) < 0) {
            throw parseError(text.toString());
        }
        // v < 58^10 < 2^59; v * 58 + last overflows 64 bits iff v > (2^64-1 - last) / 58
        if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - last, 58)) > 0) {
            throw new XidException("value \"" + text + "\" is out of range for type xid", "22003",
                    "The largest xid is \"jpXCZedGfVQ\".");
        }
        return new Xid(v * 58 + last);
    }

    /**
     * The same as {@link #parse}, under the name frameworks look for: Spring
     * binds a {@code @PathVariable Xid} or {@code @RequestParam Xid} with it,
     * and Jackson reads a JSON string with it.
     *
     * @throws XidException as {@link #parse}
     */
    public static Xid valueOf(String text) {
        return parse(text);
    }

    /** Would {@link #parse} accept the text? */
    public static boolean isValid(CharSequence text) {
        try {
            parse(text);
            return true;
        } catch (XidException e) {
            return false;
        }
    }

    private static XidException parseError(String s) {
        String msg = "invalid input syntax for type xid: \"" + s + "\"";
        for (int i = 0, pos = 1; i < s.length(); pos++) {
            int cp = s.codePointAt(i);
            if (cp >= 256 || DECODE[cp] < 0) {
                return new XidException(msg, "22P02", "Character \"" + new String(Character.toChars(cp))
                        + "\" at position " + pos + " is not a Base58 symbol.");
            }
            i += Character.charCount(cp);
        }
        return new XidException(msg, "22P02", "An xid is written as exactly 11 Base58 symbols.");
    }

    // ---- bytes

    /** The id of 8 bytes, big-endian (the binary wire format, the bytea cast). */
    public static Xid fromBytes(byte[] b) {
        if (b.length != 8) {
            throw new XidException("bytea of length " + b.length + " does not match type xid", "22026",
                    "An xid converts from exactly 8 bytes, most significant first.");
        }
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return new Xid(v);
    }

    /** The payload as 8 bytes, big-endian. */
    public byte[] toBytes() {
        byte[] b = new byte[8];
        long v = payload;
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    // ---- fields

    /** Milliseconds since the xid epoch (the top 42 bits). */
    public long ms() {
        return payload >>> RANDOM_BITS;
    }

    /** The time of the id, as xid_time. */
    public Instant time() {
        return Instant.ofEpochMilli(EPOCH_MS + ms());
    }

    /** The 22 bits below the time, as xid_random. */
    public int random() {
        return (int) (payload & RANDOM_MASK);
    }

    /**
     * The node number under a layout of bits (0 to 12) node bits, as xid_node.
     *
     * @throws XidException 22023 for bits outside 0..12
     */
    public int node(int bits) {
        if (bits < 0 || bits > MAX_NODE_BITS) {
            throw new XidException("node bits " + bits + " is out of range", "22023",
                    "An xid has from 0 to " + MAX_NODE_BITS + " node bits.");
        }
        return random() >>> (RANDOM_BITS - bits);
    }

    /**
     * The id of a Unix time in milliseconds (as {@link System#currentTimeMillis}
     * and {@link Instant#toEpochMilli} give it) and 22 low bits: the id whose
     * {@link #time} is that millisecond.
     *
     * @throws XidException 22008 for a time outside the xid range
     *         (2011-11-11T11:11:11.111Z to 2151-03-25T18:46:22.214Z)
     * @throws IllegalArgumentException for low outside 0 to 2^22-1
     */
    public static Xid ofUnixMillis(long ms, int low) {
        if (ms < EPOCH_MS) {
            checkMs(-1);
        }
        return ofXidEpochMillis(ms - EPOCH_MS, low);
    }

    /**
     * The id of an instant and 22 low bits: the id whose {@link #time} is the
     * millisecond holding t (a finer t is cut to its millisecond, as the
     * server's xid_new(timestamptz) does).
     *
     * @throws XidException 22008 for a time outside the xid range
     * @throws IllegalArgumentException for low outside 0 to 2^22-1
     */
    public static Xid ofInstant(Instant t, int low) {
        return ofXidEpochMillis(msOf(t)[0], low);
    }

    /**
     * The id of a millisecond counted from the xid epoch 2011-11-11T11:11:11.111Z
     * (not from 1970: see {@link #ofUnixMillis}) and 22 low bits, the inverse
     * of {@link #ms} and {@link #random}.
     *
     * @throws XidException 22008 for ms outside 0 to 2^42-1
     * @throws IllegalArgumentException for low outside 0 to 2^22-1
     */
    public static Xid ofXidEpochMillis(long ms, int low) {
        checkMs(ms);
        if (low < 0 || low > RANDOM_MASK) {
            throw new IllegalArgumentException("the low bits of an xid go from 0 to " + RANDOM_MASK + ", not " + low);
        }
        return new Xid(ms << RANDOM_BITS | low);
    }

    static void checkMs(long ms) {
        if (ms < 0 || ms > MAX_MS) {
            throw new XidException("timestamp out of range for type xid", "22008",
                    "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.");
        }
    }

    // ---- order

    @Override
    public int compareTo(Xid o) {
        return Long.compareUnsigned(payload, o.payload);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Xid x && x.payload == payload;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(payload);
    }

    // ---- bounds

    /**
     * Closed bounds of the ids whose text starts with the prefix, as
     * xid_prefix_lower_bound and xid_prefix_upper_bound: the empty text admits
     * every id; empty for a text no id starts with (more than 11 symbols, a
     * character outside Base58, above the largest id).
     */
    public static Optional<XidRange> prefixBounds(CharSequence prefix) {
        int n = prefix.length();
        if (n == 0) {
            return Optional.of(new XidRange(MIN, MAX));
        }
        if (n > 11) {
            return Optional.empty();
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            char c = prefix.charAt(i);
            int d = c < 256 ? DECODE[c] : -1;
            if (d < 0) {
                return Optional.empty();
            }
            if (i == 10) {
                if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - d, 58)) > 0) {
                    return Optional.empty();
                }
                Xid x = new Xid(v * 58 + d);
                return Optional.of(new XidRange(x, x));
            }
            v = v * 58 + d;
        }
        long scale = POW58[11 - n];
        if (Long.compareUnsigned(v, Long.divideUnsigned(-1L, scale)) > 0) {
            return Optional.empty(); // even the lowest id with this prefix is above 2^64-1
        }
        long lo = v * scale;
        long hi = lo + (scale - 1);
        if (Long.compareUnsigned(hi, lo) < 0) {
            hi = -1L;
        }
        return Optional.of(new XidRange(new Xid(lo), new Xid(hi)));
    }

    /**
     * Closed bounds of the ids that {@code id LIKE pattern} (default escape,
     * backslash) can match, as xid_like_lower_bound and xid_like_upper_bound:
     * the range of the pattern's fixed prefix; empty when no id can match.
     *
     * @throws XidException 22025 for a pattern that ends in a lone escape
     *         character, which LIKE rejects ("LIKE pattern must not end with
     *         escape character"), whatever comes before it
     */
    public static Optional<XidRange> likeBounds(CharSequence pattern) {
        int len = pattern.length();
        // an odd run of backslashes at the end leaves the last one unescaped
        int run = 0;
        while (run < len && pattern.charAt(len - 1 - run) == '\\') {
            run++;
        }
        if (run % 2 == 1) {
            throw new XidException("LIKE pattern must not end with escape character", "22025", null);
        }
        StringBuilder prefix = new StringBuilder(11);
        int i = 0;
        int underscores = 0;
        int rest = 0;
        boolean percent = false;
        while (i < len && pattern.charAt(i) != '%' && pattern.charAt(i) != '_') {
            if (pattern.charAt(i) == '\\') {
                i++; // the escaped character (there is one: see above)
            }
            if (prefix.length() == 11) {
                return Optional.empty();
            }
            prefix.append(pattern.charAt(i++));
        }
        for (; i < len; i++) {
            char c = pattern.charAt(i);
            if (c == '%') {
                percent = true;
            } else if (c == '_') {
                underscores++;
            } else {
                if (c == '\\') {
                    i++;
                }
                rest++;
            }
        }
        int n = prefix.length();
        if (rest == 0 && (percent ? n + underscores > 11 : n + underscores != 11)) {
            return Optional.empty();
        }
        return prefixBounds(prefix);
    }

    // floor and ceiling of t in milliseconds since the xid epoch, clamped far
    // outside the 42-bit range (where only the side matters)
    private static long[] msOf(Instant t) {
        long sec = t.getEpochSecond();
        long far = (1L << 50) / 1000;
        if (sec > EPOCH_MS / 1000 + far) {
            return new long[] {1L << 50, 1L << 50};
        }
        if (sec < EPOCH_MS / 1000 - far) {
            return new long[] {-(1L << 50), -(1L << 50)};
        }
        int nanos = t.getNano();
        long floor = sec * 1000 + nanos / 1_000_000 - EPOCH_MS;
        return new long[] {floor, nanos % 1_000_000 == 0 ? floor : floor + 1};
    }

    /**
     * The first id whose time is at or after t (inclusive) or after t, as
     * xid_time_lower_bound(t, inclusive): {@code id >= timeLowerBound(t, true)}
     * is exactly {@code xid_time(id) >= t}.  Empty when no id is that late.
     * Exact to the nanosecond of t (the server sees t at microseconds).
     */
    public static Optional<Xid> timeLowerBound(Instant t, boolean inclusive) {
        long[] m = msOf(t);
        long ms = inclusive ? m[1] : m[0] + 1;
        if (ms > MAX_MS) {
            return Optional.empty();
        }
        return Optional.of(new Xid(Math.max(ms, 0) << RANDOM_BITS));
    }

    /**
     * The last id whose time is at or before t (inclusive) or before t, as
     * xid_time_upper_bound(t, inclusive).  Empty when no id is that early.
     */
    public static Optional<Xid> timeUpperBound(Instant t, boolean inclusive) {
        long[] m = msOf(t);
        long ms = inclusive ? m[0] : m[1] - 1;
        if (ms < 0) {
            return Optional.empty();
        }
        return Optional.of(new Xid(Math.min(ms, MAX_MS) << RANDOM_BITS | RANDOM_MASK));
    }

    // ---- generation

    /** A new id from the process's generator, as xid_new(). */
    public static Xid newXid() {
        return XidGenerator.DEFAULT.next();
    }

    /** An id for a given time with random low bits, as xid_new(timestamptz), for backfills; not ordered. */
    public static Xid at(Instant t) {
        long ms = msOf(t)[0];
        checkMs(ms);
        return new Xid(ms << RANDOM_BITS | (java.util.concurrent.ThreadLocalRandom.current().nextLong() & RANDOM_MASK));
    }
}
