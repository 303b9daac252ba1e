// Compiled by tsc --noEmit only (test/tsconfig.frameworks.json):
// xid-pg/kysely's declarations (an ES module).
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { Xid } from '../index.js';
import { timeGte, timeGt, timeLt, timeLte, startsWith, type XidColumn, type GeneratedXidColumn } from '../kysely.mjs';

interface Database {
  orders: { id: GeneratedXidColumn; item: string | null };
  lines: { order_id: XidColumn; n: number };
}

async function demo(): Promise<void> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
  const t = new Date();
  const rows = await db.selectFrom('orders').selectAll()
    .where(timeGte('id', t)).where(timeGt('id', t)).where(timeLt('id', t)).where(timeLte('id', t))
    .where(startsWith('orders.id', '5cn')).execute();
  const id: Xid = rows[0].id;
  await db.insertInto('orders').values({ item: null }).execute();
  await db.insertInto('orders').values({ id: '5cnEkaefSdu', item: 'pear' }).execute();
  await db.insertInto('lines').values({ order_id: id, n: 1 }).execute();
  const line = await db.selectFrom('lines').select('order_id').where('order_id', '=', id).executeTakeFirstOrThrow();
  const lid: Xid = line.order_id;
  console.log(lid);
}
void demo;
