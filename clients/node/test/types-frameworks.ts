// Compiled by tsc --noEmit only (test/tsconfig.frameworks.json): the
// framework modules' declarations, used as a user would.
import pg from 'pg';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { eq, sql as dsql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { z } from 'zod';
import { Xid, xidNew } from '../index';
import * as xd from '../drizzle';
import { xidTransformer, xidTextTransformer } from '../typeorm';
import { xid as zodXid, xidText } from '../zod';

async function frameworks(): Promise<void> {
  const orders = pgTable('orders', { id: xd.xid('id').primaryKey().default(dsql`xid_new()`), item: text('item') });
  const db = drizzle(new pg.Pool());
  const rows = await db.select().from(orders).where(eq(orders.id, Xid.parse('5cnEkaefSdu')));
  const id: Xid = rows[0].id;
  const t = new Date();
  await db.select().from(orders).where(xd.timeGte(orders.id, t));
  await db.select().from(orders).where(xd.timeGt(orders.id, t));
  await db.select().from(orders).where(xd.timeLt(orders.id, t));
  await db.select().from(orders).where(xd.timeLte(orders.id, t));
  await db.select().from(orders).where(xd.startsWith(orders.id, '5cn'));
  await db.insert(orders).values({ id: xidNew(), item: 'pear' });
  const stored: string | null | undefined = xidTransformer.to(id);
  const loaded: Xid | null | undefined = xidTransformer.from('5cnEkaefSdu');
  const joined: string | null | undefined = xidTextTransformer.from(id);
  const joinedTo: string | null | undefined = xidTextTransformer.to('5cnEkaefSdu');
  const Body = z.object({ id: zodXid, ref: xidText });
  const body: { id: Xid; ref: string } = Body.parse({ id: '5cnEkaefSdu', ref: '5cnEkaefSdu' });
  console.log(stored, loaded, joined, joinedTo, body);
}
void frameworks;
