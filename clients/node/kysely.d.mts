// Types of xid-pg/kysely.
import type { ColumnType, ComparisonOperatorExpression, ExtractTypeFromReferenceExpression, RawBuilder, ReferenceExpression, SqlBool } from 'kysely';
import type { Xid } from './index.js';

/** The column type of a public.xid column: an Xid is read, an Xid or its text written. */
export type XidColumn = ColumnType<Xid, Xid | string, Xid | string>;
/** The same, for a column with a default (xid_new()): optional in an insert. */
export type GeneratedXidColumn = ColumnType<Xid, Xid | string | undefined, Xid | string>;
/** ref >= t::timestamptz: xid_time(ref) >= t, an index range. */
export declare function timeGte(ref: string, t: Date): RawBuilder<SqlBool>;
export declare function timeGt(ref: string, t: Date): RawBuilder<SqlBool>;
export declare function timeLt(ref: string, t: Date): RawBuilder<SqlBool>;
export declare function timeLte(ref: string, t: Date): RawBuilder<SqlBool>;
/** ref ^@ prefix: the ids whose text starts with prefix, an index range. */
export declare function startsWith(ref: string, prefix: string): RawBuilder<SqlBool>;

/** What where(ref, op, value) takes for a column of type XidColumn: an Xid
 * or its text (or a list of them, for in), as the server reads either;
 * never for other columns. */
export type XidOperand<DB, TB extends keyof DB, RE> =
  [Exclude<ExtractTypeFromReferenceExpression<DB, TB, RE>, null>] extends [Xid] ? Xid | string | readonly (Xid | string)[] : never;

// Kysely types where's value with the column's select type (Xid) alone,
// though the server takes the id's text as well: one more signature for
// xid columns lets where('id', '=', text) type-check in selects, updates
// and deletes.
declare module 'kysely' {
  interface SelectQueryBuilder<DB, TB extends keyof DB, O> {
    where<RE extends ReferenceExpression<DB, TB>>(lhs: RE, op: ComparisonOperatorExpression, rhs: XidOperand<DB, TB, RE>): SelectQueryBuilder<DB, TB, O>;
  }
  interface UpdateQueryBuilder<DB, UT extends keyof DB, TB extends keyof DB, O> {
    where<RE extends ReferenceExpression<DB, TB>>(lhs: RE, op: ComparisonOperatorExpression, rhs: XidOperand<DB, TB, RE>): UpdateQueryBuilder<DB, UT, TB, O>;
  }
  interface DeleteQueryBuilder<DB, TB extends keyof DB, O> {
    where<RE extends ReferenceExpression<DB, TB>>(lhs: RE, op: ComparisonOperatorExpression, rhs: XidOperand<DB, TB, RE>): DeleteQueryBuilder<DB, TB, O>;
  }
}
