package io.github.xidpg.xid.jdbc;

import io.github.xidpg.xid.Xid;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.postgresql.PGResultSetMetaData;

/**
 * public.xid with JDBC (pgjdbc): what to call instead of the calls that fail.
 *
 * <ul>
 * <li>{@code setString} sends varchar, and the server has no public.xid =
 * varchar: {@link #set} sends the text untyped, so the server reads it as the
 * column's type.</li>
 * <li>pgjdbc names both core's xid (transaction ids, OID 28) and ours "xid",
 * so {@code addDataType("xid", ...)} and {@code getObject()} cannot tell them
 * apart: {@link #get} reads the value itself, in text or binary transfer (where
 * {@code getString()} returns null).</li>
 * <li>{@code setTimestamp} in {@code id >= ?} sends an untyped time that the
 * server reads as an xid (an error): {@link #setTime} binds it as timestamptz,
 * so {@code id >= ?} means {@code xid_time(id) >= t} and keeps the index.
 * {@code setObject(i, OffsetDateTime)} does the same.</li>
 * </ul>
 */
public final class XidJdbc {
    private XidJdbc() {
    }

    /** Bind an id (or NULL) to an xid parameter. */
    public static void set(PreparedStatement ps, int index, Xid id) throws SQLException {
        ps.setObject(index, id == null ? null : id.toString(), Types.OTHER);
    }

    /** Bind ids (elements may be null) as a public.xid[] parameter, e.g. for {@code id = ANY(?)}. */
    public static void setArray(PreparedStatement ps, int index, Xid... ids) throws SQLException {
        setArray(ps, index, "public", ids);
    }

    /** Bind ids as a SCHEMA.xid[] parameter, for the extension installed in another schema. */
    public static void setArray(PreparedStatement ps, int index, String schema, Xid... ids) throws SQLException {
        ps.setArray(index, createArray(ps.getConnection(), schema, ids));
    }

    /** A java.sql.Array of public.xid. */
    public static Array createArray(Connection conn, Xid... ids) throws SQLException {
        return createArray(conn, "public", ids);
    }

    /** A java.sql.Array of SCHEMA.xid (the schema as written in CREATE EXTENSION xid SCHEMA). */
    public static Array createArray(Connection conn, String schema, Xid... ids) throws SQLException {
        String[] texts = new String[ids.length];
        for (int i = 0; i < ids.length; i++) {
            texts[i] = ids[i] == null ? null : ids[i].toString();
        }
        return conn.createArrayOf(quoteIdent(schema) + ".xid", texts);
    }

    // a schema name as pgjdbc's type lookup reads a qualified name: quoted
    // unless it is lower case letters, digits and underscores
    static String quoteIdent(String name) {
        if (name.matches("[a-z_][a-z0-9_]*")) {
            return name;
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * Bind a time as timestamptz: {@code id >= ?} then means
     * {@code xid_time(id) >= t} exactly, and uses the index on id.
     */
    public static void setTime(PreparedStatement ps, int index, Instant t) throws SQLException {
        ps.setObject(index, t == null ? null : OffsetDateTime.ofInstant(t, ZoneOffset.UTC));
    }

    /**
     * The id in a column, or null for NULL; text or binary transfer.  A value
     * in text transfer is parsed strictly whatever its column's type (so the
     * text of any other type is an {@link io.github.xidpg.xid.XidException});
     * a value in binary transfer is taken only from a column pgjdbc calls
     * "xid" and only with 8 bytes (core's xid has 4).
     *
     * @throws io.github.xidpg.xid.XidException for a value that is no xid
     */
    public static Xid get(ResultSet rs, int column) throws SQLException {
        byte[] b = rs.getBytes(column);
        if (b == null) {
            return null;
        }
        if (isBinary(rs, column)) {
            String type = rs.getMetaData().getColumnTypeName(column);
            if (!"xid".equals(type)) {
                throw new SQLException("column " + column + " is of type " + type + ", not xid", "42804");
            }
            return Xid.fromBytes(b);
        }
        return Xid.parse(new String(b, StandardCharsets.ISO_8859_1));
    }

    /** The id in a column, or null for NULL; text or binary transfer (see {@link #get(ResultSet, int)}). */
    public static Xid get(ResultSet rs, String label) throws SQLException {
        return get(rs, rs.findColumn(label));
    }

    // pgjdbc's own metadata knows the transfer format of a column; another
    // driver's (or none) is taken as text, so binary bytes are then an error
    // of parse, never a wrong id
    private static boolean isBinary(ResultSet rs, int column) throws SQLException {
        java.sql.ResultSetMetaData md = rs.getMetaData();
        return md.isWrapperFor(PGResultSetMetaData.class) && md.unwrap(PGResultSetMetaData.class).getFormat(column) == 1;
    }

    /** The ids of a public.xid[] column (null elements for NULL), or null for NULL; text or binary transfer. */
    public static Xid[] getArray(ResultSet rs, int column) throws SQLException {
        byte[] b = rs.getBytes(column);
        if (b == null) {
            return null;
        }
        if (!isBinary(rs, column)) {
            return parseTextArray(new String(b, StandardCharsets.ISO_8859_1));
        }
        String type = rs.getMetaData().getColumnTypeName(column);
        if (!"_xid".equals(type)) {
            throw new SQLException("column " + column + " is of type " + type + ", not xid[]", "42804");
        }
        return parseBinaryArray(b);
    }

    /** The ids of a public.xid[] column by label. */
    public static Xid[] getArray(ResultSet rs, String label) throws SQLException {
        return getArray(rs, rs.findColumn(label));
    }

    static Xid[] parseTextArray(String s) {
        if (s.equals("{}")) {
            return new Xid[0];
        }
        if (!s.endsWith("}") || s.indexOf('{', 1) >= 0) {
            throw new IllegalArgumentException("not a one-dimensional array of xid: " + s);
        }
        String[] parts = s.substring(1, s.length() - 1).split(",", -1);
        Xid[] out = new Xid[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = parts[i].equals("NULL") ? null : Xid.parse(parts[i]);
        }
        return out;
    }

    // ndim, flags, element OID, per dimension its length and lower bound,
    // then per element its length (-1 for NULL) and bytes
    static Xid[] parseBinaryArray(byte[] b) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
        int ndim = buf.getInt();
        buf.getInt();
        buf.getInt();
        if (ndim == 0) {
            return new Xid[0];
        }
        if (ndim != 1) {
            throw new IllegalArgumentException("not a one-dimensional array of xid");
        }
        int n = buf.getInt();
        buf.getInt();
        Xid[] out = new Xid[n];
        for (int i = 0; i < n; i++) {
            int len = buf.getInt();
            if (len >= 0) {
                byte[] e = new byte[len];
                buf.get(e);
                out[i] = Xid.fromBytes(e);
            }
        }
        return out;
    }

    /**
     * The OID of SCHEMA.xid, by to_regtype (never the bare name "xid", which is
     * core's): for {@code binaryTransferEnable}, or to tell the two apart in
     * {@code ResultSetMetaData}, whose type name is "xid" for both.
     */
    public static int oid(Connection conn, String schema) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT to_regtype(quote_ident(?) || '.xid')::oid")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                int oid = rs.getInt(1);
                if (rs.wasNull()) {
                    throw new SQLException("type " + schema + ".xid does not exist (CREATE EXTENSION xid SCHEMA "
                            + schema + ")", "42704");
                }
                return oid;
            }
        }
    }
}
