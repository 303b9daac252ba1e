package io.github.xidpg.xid.hibernate;

import io.github.xidpg.xid.Xid;
import org.hibernate.boot.model.TypeContributions;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.config.spi.StandardConverters;
import org.hibernate.engine.jdbc.spi.JdbcServices;
import org.hibernate.service.ServiceRegistry;
import org.hibernate.type.internal.BasicTypeImpl;
import org.hibernate.type.spi.TypeConfiguration;

/**
 * Maps every {@code Xid} attribute, and every {@code Xid[]} or
 * {@code List<Xid>} one, to {@code public.xid} and {@code public.xid[]}:
 * {@link XidJavaType}, {@link XidJdbcType} and the DDL name
 * {@code public.xid} ({@link XidDdlType}, which also lets schema validation
 * match such a column made by SQL).  Hibernate finds it through {@code META-INF/services}.
 * For the extension in another schema, set {@value #SCHEMA} (e.g.
 * {@code spring.jpa.properties.io.github.xidpg.xid.schema=ids}): the DDL
 * name, and the element type of the arrays Hibernate binds, are then
 * {@code ids.xid}.
 */
public final class XidTypeContributor implements TypeContributor {
    /** The setting of the extension's schema (default public). */
    public static final String SCHEMA = "io.github.xidpg.xid.schema";

    @Override
    public void contribute(TypeContributions typeContributions, ServiceRegistry serviceRegistry) {
        TypeConfiguration types = typeContributions.getTypeConfiguration();
        String schema = serviceRegistry.requireService(ConfigurationService.class)
                .getSetting(SCHEMA, StandardConverters.STRING, "public");
        typeContributions.contributeJavaType(XidJavaType.INSTANCE);
        typeContributions.contributeJdbcType(XidJdbcType.INSTANCE);
        types.getDdlTypeRegistry().addDescriptor(new XidDdlType(quoteIdent(schema) + ".xid",
                serviceRegistry.requireService(JdbcServices.class).getDialect()));
        types.getBasicTypeRegistry().register(new BasicTypeImpl<>(XidJavaType.INSTANCE, XidJdbcType.INSTANCE),
                Xid.class.getName());
    }

    // a schema name in DDL and in pgjdbc's createArrayOf: quoted unless it
    // is lower case letters, digits and underscores
    static String quoteIdent(String name) {
        if (name.matches("[a-z_][a-z0-9_]*")) {
            return name;
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
