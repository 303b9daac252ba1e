package io.github.xidpg.xid.jooq;

import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.jdbc.XidJdbc;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.jooq.Binding;
import org.jooq.BindingGetResultSetContext;
import org.jooq.BindingGetSQLInputContext;
import org.jooq.BindingGetStatementContext;
import org.jooq.BindingRegisterContext;
import org.jooq.BindingSQLContext;
import org.jooq.BindingSetSQLOutputContext;
import org.jooq.BindingSetStatementContext;
import org.jooq.Converter;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;

/**
 * jOOQ: an {@code Xid[]} field or value of a {@code public.xid[]} column or
 * parameter ({@link XidBinding#XID_ARRAY}).  jOOQ cannot make the array type
 * of a data type with a custom binding itself ({@code DSL.any(xids)} on an
 * {@link XidBinding} field throws "Cannot create array data types from custom
 * data types with custom bindings"): this binding is that array type.  A bind
 * value renders as {@code ?::"public".xid[]} and goes as a
 * {@code java.sql.Array} of public.xid ({@link XidJdbc#createArray}); an
 * inlined one as {@code '{...}'::"public".xid[]}; a column's value comes back
 * through {@link XidJdbc#getArray}.
 */
public final class XidArrayBinding implements Binding<Object, Xid[]> {
    private static final long serialVersionUID = 1L;

    private final String schema;
    private final String cast;

    /** The binding of public.xid[] (what the code generator instantiates). */
    public XidArrayBinding() {
        this("public");
    }

    /** The binding of SCHEMA.xid[]. */
    public XidArrayBinding(String schema) {
        this.schema = schema;
        this.cast = "::" + DSL.name(schema).quotedName() + ".xid[]";
    }

    @Override
    public Converter<Object, Xid[]> converter() {
        return Converter.ofNullable(Object.class, Xid[].class, XidArrayBinding::toIds, XidArrayBinding::literal);
    }

    private static Xid[] toIds(Object o) {
        if (o instanceof Xid[] ids) {
            return ids;
        }
        if (o instanceof Object[] a) {
            return Arrays.stream(a).map(e -> e == null ? null : e instanceof Xid x ? x : Xid.parse(e.toString()))
                    .toArray(Xid[]::new);
        }
        String s = o.toString();
        if (!s.startsWith("{")) {
            throw new IllegalArgumentException("not an array of xid: " + s);
        }
        if (s.equals("{}")) {
            return new Xid[0];
        }
        return Arrays.stream(s.substring(1, s.length() - 1).split(",", -1))
                .map(e -> e.equals("NULL") ? null : Xid.parse(e)).toArray(Xid[]::new);
    }

    // the array's text: ids are Base58, never quoted
    private static String literal(Xid[] ids) {
        return Arrays.stream(ids).map(x -> x == null ? "NULL" : x.toString()).collect(Collectors.joining(",", "{", "}"));
    }

    @Override
    public void sql(BindingSQLContext<Xid[]> ctx) {
        if (ctx.render().paramType() == ParamType.INLINED) {
            ctx.render().visit(DSL.inline(ctx.value() == null ? null : literal(ctx.value()))).sql(cast);
        } else {
            ctx.render().sql(ctx.variable()).sql(cast);
        }
    }

    @Override
    public void register(BindingRegisterContext<Xid[]> ctx) throws java.sql.SQLException {
        ctx.statement().registerOutParameter(ctx.index(), Types.ARRAY);
    }

    @Override
    public void set(BindingSetStatementContext<Xid[]> ctx) throws java.sql.SQLException {
        if (ctx.value() == null) {
            ctx.statement().setNull(ctx.index(), Types.ARRAY);
        } else {
            XidJdbc.setArray(ctx.statement(), ctx.index(), schema, ctx.value());
        }
    }

    @Override
    public void set(BindingSetSQLOutputContext<Xid[]> ctx) throws java.sql.SQLException {
        throw new SQLFeatureNotSupportedException("xid[] in a UDT");
    }

    @Override
    public void get(BindingGetResultSetContext<Xid[]> ctx) throws java.sql.SQLException {
        ctx.value(XidJdbc.getArray(ctx.resultSet(), ctx.index()));
    }

    @Override
    public void get(BindingGetStatementContext<Xid[]> ctx) throws java.sql.SQLException {
        String s = ctx.statement().getString(ctx.index());
        ctx.value(s == null ? null : toIds(s));
    }

    @Override
    public void get(BindingGetSQLInputContext<Xid[]> ctx) throws java.sql.SQLException {
        throw new SQLFeatureNotSupportedException("xid[] in a UDT");
    }
}
