// Types of xid-pg/pg: public.xid in node-postgres.  Structural, so that
// @types/pg is not needed to use them; a pg.Client, pg.PoolClient and
// pg.Pool each fit.

export interface XidOids {
  oid: number;
  arrayOid: number;
}

type Parser = (value: any) => any;

/** What registerTypes needs of a pg Client or PoolClient. */
export interface QueryableClient {
  query(config: { text: string; values?: unknown[] }): Promise<{ rows: any[] }>;
  setTypeParser(oid: number, format: 'text' | 'binary', parser: Parser): void;
}

/** What registerTypes needs of a pg.Pool (which has no setTypeParser of its own). */
export interface QueryablePool {
  connect(): Promise<QueryableClient & { release(err?: any): void }>;
  readonly totalCount: number;
  options: object;
}

/**
 * Parse SCHEMA.xid (default public) and its arrays as Xid, text and binary,
 * on this client, or on every connection of this pool (call it before the
 * pool's first query).
 */
export declare function registerTypes(client: QueryableClient | QueryablePool, options?: { schema?: string }): Promise<XidOids>;
/** The OIDs of SCHEMA.xid and its array type, found with to_regtype. */
export declare function lookupTypes(client: Pick<QueryableClient, 'query'>, schema?: string): Promise<XidOids>;
/** Set the parsers for known OIDs on a Client, pg.types or a TypeOverrides. */
export declare function setParsers(
  target: { setTypeParser(oid: number, format: 'text' | 'binary', parser: Parser): void },
  oids: XidOids,
): void;
