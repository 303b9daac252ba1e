// Types of xid-pg/kysely.
import type { ColumnType, RawBuilder, SqlBool } from 'kysely';
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
