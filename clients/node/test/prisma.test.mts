// Prisma ORM 7 with its node-postgres driver adapter (@prisma/adapter-pg),
// which runs queries without Prisma's Rust engines: what works with a
// public.xid column.  test.sh generates the client from
// test/prisma/schema.prisma, compiles this file with tsc and runs it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Xid, xidNew, timeLowerBound, prefixBounds } from 'xid-pg';
import { PrismaClient } from './prisma/generated/client.js';

const require = createRequire(import.meta.url);
// test.sh gives the path of test/harness.js (this file runs from a scratch directory)
const { test, run } = require(process.env.XID_HARNESS!) as {
  test(name: string, fn: () => unknown): void;
  run(prefix: string): Promise<number>;
};

const plain = new pg.Client();
await plain.connect();
const q = async (text: string, values?: unknown[]) => (await plain.query(text, values)).rows;
await q('DROP TABLE IF EXISTS prisma_orders, prisma_events');
await q('CREATE TABLE prisma_orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL)');
await q('CREATE TABLE prisma_events (seq serial PRIMARY KEY, ref public.xid NOT NULL DEFAULT xid_new())');
await q(`INSERT INTO prisma_orders
         SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes'), 'o' || g FROM generate_series(1, 2880) g`);
const since = new Date(Date.now() - 3 * 86400000 - 12345);
const [{ want }] = await q('SELECT count(*)::int AS want FROM prisma_orders WHERE xid_time(id) >= $1::timestamptz', [since]);

const queries: string[] = [];
const prisma = new PrismaClient({
  adapter: new PrismaPg({ host: process.env.PGHOST, port: Number(process.env.PGPORT), user: process.env.PGUSER, database: process.env.PGDATABASE }),
  log: [{ emit: 'event', level: 'query' }],
});
prisma.$on('query', (e) => { queries.push(e.query); });

test('prisma: a String @id on a public.xid column: create (server default and client id), find', async () => {
  const a = await prisma.order.create({ data: { item: 'pear' } });
  assert.ok(Xid.isValid(a.id), a.id);
  const made = xidNew();
  const b = await prisma.order.create({ data: { id: made.toString(), item: 'plum' } });
  assert.equal(b.id, made.toString());
  const found = await prisma.order.findUniqueOrThrow({ where: { id: made.toString() } });
  assert.equal(found.item, 'plum');
  assert.equal(await prisma.order.count({ where: { id: { in: [a.id, b.id] } } }), 2);
  await prisma.order.deleteMany({ where: { id: { in: [a.id, b.id] } } });
});

test('prisma: bad text is the server\'s 22P02; a Date where the id goes is refused by Prisma', async () => {
  await assert.rejects(prisma.order.findUnique({ where: { id: '5cnEk0efSdu' } }),
    (e: any) => e.code === 'P2007' && /invalid input syntax for type xid: "5cnEk0efSdu"/.test(e.message));
  await assert.rejects(prisma.order.findMany({ where: { id: { gte: since as any } } }), (e: any) => e.name === 'PrismaClientValidationError');
});

test('prisma: by time: gte the text of timeLowerBound(t), or a typed raw query with ::timestamptz', async () => {
  assert.equal(await prisma.order.count({ where: { id: { gte: timeLowerBound(since)!.toString() } } }), want);
  const rows = await prisma.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM prisma_orders WHERE id >= ${since}::timestamptz ORDER BY id`;
  assert.equal(rows.length, want);
  assert.ok(rows.every((r) => Xid.parse(r.id).time >= since));
  // without ::text the adapter returns the text of an xid as a string as well
  const [raw] = await prisma.$queryRaw<{ id: unknown }[]>`SELECT id FROM prisma_orders LIMIT 1`;
  assert.equal(typeof raw.id, 'string');
  assert.ok(Xid.isValid(raw.id as string));
});

test('prisma: startsWith is id::text LIKE (every row read); prefixBounds gives the index range', async () => {
  const [{ p }] = await q('SELECT left(id::text, 5) AS p FROM prisma_orders ORDER BY id OFFSET 100 LIMIT 1');
  const [{ n }] = await q("SELECT count(*)::int AS n FROM prisma_orders WHERE id::text LIKE $1 || '%'", [p]);
  queries.length = 0;
  assert.equal(await prisma.order.count({ where: { id: { startsWith: p } } }), n);
  assert.match(queries.join('\n'), /"id"::text LIKE/);
  // the range of the prefix, as text: the server compares xid with xid
  const b = prefixBounds(p)!;
  queries.length = 0;
  assert.equal(await prisma.order.count({ where: { id: { gte: b.lower.toString(), lte: b.upper.toString() } } }), n);
  const sql = queries.join('\n');
  assert.ok(/"id" >= \$1 AND "public"."prisma_orders"."id" <= \$2/.test(sql) && !/::text/.test(sql), sql);
});

test('prisma: Unsupported("public.xid"): the column is set by its default and left out of the client', async () => {
  const e = await prisma.event.create({ data: {} });
  assert.deepEqual(Object.keys(e), ['seq']);
  const [r] = await prisma.$queryRaw<{ ref: string }[]>`SELECT ref::text AS ref FROM prisma_events WHERE seq = ${e.seq}`;
  assert.ok(Xid.isValid(r.ref));
});

const failed = await run('prisma: ');
await prisma.$disconnect();
await plain.end();
process.exit(failed ? 1 : 0);
