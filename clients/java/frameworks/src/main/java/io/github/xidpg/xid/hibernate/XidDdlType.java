package io.github.xidpg.xid.hibernate;

import java.sql.Types;
import org.hibernate.HibernateException;
import org.hibernate.dialect.Dialect;
import org.hibernate.engine.jdbc.Size;
import org.hibernate.metamodel.mapping.JdbcMapping;
import org.hibernate.type.Type;
import org.hibernate.type.descriptor.java.JavaType;
import org.hibernate.type.descriptor.jdbc.JdbcType;
import org.hibernate.type.descriptor.sql.internal.DdlTypeImpl;
import org.hibernate.type.descriptor.sql.spi.DdlTypeRegistry;

/**
 * Hibernate 6: the DDL and cast name of an xid column, {@code public.xid}
 * (another schema's with {@link XidTypeContributor#SCHEMA}), under the type
 * code {@link Types#OTHER}, the code {@link XidJdbcType} gives its columns
 * (its {@link XidJdbcType#getDdlTypeCode()}), and the code PgJDBC reports
 * for an xid column: so {@code hibernate.hbm2ddl.auto=validate} (Spring
 * Boot's {@code spring.jpa.hibernate.ddl-auto=validate}) matches an xid
 * attribute with a {@code public.xid} column made by SQL (a migration
 * tool's), which PgJDBC reports as {@code xid (Types#OTHER)}.
 *
 * <p>PostgreSQL's dialect has no DDL type of its own for {@code OTHER}: a
 * column of another type that maps to {@code OTHER} without a
 * {@code columnDefinition} fails here as it did before, with Hibernate's
 * message, instead of becoming an xid column.
 */
final class XidDdlType extends DdlTypeImpl {
    private static final long serialVersionUID = 1L;

    XidDdlType(String typeName, Dialect dialect) {
        super(Types.OTHER, typeName, dialect);
    }

    private static void check(JdbcType jdbcType) {
        if (jdbcType != null && !(jdbcType instanceof XidJdbcType)) {
            throw new HibernateException("No type mapping for org.hibernate.type.SqlTypes code: "
                    + Types.OTHER + " (OTHER) but for xid's, and " + jdbcType + " is no xid");
        }
    }

    @Override
    public String getTypeName(Size columnSize, Type type, DdlTypeRegistry ddlTypeRegistry) {
        if (type instanceof JdbcMapping m) {
            check(m.getJdbcType());
        }
        return super.getTypeName(columnSize, type, ddlTypeRegistry);
    }

    @Override
    @SuppressWarnings("removal")
    public String getCastTypeName(JdbcType jdbcType, JavaType<?> javaType) {
        check(jdbcType);
        return super.getCastTypeName(jdbcType, javaType);
    }

    @Override
    @SuppressWarnings("removal")
    public String getCastTypeName(JdbcType jdbcType, JavaType<?> javaType, Long length, Integer precision,
            Integer scale) {
        check(jdbcType);
        return super.getCastTypeName(jdbcType, javaType, length, precision, scale);
    }
}
