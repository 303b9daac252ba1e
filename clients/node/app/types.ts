// Type checks only (noEmit) of the declarations as an application sees
// them, under moduleResolution node (node10, which ignores package.json's
// exports), nodenext and bundler: tsconfig.types-*.json.  app.mts runs the
// same calls against the server.
import { Kysely } from 'kysely';
import { eq, gte, ne } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { Xid } from 'xid-pg';
import { registerTypes } from 'xid-pg/pg';
import { connect } from 'xid-pg/postgres';
import { xid, startsWith } from 'xid-pg/drizzle';
import { timeGte, startsWith as kyselyStartsWith, type GeneratedXidColumn, type XidColumn } from 'xid-pg/kysely';
import { xid as zodXid } from 'xid-pg/zod';
import { xidTransformer } from 'xid-pg/typeorm';

export const used = [Xid, registerTypes, connect, xid, startsWith, zodXid, xidTransformer, timeGte, kyselyStartsWith];
export type Columns = { a: GeneratedXidColumn; b: XidColumn };

// Drizzle: an xid column compares with an Xid or its text; other columns
// keep their own types
const orders = pgTable('orders', { id: xid('id').primaryKey(), parent: xid('parent'), item: text('item') });
const text1: string = '5cnEkaefSdu';
export const drizzleOk = [eq(orders.id, text1), eq(orders.id, Xid.parse(text1)), ne(orders.parent, text1), gte(orders.id, text1), eq(orders.item, 'pear')];
// @ts-expect-error a number is not an xid
export const drizzleBad = eq(orders.id, 5);
// @ts-expect-error nor is it text
export const drizzleBad2 = eq(orders.item, 5);

// Kysely: where with an Xid or its text, in selects, updates and deletes;
// results stay Xid
interface Database { orders: { id: GeneratedXidColumn; parent: XidColumn | null; item: string | null; n: number } }
declare const kdb: Kysely<Database>;
export const kyselyOk = [
  kdb.selectFrom('orders').selectAll().where('id', '=', text1),
  kdb.selectFrom('orders').selectAll().where('orders.id', '=', Xid.parse(text1)),
  kdb.selectFrom('orders').selectAll().where('parent', 'in', [text1, Xid.parse(text1)]),
  kdb.updateTable('orders').set({ item: 'fig' }).where('id', '=', text1),
  kdb.deleteFrom('orders').where('id', '>=', text1),
  kdb.selectFrom('orders').selectAll().where('item', '=', 'fig'),
];
// @ts-expect-error text is no number
export const kyselyBad = kdb.selectFrom('orders').selectAll().where('n', '=', 'x');
// @ts-expect-error a number is not an xid
export const kyselyBad2 = kdb.selectFrom('orders').selectAll().where('id', '=', 5);
export async function read(): Promise<boolean> {
  const row = await kdb.selectFrom('orders').selectAll().where('id', '=', text1).executeTakeFirstOrThrow();
  const id: Xid = row.id;
  return id.equals(Xid.parse(text1));
}
