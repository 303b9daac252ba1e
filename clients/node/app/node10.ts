// The declarations under TypeScript's moduleResolution "node" (node10),
// which ignores package.json's exports: tsconfig.node10.json.
import { Xid } from 'xid-pg';
import { registerTypes } from 'xid-pg/pg';
import { connect } from 'xid-pg/postgres';
import { xid, startsWith } from 'xid-pg/drizzle';
import type { GeneratedXidColumn, XidColumn } from 'xid-pg/kysely';
import { xid as zodXid } from 'xid-pg/zod';
import { xidTransformer } from 'xid-pg/typeorm';

export const used = [Xid, registerTypes, connect, xid, startsWith, zodXid, xidTransformer];
export type Columns = { a: GeneratedXidColumn; b: XidColumn };
