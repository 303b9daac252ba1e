package io.github.xidpg.xid.jooq;

import io.github.xidpg.xid.Xid;
import io.github.xidpg.xid.jdbc.XidJdbc;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import org.jooq.Binding;
import org.jooq.BindingGetResultSetContext;
import org.jooq.BindingGetSQLInputContext;
import org.jooq.BindingGetStatementContext;
import org.jooq.BindingRegisterContext;
import org.jooq.BindingSQLContext;
import org.jooq.BindingSetSQLOutputContext;
import org.jooq.BindingSetStatementContext;
import org.jooq.Context;
import org.jooq.Converter;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.QuantifiedSelect;
import org.jooq.Record1;
import org.jooq.conf.ParamType;
import org.jooq.impl.CustomQueryPart;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * jOOQ: an {@link Xid} field of a {@code public.xid} column.  A bind value
 * renders as {@code ?::public.xid} (an inlined one as
 * {@code '5cnEkaefSdu'::public.xid}), goes as its text, and comes back
 * through {@link XidJdbc#get}.  {@link #XID} is the data type of the
 * extension in {@code public}; {@link #dataType(String)} of another schema.
 * Arrays: {@link #XID_ARRAY} ({@link XidArrayBinding}), and {@link #any} for
 * {@code id = ANY(?)}.
 * With the code generator: a {@code <forcedType>} with
 * {@code <userType>io.github.xidpg.xid.Xid</userType>} and this binding.
 */
public final class XidBinding implements Binding<Object, Xid> {
    private static final long serialVersionUID = 1L;

    /** The data type of public.xid. */
    public static final DataType<Xid> XID = dataType("public");

    /**
     * The data type of public.xid[]: an {@code Xid[]} column, or a parameter
     * such as {@code ID.eq(XidBinding.any(ids))}.
     */
    public static final DataType<Xid[]> XID_ARRAY = arrayDataType("public");

    private final String cast;

    /** The binding of public.xid (what the code generator instantiates). */
    public XidBinding() {
        this("public");
    }

    /** The binding of SCHEMA.xid. */
    public XidBinding(String schema) {
        this.cast = "::" + DSL.name(schema).quotedName() + ".xid";
    }

    /** The data type of SCHEMA.xid. */
    public static DataType<Xid> dataType(String schema) {
        return SQLDataType.OTHER.asConvertedDataType(new XidBinding(schema));
    }

    /** The data type of SCHEMA.xid[]. */
    public static DataType<Xid[]> arrayDataType(String schema) {
        return SQLDataType.OTHER.asConvertedDataType(new XidArrayBinding(schema));
    }

    /**
     * {@code ANY} of ids as one public.xid[] parameter:
     * {@code ID.eq(XidBinding.any(ids))} renders {@code "id" = any (?::"public".xid[])}.
     * {@code DSL.any(ids)} and {@code DSL.any(field)} cannot be used on an
     * {@link #XID} field: jOOQ converts their array to the array type of the
     * field's data type, and makes none of a data type with a custom binding
     * ("Cannot create array data types from custom data types with custom
     * bindings").
     */
    public static QuantifiedSelect<Record1<Xid>> any(Xid... ids) {
        return new Quantified("any", DSL.val(ids, XID_ARRAY));
    }

    /** {@code ANY} of an {@link #XID_ARRAY} field: {@code DSL.val(id, XID).eq(XidBinding.any(MEMBERS))}. */
    public static QuantifiedSelect<Record1<Xid>> any(Field<Xid[]> array) {
        return new Quantified("any", array);
    }

    /** {@code ALL} of ids as one public.xid[] parameter: {@code ID.ne(XidBinding.all(ids))}. */
    public static QuantifiedSelect<Record1<Xid>> all(Xid... ids) {
        return new Quantified("all", DSL.val(ids, XID_ARRAY));
    }

    /** {@code ALL} of an {@link #XID_ARRAY} field. */
    public static QuantifiedSelect<Record1<Xid>> all(Field<Xid[]> array) {
        return new Quantified("all", array);
    }

    // ANY (array) or ALL (array), rendered as is: not jOOQ's own quantified
    // array, which would convert the array (see any)
    private static final class Quantified extends CustomQueryPart implements QuantifiedSelect<Record1<Xid>> {
        private static final long serialVersionUID = 1L;
        private final String quantifier;
        private final Field<Xid[]> array;

        Quantified(String quantifier, Field<Xid[]> array) {
            this.quantifier = quantifier;
            this.array = array;
        }

        @Override
        public void accept(Context<?> ctx) {
            ctx.visit(DSL.keyword(quantifier)).sql(" (").visit(array).sql(')');
        }
    }

    @Override
    public Converter<Object, Xid> converter() {
        return Converter.ofNullable(Object.class, Xid.class, o -> o instanceof Xid x ? x : Xid.parse(o.toString()),
                Xid::toString);
    }

    @Override
    public void sql(BindingSQLContext<Xid> ctx) {
        if (ctx.render().paramType() == ParamType.INLINED) {
            ctx.render().visit(DSL.inline(ctx.value() == null ? null : ctx.value().toString())).sql(cast);
        } else {
            ctx.render().sql(ctx.variable()).sql(cast);
        }
    }

    @Override
    public void register(BindingRegisterContext<Xid> ctx) throws java.sql.SQLException {
        ctx.statement().registerOutParameter(ctx.index(), Types.OTHER);
    }

    @Override
    public void set(BindingSetStatementContext<Xid> ctx) throws java.sql.SQLException {
        XidJdbc.set(ctx.statement(), ctx.index(), ctx.value());
    }

    @Override
    public void set(BindingSetSQLOutputContext<Xid> ctx) throws java.sql.SQLException {
        throw new SQLFeatureNotSupportedException("xid in a UDT");
    }

    @Override
    public void get(BindingGetResultSetContext<Xid> ctx) throws java.sql.SQLException {
        ctx.value(XidJdbc.get(ctx.resultSet(), ctx.index()));
    }

    @Override
    public void get(BindingGetStatementContext<Xid> ctx) throws java.sql.SQLException {
        String s = ctx.statement().getString(ctx.index());
        ctx.value(s == null ? null : Xid.parse(s));
    }

    @Override
    public void get(BindingGetSQLInputContext<Xid> ctx) throws java.sql.SQLException {
        throw new SQLFeatureNotSupportedException("xid in a UDT");
    }
}
