package io.github.xidpg.xid;

import java.util.Objects;

/** Closed bounds of ids, both ends included: {@code id >= lower AND id <= upper}. */
public record XidRange(Xid lower, Xid upper) {
    public XidRange {
        Objects.requireNonNull(lower);
        Objects.requireNonNull(upper);
    }

    /** Does the range hold the id? */
    public boolean contains(Xid id) {
        return id.compareTo(lower) >= 0 && id.compareTo(upper) <= 0;
    }
}
