package io.github.xidpg.xid.spring;

import io.github.xidpg.xid.Xid;
import java.sql.JDBCType;
import java.util.List;
import org.postgresql.util.PGobject;
import org.springframework.core.convert.converter.Converter;
import org.springframework.data.convert.ReadingConverter;
import org.springframework.data.convert.WritingConverter;
import org.springframework.data.jdbc.core.mapping.JdbcValue;

/**
 * Spring Data JDBC: an {@link Xid} property, the id included, in a
 * {@code public.xid} column.  Written untyped (so the server reads it as the
 * column's type), read from pgjdbc's {@code PGobject} or a string.  Register
 * {@link #all()} with {@code JdbcCustomConversions} (a bean of that type in
 * Spring Boot, or {@code AbstractJdbcConfiguration.userConverters()}).
 */
public final class XidJdbcConverters {
    private XidJdbcConverters() {
    }

    /** The converters, both ways. */
    public static List<Converter<?, ?>> all() {
        return List.of(XidToJdbcValue.INSTANCE, PGobjectToXid.INSTANCE, StringToXid.INSTANCE);
    }

    /** An id as an untyped parameter. */
    @WritingConverter
    public enum XidToJdbcValue implements Converter<Xid, JdbcValue> {
        INSTANCE;

        @Override
        public JdbcValue convert(Xid source) {
            return JdbcValue.of(source.toString(), JDBCType.OTHER);
        }
    }

    /** What pgjdbc's getObject gives for a type it does not know. */
    @ReadingConverter
    public enum PGobjectToXid implements Converter<PGobject, Xid> {
        INSTANCE;

        @Override
        public Xid convert(PGobject source) {
            return source.getValue() == null ? null : Xid.parse(source.getValue());
        }
    }

    /** The text of an id. */
    @ReadingConverter
    public enum StringToXid implements Converter<String, Xid> {
        INSTANCE;

        @Override
        public Xid convert(String source) {
            return Xid.parse(source);
        }
    }
}
