package io.github.xidpg.xid.hibernate;

import io.github.xidpg.xid.jdbc.XidJdbc;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import org.hibernate.type.descriptor.ValueBinder;
import org.hibernate.type.descriptor.ValueExtractor;
import org.hibernate.type.descriptor.WrapperOptions;
import org.hibernate.type.descriptor.java.JavaType;
import org.hibernate.type.descriptor.jdbc.BasicBinder;
import org.hibernate.type.descriptor.jdbc.BasicExtractor;
import org.hibernate.type.descriptor.jdbc.JdbcLiteralFormatter;
import org.hibernate.type.descriptor.jdbc.JdbcType;

/**
 * Hibernate 6: the column type {@code public.xid}.  A value goes as its text,
 * untyped (JDBC {@code OTHER}, as {@link XidJdbc#set} sends it), so the server
 * reads it as the column's type whatever the extension's schema; it comes
 * back through {@link XidJdbc#get} (text or binary transfer).  It is
 * registered under {@link #SQL_TYPE_CODE}; its columns have the type code
 * {@link Types#OTHER} (as PgJDBC reports them, for schema validation), whose
 * DDL name, {@code public.xid}, {@link XidTypeContributor} registers for
 * xid's columns ({@link XidDdlType}): schema generation writes {@code public.xid} (never
 * the bare {@code xid}, core's transaction id) and, for an array,
 * {@code public.xid array}, and Hibernate binds arrays with
 * {@code createArrayOf("public.xid", texts)} (another schema's with the
 * setting {@link XidTypeContributor#SCHEMA}).
 */
public final class XidJdbcType implements JdbcType {
    private static final long serialVersionUID = 1L;

    /**
     * The type code of public.xid in Hibernate's registries: one of no
     * java.sql.Types constant nor of Hibernate's SqlTypes.
     */
    public static final int SQL_TYPE_CODE = 31_011;

    /** The one instance. */
    public static final XidJdbcType INSTANCE = new XidJdbcType();

    private XidJdbcType() {
    }

    @Override
    public int getJdbcTypeCode() {
        return Types.OTHER;
    }

    @Override
    public int getDefaultSqlTypeCode() {
        return SQL_TYPE_CODE;
    }

    /**
     * {@link Types#OTHER}, the code PgJDBC reports for an xid column, so that
     * schema validation ({@code hibernate.hbm2ddl.auto=validate}) matches an
     * xid attribute with a {@code public.xid} column made by SQL: its DDL
     * name, {@code public.xid}, is {@link XidDdlType}'s under that code.
     */
    @Override
    public int getDdlTypeCode() {
        return Types.OTHER;
    }

    @Override
    public String getFriendlyName() {
        return "xid";
    }

    @Override
    public String toString() {
        return "XidJdbcType";
    }

    @Override
    public Class<?> getPreferredJavaTypeClass(WrapperOptions options) {
        return String.class;
    }

    /** An untyped quoted literal, which the server reads as the type of what it is compared with. */
    @Override
    public <T> JdbcLiteralFormatter<T> getJdbcLiteralFormatter(JavaType<T> javaType) {
        return (appender, value, dialect, options) -> {
            appender.appendSql('\'');
            appender.appendSql(javaType.unwrap(value, String.class, options));
            appender.appendSql('\'');
        };
    }

    @Override
    public <X> ValueBinder<X> getBinder(JavaType<X> javaType) {
        return new BasicBinder<>(javaType, this) {
            @Override
            protected void doBind(PreparedStatement st, X value, int index, WrapperOptions options)
                    throws SQLException {
                st.setObject(index, javaType.unwrap(value, String.class, options), Types.OTHER);
            }

            @Override
            protected void doBind(CallableStatement st, X value, String name, WrapperOptions options)
                    throws SQLException {
                st.setObject(name, javaType.unwrap(value, String.class, options), Types.OTHER);
            }
        };
    }

    @Override
    public <X> ValueExtractor<X> getExtractor(JavaType<X> javaType) {
        return new BasicExtractor<>(javaType, this) {
            @Override
            protected X doExtract(ResultSet rs, int index, WrapperOptions options) throws SQLException {
                return javaType.wrap(XidJdbc.get(rs, index), options);
            }

            @Override
            protected X doExtract(CallableStatement st, int index, WrapperOptions options) throws SQLException {
                return javaType.wrap(st.getString(index), options);
            }

            @Override
            protected X doExtract(CallableStatement st, String name, WrapperOptions options) throws SQLException {
                return javaType.wrap(st.getString(name), options);
            }
        };
    }
}
