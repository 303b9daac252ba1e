package io.github.xidpg.xid;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * An xid as a ULID, and the id of a ULID or of a ulid-flake id, as the
 * extension's functions (1.2) make them. A ULID is 128 bits: unix
 * milliseconds in the first 48, then randomness; the id's 22 low bits lead the
 * randomness and the rest is zero, written as 26 symbols of Crockford's
 * Base32, so the ULID sorts as the id does. From a ULID the id keeps its time
 * and the 22 bits after it, so only a ULID made by {@link #toUlid} comes back
 * exactly. A ulid-flake id (a zero sign bit, 43 bits of milliseconds since
 * 2024-01-01T00:00:00Z, 20 bits) converts whole: its 20 bits become the top
 * 20 of the id's 22, so distinct flakes give distinct ids in the same order.
 */
public final class XidUlid {
    private XidUlid() {}

    private static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    /** ulid-flake's epoch, 2024-01-01T00:00:00Z, in unix milliseconds. */
    private static final long FLAKE_EPOCH_MS = 1704067200000L;
    private static final int FLAKE_LOW_BITS = 20;
    private static final String SYMBOLS = "A ulid is 26 symbols of Crockford's Base32.";
    /** The value of each char below 128, either case, or -1. */
    private static final byte[] VALUE = new byte[128];

    static {
        Arrays.fill(VALUE, (byte) -1);
        for (int i = 0; i < 32; i++) {
            VALUE[CROCKFORD.charAt(i)] = (byte) i;
            VALUE[Character.toLowerCase(CROCKFORD.charAt(i))] = (byte) i;
        }
    }

    /** The id as a ULID's 26 symbols, uppercase, with its time ({@code xid_to_ulid(id)}). */
    public static String toUlid(Xid id) {
        // the 128 bits, hi first: the time's 48, the 22 low bits, zeros
        long hi = (id.ms() + Xid.EPOCH_MS) << 16 | id.random() >>> 6;
        long lo = (long) id.random() << 58;
        char[] s = new char[26];
        // 26 symbols of 5 bits are 130 bits, the first holding 3: symbol i
        // covers bits 5i-2 to 5i+2
        for (int i = 0; i < 26; i++) {
            int v = 0;
            for (int k = 0; k < 5; k++) {
                int bit = 5 * i + k - 2;
                v <<= 1;
                if (bit >= 0) {
                    v |= (int) ((bit < 64 ? hi >>> (63 - bit) : lo >>> (127 - bit)) & 1);
                }
            }
            s[i] = CROCKFORD.charAt(v);
        }
        return new String(s);
    }

    /**
     * The id of a ULID's 26 symbols, either case ({@code xid_from_ulid(text)}):
     * its time and the first 22 bits of its randomness.
     *
     * @throws XidException 22P02 for text that is no ULID, 22008 for a time an
     *         xid cannot hold
     */
    public static Xid fromUlid(String text) {
        // the server counts bytes, and reads the symbols in order: a first
        // symbol above 7 is named as such even when a later one is no symbol
        if (text.getBytes(StandardCharsets.UTF_8).length != 26) {
            throw invalid(text, SYMBOLS);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 26; i++) {
            char c = text.charAt(i);
            int v = c < 128 ? VALUE[c] : -1;
            if (v < 0) {
                throw invalid(text, SYMBOLS);
            }
            if (i == 0 && v > 7) {
                throw invalid(text, "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.");
            }
            hi = hi << 5 | lo >>> 59;
            lo = lo << 5 | v;
        }
        return of(hi, lo);
    }

    /**
     * The id of a ULID's 16 bytes stored as a uuid, as pgx_ulid casts it
     * ({@code xid_from_ulid(uuid)}): its time and the first 22 bits of its
     * randomness. No version or variant: a ULID has none.
     *
     * @throws XidException 22008 for a time an xid cannot hold
     */
    public static Xid fromUlid(UUID u) {
        return of(u.getMostSignificantBits(), u.getLeastSignificantBits());
    }

    /**
     * The id of a ulid-flake id ({@code xid_from_ulid_flake}): its time, and its
     * 20 bits as the top 20 of the id's 22.
     *
     * @throws XidException 22003 for a negative id, 22008 for a time an xid
     *         cannot hold
     */
    public static Xid fromUlidFlake(long flake) {
        if (flake < 0) {
            throw new XidException("ulid-flake id " + flake + " is out of range", "22003",
                    "A ulid-flake id has a zero sign bit.");
        }
        int low = (int) (flake & ((1L << FLAKE_LOW_BITS) - 1)) << (Xid.RANDOM_BITS - FLAKE_LOW_BITS);
        return Xid.ofUnixMillis((flake >>> FLAKE_LOW_BITS) + FLAKE_EPOCH_MS, low);
    }

    /** The id of a ULID's 128 bits, hi first: its time and the 22 bits after it. */
    private static Xid of(long hi, long lo) {
        return Xid.ofUnixMillis(hi >>> 16, (int) (hi & 0xffff) << 6 | (int) (lo >>> 58));
    }

    private static XidException invalid(String text, String detail) {
        return new XidException("invalid input syntax for a ulid: \"" + text + "\"", "22P02", detail);
    }
}
