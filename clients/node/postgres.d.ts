// Types of xid-pg/postgres: public.xid in postgres.js.
import type { Sql } from 'postgres';
import type { Xid } from './index';

export interface XidOids {
  oid: number;
  arrayOid: number;
}

/** Read and send SCHEMA.xid (default public) and its arrays as Xid on this sql instance. */
export declare function registerTypes(sql: Sql<any>, options?: { schema?: string }): Promise<XidOids>;
/** The OIDs of SCHEMA.xid and its array type, found with to_regtype. */
export declare function lookupTypes(sql: Sql<any>, schema?: string): Promise<XidOids>;
/** The entry for postgres(url, { types: { xid: xidType(oid) } }). */
export declare function xidType(oid: number): {
  to: number;
  from: number[];
  serialize: (x: Xid | string) => string;
  parse: (s: string) => Xid;
};
export declare function serialize(x: Xid | string): string;
export declare function parse(s: string): Xid;
