package io.github.xidpg.xid.hibernate;

import io.github.xidpg.xid.Xid;
import org.hibernate.type.descriptor.WrapperOptions;
import org.hibernate.type.descriptor.java.AbstractClassJavaType;
import org.hibernate.type.descriptor.jdbc.JdbcType;
import org.hibernate.type.descriptor.jdbc.JdbcTypeIndicators;

/**
 * Hibernate 6: {@link Xid} as a Java type, mapped by default to
 * {@link XidJdbcType} (the column type {@code public.xid}).  Being a
 * {@code JavaType}, not only a {@code UserType}, it is also the element type
 * of Hibernate's own array mapping: an {@code Xid[]} or
 * {@code List<Xid>} attribute is a {@code public.xid[]} column.
 * {@link XidTypeContributor} registers it.
 */
public final class XidJavaType extends AbstractClassJavaType<Xid> {
    private static final long serialVersionUID = 1L;

    /** The one instance. */
    public static final XidJavaType INSTANCE = new XidJavaType();

    private XidJavaType() {
        super(Xid.class);
    }

    @Override
    public JdbcType getRecommendedJdbcType(JdbcTypeIndicators indicators) {
        return indicators.getTypeConfiguration().getJdbcTypeRegistry().getDescriptor(XidJdbcType.SQL_TYPE_CODE);
    }

    @Override
    public String toString(Xid value) {
        return value.toString();
    }

    @Override
    public Xid fromString(CharSequence text) {
        return text == null ? null : Xid.parse(text);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <X> X unwrap(Xid value, Class<X> type, WrapperOptions options) {
        if (value == null) {
            return null;
        }
        if (type == String.class || type == CharSequence.class) {
            return (X) value.toString();
        }
        if (type.isInstance(value)) {
            return (X) value;
        }
        throw unknownUnwrap(type);
    }

    /** From an Xid, its text, or any value whose toString() is the text (pgjdbc's PGobject in an array). */
    @Override
    public <X> Xid wrap(X value, WrapperOptions options) {
        if (value == null) {
            return null;
        }
        if (value instanceof Xid x) {
            return x;
        }
        if (value instanceof CharSequence s) {
            return Xid.parse(s);
        }
        return Xid.parse(value.toString());
    }
}
