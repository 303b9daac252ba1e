package io.github.xidpg.xid.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdScalarSerializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.XidException;
import java.io.IOException;

/**
 * Jackson 2: an {@link Xid} is a JSON string of its 11 symbols, as a value and
 * as a map key, both ways.  Reading is strict ({@link Xid#parse}): anything
 * else is an {@code InvalidFormatException} with the server's message.
 *
 * <p>{@code new ObjectMapper().registerModule(new XidModule())}; Spring Boot
 * registers every {@code Module} bean, so {@code @Bean XidModule xidModule()}
 * is all an application needs; {@code ObjectMapper.findAndRegisterModules()}
 * finds it through {@code META-INF/services}.
 */
public final class XidModule extends SimpleModule {
    private static final long serialVersionUID = 1L;

    public XidModule() {
        super("xid");
        addSerializer(Xid.class, new Serializer());
        addDeserializer(Xid.class, new Deserializer());
        addKeySerializer(Xid.class, new KeySerializer());
        addKeyDeserializer(Xid.class, new Keys());
    }

    static final class Serializer extends StdScalarSerializer<Xid> {
        private static final long serialVersionUID = 1L;

        Serializer() {
            super(Xid.class);
        }

        @Override
        public void serialize(Xid value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(value.toString());
        }
    }

    static final class KeySerializer extends StdSerializer<Xid> {
        private static final long serialVersionUID = 1L;

        KeySerializer() {
            super(Xid.class);
        }

        @Override
        public void serialize(Xid value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeFieldName(value.toString());
        }
    }

    static final class Deserializer extends StdScalarDeserializer<Xid> {
        private static final long serialVersionUID = 1L;

        Deserializer() {
            super(Xid.class);
        }

        @Override
        public Xid deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return (Xid) ctxt.handleUnexpectedToken(Xid.class, p);
            }
            String text = p.getText();
            try {
                return Xid.parse(text);
            } catch (XidException e) {
                return (Xid) ctxt.handleWeirdStringValue(Xid.class, text, e.getMessage());
            }
        }
    }

    static final class Keys extends KeyDeserializer {
        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) throws IOException {
            try {
                return Xid.parse(key);
            } catch (XidException e) {
                return ctxt.handleWeirdKey(Xid.class, key, e.getMessage());
            }
        }
    }
}
