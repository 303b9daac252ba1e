package io.github.xidpg.xid.spring;

import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.jackson.XidModule;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.r2dbc.R2dbcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.jdbc.core.convert.JdbcCustomConversions;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.relational.core.mapping.Table;
import org.springframework.data.repository.CrudRepository;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring Boot 3 application with xid ids: a JPA entity (Hibernate) and a
 * Spring Data JDBC aggregate, each with an Xid @Id, and a controller that
 * takes them as path variables and JSON.
 */
// r2dbc-postgresql is on the test class path for R2dbcTest: without the
// exclusion its ConnectionFactory would replace the JDBC DataSource
@SpringBootApplication(exclude = R2dbcAutoConfiguration.class)
@EnableJpaRepositories(considerNestedRepositories = true)
@EnableJdbcRepositories(considerNestedRepositories = true)
public class App {
    /** Jackson: Spring Boot registers every Module bean. */
    @Bean
    XidModule xidModule() {
        return new XidModule();
    }

    /** Spring Data JDBC: Xid properties. */
    @Bean
    JdbcCustomConversions jdbcCustomConversions() {
        return new JdbcCustomConversions(XidJdbcConverters.all());
    }

    /** JPA: XidTypeContributor maps the Xid @Id, no annotation needed. */
    @Entity(name = "Purchase")
    @jakarta.persistence.Table(name = "purchases")
    public static class Purchase {
        @Id
        @Column(columnDefinition = "public.xid")
        private Xid id;
        private String item;

        protected Purchase() {
        }

        public Purchase(Xid id, String item) {
            this.id = id;
            this.item = item;
        }

        public Xid getId() {
            return id;
        }

        public String getItem() {
            return item;
        }
    }

    public interface PurchaseRepository extends JpaRepository<Purchase, Xid> {
        /** By time, on the primary key's index: the first id of the time is a bound of the key. */
        @Query("select p from Purchase p where p.id >= :lo order by p.id")
        List<Purchase> since(Xid lo);

        /**
         * The same in SQL: public.xid >= timestamptz means xid_time(id) >= t, on
         * the index too.  The cast is needed: Hibernate binds an OffsetDateTime
         * untyped, and the server would read it as an xid.
         */
        @Query(value = "select * from purchases where id >= cast(:t as timestamptz) order by id", nativeQuery = true)
        List<Purchase> sinceTime(OffsetDateTime t);
    }

    /** Spring Data JDBC: the server makes the id (DEFAULT xid_new()). */
    @Table("notes")
    public record Note(@org.springframework.data.annotation.Id Xid id, String body) {
        public Note withId(Xid newId) {
            return new Note(newId, body);
        }
    }

    public interface NoteRepository extends CrudRepository<Note, Xid> {
    }

    @RestController
    static class Api {
        private final PurchaseRepository purchases;
        private final NoteRepository notes;

        Api(PurchaseRepository purchases, NoteRepository notes) {
            this.purchases = purchases;
            this.notes = notes;
        }

        @GetMapping("/purchases/{id}")
        ResponseEntity<Purchase> purchase(@PathVariable Xid id) {
            return ResponseEntity.of(purchases.findById(id));
        }

        @PostMapping("/purchases")
        Purchase buy(@RequestBody Purchase p) {
            return purchases.save(p);
        }

        @GetMapping("/purchases")
        List<Purchase> since(@RequestParam Instant since) {
            return purchases.since(Xid.timeLowerBound(since, true).orElse(Xid.MAX));
        }

        @GetMapping("/purchases-by-time")
        List<Purchase> sinceTime(@RequestParam Instant since) {
            return purchases.sinceTime(OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
        }

        @GetMapping("/items")
        Map<Xid, String> items(@RequestParam List<Xid> ids) {
            Map<Xid, String> m = new LinkedHashMap<>();
            purchases.findAllById(ids).forEach(p -> m.put(p.getId(), p.getItem()));
            return m;
        }

        @PostMapping("/notes")
        Note write(@RequestBody Note n) {
            return notes.save(n);
        }

        @GetMapping("/notes/{id}")
        ResponseEntity<Note> note(@PathVariable Xid id) {
            return ResponseEntity.of(notes.findById(id));
        }
    }
}
