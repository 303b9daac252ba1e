package io.github.xidpg.xid;

/**
 * Text, bytes, a time or a layout that is no xid: the server's message, its
 * SQLSTATE ({@link #getSQLState()}) and DETAIL.
 */
public final class XidException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String sqlState;
    private final String detail;

    XidException(String message, String sqlState, String detail) {
        super(message);
        this.sqlState = sqlState;
        this.detail = detail;
    }

    /** 22P02 (bad text), 22003 (above the largest id), 22023, 22008 (time), 22026 (bytes), 22025 (LIKE escape). */
    public String getSQLState() {
        return sqlState;
    }

    /** The server's DETAIL, or null. */
    public String getDetail() {
        return detail;
    }
}
