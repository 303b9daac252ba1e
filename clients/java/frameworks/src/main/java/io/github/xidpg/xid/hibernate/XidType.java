package io.github.xidpg.xid.hibernate;

import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.jdbc.XidJdbc;
import java.io.Serializable;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.usertype.EnhancedUserType;

/**
 * Hibernate 6: an {@link Xid} attribute, {@code @Id} included, in a
 * {@code public.xid} column (of any schema: the value goes untyped, as
 * {@link XidJdbc#set} sends it, and comes back through {@link XidJdbc#get}).
 *
 * <p>Not needed by default: {@link XidTypeContributor} maps every {@code Xid}
 * attribute with {@link XidJavaType} and {@link XidJdbcType}, which also
 * make {@code Xid[]} attributes and write {@code public.xid} in schema
 * generation.  {@code @Type(XidType.class)} still maps one attribute with this
 * {@code UserType}; write its column as {@code columnDefinition = "public.xid"}
 * for schema generation (the bare name {@code xid} is core's transaction id).
 */
public final class XidType implements EnhancedUserType<Xid> {
    @Override
    public int getSqlType() {
        return Types.OTHER;
    }

    @Override
    public Class<Xid> returnedClass() {
        return Xid.class;
    }

    @Override
    public boolean equals(Xid x, Xid y) {
        return Objects.equals(x, y);
    }

    @Override
    public int hashCode(Xid x) {
        return Objects.hashCode(x);
    }

    @Override
    public Xid nullSafeGet(ResultSet rs, int position, SharedSessionContractImplementor session, Object owner)
            throws SQLException {
        return XidJdbc.get(rs, position);
    }

    @Override
    public void nullSafeSet(PreparedStatement st, Xid value, int index, SharedSessionContractImplementor session)
            throws SQLException {
        XidJdbc.set(st, index, value);
    }

    @Override
    public Xid deepCopy(Xid value) {
        return value; // immutable
    }

    @Override
    public boolean isMutable() {
        return false;
    }

    @Override
    public Serializable disassemble(Xid value) {
        return value;
    }

    @Override
    public Xid assemble(Serializable cached, Object owner) {
        return (Xid) cached;
    }

    /** An id in SQL text: a quoted literal that the column's type reads (an untyped literal, like a parameter). */
    @Override
    public String toSqlLiteral(Xid value) {
        return "'" + value + "'";
    }

    @Override
    public String toString(Xid value) {
        return value.toString();
    }

    @Override
    public Xid fromStringValue(CharSequence sequence) {
        return Xid.parse(sequence);
    }
}
