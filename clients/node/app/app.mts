// An application outside the package, with xid-pg installed from its
// npm pack tarball (clients/node/test.sh): real queries through
// node-postgres, postgres.js, Drizzle, Kysely and Zod.
import assert from 'node:assert/strict';
import pg from 'pg';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/node-postgres';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { eq, sql } from 'drizzle-orm';
import { Kysely, PostgresDialect } from 'kysely';
import { z } from 'zod';
import { Xid, xidNew, prefixBounds } from 'xid-pg';
import { registerTypes } from 'xid-pg/pg';
import { connect } from 'xid-pg/postgres';
import { xid, startsWith } from 'xid-pg/drizzle';
import { startsWith as kyselyStartsWith, type GeneratedXidColumn } from 'xid-pg/kysely';
import { xid as zodXid } from 'xid-pg/zod';

const done: string[] = [];

// node-postgres: insert with DEFAULT xid_new(), select by id, prefix search
const pool = new pg.Pool();
await registerTypes(pool);
await pool.query('DROP TABLE IF EXISTS app_orders');
await pool.query('CREATE TABLE app_orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)');
const { rows: [made] } = await pool.query<{ id: Xid }>("INSERT INTO app_orders (item) VALUES ('pear') RETURNING id");
assert.ok(made.id instanceof Xid);
const byId = await pool.query<{ item: string }>('SELECT item FROM app_orders WHERE id = $1', [made.id]);
assert.equal(byId.rows[0].item, 'pear');
const prefix = made.id.toString().slice(0, 7);
const byPrefix = await pool.query('SELECT id FROM app_orders WHERE id ^@ $1', [prefix]);
assert.equal(byPrefix.rows.length, 1);
const b = prefixBounds(prefix)!;
const byBounds = await pool.query('SELECT id FROM app_orders WHERE id BETWEEN $1 AND $2', [b.lower, b.upper]);
assert.ok(byBounds.rows[0].id.equals(made.id));
done.push('pg');

// postgres.js
const psql = await connect();
const own = xidNew();
await psql`INSERT INTO app_orders VALUES (${own.toString()}, 'fig')`;
const [fig] = await psql`SELECT id, item FROM app_orders WHERE id = ${own.toString()}`;
assert.ok(fig.id instanceof Xid && fig.id.equals(own));
await psql.end();
done.push('postgres.js');

// Drizzle
const orders = pgTable('app_orders', {
  id: xid('id').primaryKey().default(sql`xid_new()`),
  item: text('item'),
});
const db = drizzle(pool);
const [plum] = await db.insert(orders).values({ item: 'plum' }).returning();
assert.ok(plum.id instanceof Xid);
assert.equal((await db.select().from(orders).where(eq(orders.id, plum.id)))[0].item, 'plum');
// the id's text compares as well (xid-pg/drizzle's types allow it under strict)
const plumText: string = plum.id.toString();
assert.equal((await db.select().from(orders).where(eq(orders.id, plumText)))[0].item, 'plum');
assert.equal((await db.select().from(orders).where(startsWith(orders.id, plum.id.toString().slice(0, 7)))).length, 1);
done.push('drizzle');

// Kysely
interface Database { app_orders: { id: GeneratedXidColumn; item: string | null } }
const kdb = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
const kiwi = await kdb.insertInto('app_orders').values({ item: 'kiwi' }).returning('id').executeTakeFirstOrThrow();
assert.ok(kiwi.id instanceof Xid);
const got = await kdb.selectFrom('app_orders').select('item').where('id', '=', kiwi.id).executeTakeFirstOrThrow();
assert.equal(got.item, 'kiwi');
const kiwiText: string = kiwi.id.toString();
const byText = await kdb.selectFrom('app_orders').select('id').where('id', '=', kiwiText).executeTakeFirstOrThrow();
const kiwiId: Xid = byText.id;
assert.ok(kiwiId.equals(kiwi.id));
assert.equal((await kdb.updateTable('app_orders').set({ item: 'kiwi2' }).where('id', 'in', [kiwiText]).executeTakeFirstOrThrow()).numUpdatedRows, 1n);
const some = await kdb.selectFrom('app_orders').selectAll()
  .where(kyselyStartsWith('id', kiwi.id.toString().slice(0, 7))).execute();
assert.equal(some.length, 1);
done.push('kysely');

// Zod
const Body = z.object({ id: zodXid });
assert.ok(Body.parse({ id: kiwi.id.toString() }).id.equals(kiwi.id));
assert.equal(Body.safeParse({ id: '5cnEk0efSdu' }).success, false);
done.push('zod');

await kdb.destroy();  // ends the pool
console.log(`app: ${done.join(', ')}: inserted, selected by id and by prefix`);
