// Types of xid-pg/postgres: public.xid in postgres.js.
import type { Options, PostgresType, Sql } from 'postgres';
import type { Xid } from './index';

export interface XidOids {
  oid: number;
  arrayOid: number;
}

/** The entry of postgres()'s `types` option for an xid type of this OID. */
export interface XidPostgresType extends PostgresType<Xid> {
  to: number;
  from: number[];
  serialize: (x: Xid | string) => string;
  parse: (s: string) => Xid;
}

/**
 * What Sql<...> takes: the JavaScript type of each custom type, as
 * postgres() itself maps its `types` option (not the PostgresType entries).
 */
export type JsTypes<T extends Record<string, PostgresType>> = {
  [K in keyof T]: T[K] extends { serialize: (value: infer R) => any; parse: (raw: any) => infer R } ? R : never;
};

/** postgres(url, options) with SCHEMA.xid (options.xidSchema, default public) as Xid, through the `types` option: an Xid is a parameter as it is. */
export declare function connect<T extends Record<string, PostgresType> = {}>(
  url: string,
  options?: Options<T> & { xidSchema?: string },
): Promise<Sql<JsTypes<T> & { xid: Xid }>>;
export declare function connect<T extends Record<string, PostgresType> = {}>(
  options?: Options<T> & { xidSchema?: string },
): Promise<Sql<JsTypes<T> & { xid: Xid }>>;
/** The `types` option for SCHEMA.xid, its OID looked up on `sql`. */
export declare function xidTypes(sql: Sql<any>, options?: { schema?: string }): Promise<{ xid: XidPostgresType }>;
/** The OIDs of SCHEMA.xid and its array type, found with to_regtype. */
export declare function lookupTypes(sql: Sql<any>, schema?: string): Promise<XidOids>;
/** The entry for postgres(url, { types: { xid: xidType(oid) } }). */
export declare function xidType(oid: number): XidPostgresType;
/** The text of an Xid, or of a string checked as an xid (XidError otherwise). */
export declare function serialize(x: Xid | string): string;
export declare function parse(s: string): Xid;
