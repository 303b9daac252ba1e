package io.github.xidpg.xid;

import java.util.UUID;

/**
 * An xid as a UUIDv7 and back, as the extension's casts (1.2) make them: the
 * id's instant as unix milliseconds in the first 48 bits, version 7, the top
 * 12 of the 22 low bits (rand_a), variant 10, the bottom 10 bits, then 52
 * zero bits. The uuid sorts as the id does ({@link UUID#compareTo} too: the
 * time's top bit and the variant's are fixed) and converts back exactly.
 */
public final class XidUuid {
    private XidUuid() {}

    /** The id as a version 7 uuid with its time ({@code id::uuid}). */
    public static UUID toUuid(Xid id) {
        long unixMs = id.ms() + Xid.EPOCH_MS;
        long low = id.random();
        long msb = unixMs << 16 | 0x7L << 12 | low >>> 10;
        long lsb = 0b10L << 62 | (low & 0x3ff) << 52;
        return new UUID(msb, lsb);
    }

    /**
     * The id a uuid made by {@link #toUuid} stands for ({@code uuid::xid}); any
     * other uuid is an {@link XidException} with the server's SQLSTATE 22023.
     */
    public static Xid fromUuid(UUID u) {
        long msb = u.getMostSignificantBits();
        long lsb = u.getLeastSignificantBits();
        if ((msb >>> 12 & 0xf) != 7 || lsb >>> 62 != 0b10 || (lsb & ((1L << 52) - 1)) != 0) {
            throw new XidException("uuid \"" + u + "\" is not an xid", "22023",
                    "An xid as a uuid is a version 7 uuid whose last 52 bits are zero.");
        }
        return Xid.ofXidEpochMillis((msb >>> 16) - Xid.EPOCH_MS, (int) ((msb & 0xfff) << 10 | lsb >>> 52 & 0x3ff));
    }
}
