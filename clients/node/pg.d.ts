// Types of xid-pg/pg: public.xid in node-postgres.

export interface XidOids {
  oid: number;
  arrayOid: number;
}

/** What registerTypes needs of a pg Client, PoolClient or Pool. */
export interface QueryableClient {
  query(config: { text: string; values?: unknown[] }): Promise<{ rows: any[] }>;
  setTypeParser(oid: number, format: 'text' | 'binary', parser: (value: any) => any): void;
}

/** Parse SCHEMA.xid (default public) and its arrays as Xid on this client, text and binary. */
export declare function registerTypes(client: QueryableClient, options?: { schema?: string }): Promise<XidOids>;
/** The OIDs of SCHEMA.xid and its array type, found with to_regtype. */
export declare function lookupTypes(client: Pick<QueryableClient, 'query'>, schema?: string): Promise<XidOids>;
/** Set the parsers for known OIDs on a Client, pg.types or a TypeOverrides. */
export declare function setParsers(
  target: { setTypeParser(oid: number, format: 'text' | 'binary', parser: (value: any) => any): void },
  oids: XidOids,
): void;
