package example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.jooq.XidBinding;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.List;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.ColumnDefault;
import org.hibernate.annotations.Generated;
import org.hibernate.cfg.Configuration;
import org.jooq.CloseableDSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * xid-frameworks from the local repository: Hibernate finds XidTypeContributor
 * in the installed jar; schema generation, an Xid[] attribute, a key the
 * server makes, and jOOQ's id = ANY of an array, against the server.
 */
class FrameworksAppTest {
    @Entity(name = "Shipment")
    @Table(name = "app_shipments")
    public static class Shipment {
        @Id
        @Generated
        @ColumnDefault("xid_new()")
        public Xid id;
        public Xid[] orders;
    }

    @Test
    void hibernateAndJooq() {
        String url = "jdbc:postgresql://" + System.getenv("PGHOST") + ":" + System.getenv("PGPORT") + "/"
                + System.getenv("PGDATABASE") + "?user=" + System.getenv("PGUSER");
        Xid a = Xid.newXid();
        Xid b = Xid.newXid();
        Shipment sh = new Shipment();
        sh.orders = new Xid[] {a, b};
        try (SessionFactory sf = new Configuration().addAnnotatedClass(Shipment.class)
                .setProperty("hibernate.connection.url", url)
                .setProperty("hibernate.hbm2ddl.auto", "create")
                .setProperty("hibernate.hbm2ddl.halt_on_error", "true").buildSessionFactory()) {
            sf.inTransaction(s -> s.persist(sh));
            assertNotNull(sh.id);
            Shipment back = sf.fromSession(s -> s.createNativeQuery("select * from app_shipments where id = any(:ids)",
                    Shipment.class).setParameter("ids", new Xid[] {sh.id, a}).getSingleResult());
            assertArrayEquals(new Xid[] {a, b}, back.orders);
        }
        Field<Xid> id = DSL.field(DSL.name("id"), XidBinding.XID);
        Field<Xid[]> orders = DSL.field(DSL.name("orders"), XidBinding.XID_ARRAY);
        try (CloseableDSLContext db = DSL.using(url)) {
            assertEquals(List.of(sh.id), db.select(id).from("app_shipments").where(id.eq(XidBinding.any(sh.id, a))).fetch(id));
            assertArrayEquals(new Xid[] {a, b}, db.select(orders).from("app_shipments").fetchOne(orders));
        }
        System.out.println("app: xid-frameworks: Hibernate made app_shipments, its key " + sh.id
                + " by the server, an Xid[] column; jOOQ id = any(xid[])");
    }
}
