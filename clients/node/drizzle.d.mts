// Types of xid-pg/drizzle: public.xid in Drizzle ORM.
import type { Column, SQL, SQLWrapper } from 'drizzle-orm';
import { customType, type PgSequence } from 'drizzle-orm/pg-core';
import type { Xid } from './index.js';

/** The column type: xid('id'), values are Xid (text or an Xid accepted when writing). */
export declare const xid: ReturnType<typeof customType<{ data: Xid; driverData: string }>>;
/** The extension's sequence public.xid_durable_mark, as drizzle-kit pull
 * writes it: export it from the schema drizzle-kit push reads (only that
 * one: generate would create it), and push leaves it alone. */
export declare const xidDurableMark: PgSequence;
/** column >= t::timestamptz: xid_time(column) >= t, an index range. */
export declare function timeGte(column: SQLWrapper, t: Date): SQL;
/** column > t::timestamptz */
export declare function timeGt(column: SQLWrapper, t: Date): SQL;
/** column < t::timestamptz */
export declare function timeLt(column: SQLWrapper, t: Date): SQL;
/** column <= t::timestamptz */
export declare function timeLte(column: SQLWrapper, t: Date): SQL;
/** column ^@ prefix: the ids whose text starts with prefix, an index range. */
export declare function startsWith(column: SQLWrapper, prefix: string): SQL;

/** What a comparison of a column of this type takes besides SQL: an Xid
 * or its text, as the server reads either; never for other columns. */
export type XidOperand<TColumn extends Column> = [TColumn['_']['data']] extends [Xid] ? Xid | string | SQLWrapper : never;

// Drizzle types eq, ne, gt, gte, lt and lte with the column's data type
// (Xid) alone, though the server takes the id's text as well: one more
// signature for xid columns lets eq(orders.id, '5cnEkaefSdu') type-check.
declare module 'drizzle-orm' {
  interface BinaryOperator {
    <TColumn extends Column>(left: TColumn, right: XidOperand<TColumn>): SQL;
  }
}
