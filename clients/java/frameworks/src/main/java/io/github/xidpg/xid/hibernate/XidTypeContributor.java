package io.github.xidpg.xid.hibernate;

import org.hibernate.boot.model.TypeContributions;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.service.ServiceRegistry;

/** Maps every {@code Xid} attribute with {@link XidType}; Hibernate finds it through {@code META-INF/services}. */
public final class XidTypeContributor implements TypeContributor {
    @Override
    public void contribute(TypeContributions typeContributions, ServiceRegistry serviceRegistry) {
        typeContributions.contributeType(new XidType());
    }
}
