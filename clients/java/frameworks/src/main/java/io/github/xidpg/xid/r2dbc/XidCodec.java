package io.github.xidpg.xid.r2dbc;

import io.github.xidpg.xid.Xid;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.r2dbc.postgresql.client.EncodedParameter;
import io.r2dbc.postgresql.codec.Codec;
import io.r2dbc.postgresql.codec.CodecMetadata;
import io.r2dbc.postgresql.codec.PostgresTypeIdentifier;
import io.r2dbc.postgresql.message.Format;
import java.nio.charset.StandardCharsets;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * r2dbc-postgresql: {@link Xid} values of the xid type with one OID (found by
 * {@link XidCodecRegistrar}, never by the name "xid"), sent in binary (8
 * bytes, big-endian), read in text or binary.
 */
public final class XidCodec implements Codec<Xid>, CodecMetadata {
    private final int oid;
    private final ByteBufAllocator allocator;

    /** The codec of the type with this OID ({@code to_regtype('public.xid')::oid}). */
    public XidCodec(int oid, ByteBufAllocator allocator) {
        this.oid = oid;
        this.allocator = allocator;
    }

    @Override
    public boolean canDecode(int dataType, Format format, Class<?> type) {
        return dataType == oid && type.isAssignableFrom(Xid.class);
    }

    @Override
    public boolean canEncode(Object value) {
        return value instanceof Xid;
    }

    @Override
    public boolean canEncodeNull(Class<?> type) {
        return type == Xid.class;
    }

    @Override
    public Xid decode(ByteBuf buffer, int dataType, Format format, Class<? extends Xid> type) {
        if (buffer == null) {
            return null;
        }
        if (format == Format.FORMAT_BINARY) {
            byte[] b = new byte[buffer.readableBytes()];
            buffer.readBytes(b);
            return Xid.fromBytes(b);
        }
        return Xid.parse(buffer.toString(StandardCharsets.US_ASCII));
    }

    @Override
    public EncodedParameter encode(Object value) {
        long payload = ((Xid) value).payload();
        return new EncodedParameter(Format.FORMAT_BINARY, oid, Mono.fromSupplier(() -> allocator.buffer(8).writeLong(payload)));
    }

    @Override
    public EncodedParameter encode(Object value, int dataType) {
        return encode(value);
    }

    @Override
    public EncodedParameter encodeNull() {
        return new EncodedParameter(Format.FORMAT_BINARY, oid, EncodedParameter.NULL_VALUE);
    }

    @Override
    public Class<?> type() {
        return Xid.class;
    }

    @Override
    public Iterable<PostgresTypeIdentifier> getDataTypes() {
        PostgresTypeIdentifier id = () -> oid;
        return List.of(id);
    }
}
