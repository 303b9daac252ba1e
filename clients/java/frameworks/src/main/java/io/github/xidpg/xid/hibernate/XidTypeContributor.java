package io.github.xidpg.xid.hibernate;

import io.github.xidpg.xid.Xid;
import org.hibernate.boot.model.TypeContributions;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.engine.jdbc.spi.JdbcServices;
import org.hibernate.service.ServiceRegistry;
import org.hibernate.type.descriptor.sql.internal.DdlTypeImpl;
import org.hibernate.type.internal.BasicTypeImpl;
import org.hibernate.type.spi.TypeConfiguration;

/**
 * Maps every {@code Xid} attribute, and every {@code Xid[]} or
 * {@code List<Xid>} one, to {@code public.xid} and {@code public.xid[]}:
 * {@link XidJavaType}, {@link XidJdbcType} and the DDL name
 * {@code public.xid}.  Hibernate finds it through {@code META-INF/services}.
 */
public final class XidTypeContributor implements TypeContributor {
    @Override
    public void contribute(TypeContributions typeContributions, ServiceRegistry serviceRegistry) {
        TypeConfiguration types = typeContributions.getTypeConfiguration();
        typeContributions.contributeJavaType(XidJavaType.INSTANCE);
        typeContributions.contributeJdbcType(XidJdbcType.INSTANCE);
        types.getDdlTypeRegistry().addDescriptor(new DdlTypeImpl(XidJdbcType.SQL_TYPE_CODE, "public.xid",
                serviceRegistry.requireService(JdbcServices.class).getDialect()));
        types.getBasicTypeRegistry().register(new BasicTypeImpl<>(XidJavaType.INSTANCE, XidJdbcType.INSTANCE),
                Xid.class.getName());
    }
}
