package io.github.xidpg.xid.r2dbc;

import io.netty.buffer.ByteBufAllocator;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.extension.CodecRegistrar;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Registers {@link XidCodec} on each new connection, for the xid type of a
 * schema, found by {@code to_regtype} (the bare name "xid" is core's
 * transaction id):
 * {@code PostgresqlConnectionConfiguration.builder().codecRegistrar(XidCodecRegistrar.of("public"))}.
 * A schema without the type fails the connection with SQLSTATE 42704.
 */
public final class XidCodecRegistrar implements CodecRegistrar {
    private final String schema;

    private XidCodecRegistrar(String schema) {
        this.schema = schema;
    }

    /** For the extension installed in this schema (as written in CREATE EXTENSION xid SCHEMA). */
    public static XidCodecRegistrar of(String schema) {
        return new XidCodecRegistrar(schema);
    }

    @Override
    public Publisher<Void> register(PostgresqlConnection connection, ByteBufAllocator allocator, CodecRegistry registry) {
        return connection.createStatement("SELECT to_regtype(quote_ident($1) || '.xid')::oid::int8")
                .bind("$1", schema)
                .execute()
                .flatMap(r -> r.map((row, meta) -> {
                    Long oid = row.get(0, Long.class);
                    return oid == null ? -1L : oid;
                }))
                .next()
                .flatMap(oid -> {
                    if (oid < 0) {
                        return Mono.error(new io.r2dbc.spi.R2dbcNonTransientResourceException(
                                "type " + schema + ".xid does not exist", "42704"));
                    }
                    registry.addFirst(new XidCodec(oid.intValue(), allocator));
                    return Mono.empty();
                })
                .then();
    }
}
