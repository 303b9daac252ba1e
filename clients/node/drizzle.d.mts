// Types of xid-pg/drizzle: public.xid in Drizzle ORM.
import type { SQL, SQLWrapper } from 'drizzle-orm';
import { customType } from 'drizzle-orm/pg-core';
import type { Xid } from './index.js';

/** The column type: xid('id'), values are Xid (text or an Xid accepted when writing). */
export declare const xid: ReturnType<typeof customType<{ data: Xid; driverData: string }>>;
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
