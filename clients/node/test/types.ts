// Compiled by tsc --noEmit only: every declared name, used as a user would.
import pg from 'pg';
import postgres from 'postgres';
import {
  Xid, XidError, XidGenerator, xidNew, xidAt, prefixBounds, likeBounds, timeLowerBound, timeUpperBound, EPOCH_MS,
  xidToUuid, xidFromUuid, xidToUlid, xidFromUlid, xidFromUlidFlake,
} from '../index';
import { registerTypes, lookupTypes, setParsers } from '../pg';
import * as xidPostgres from '../postgres';

async function demo(): Promise<void> {
  const x: Xid = Xid.parse('5cnEkaefSdu');
  const p: bigint = x.payload;
  const t: Date = x.time;
  const n: number = x.node(4) + x.random + x.ms;
  const b: Uint8Array = x.toBytes();
  const y: Xid = Xid.fromBytes(b);
  const same: boolean = x.equals(y) && x.compare(y) === 0 && Xid.isValid('11111111111');
  const g = new XidGenerator({ nodeBits: 4, nodeId: 3 });
  const ids: Xid[] = [g.next(), xidNew(), xidAt(new Date()), new Xid(p), Xid.MIN, Xid.MAX, Xid.fromXidEpochMs(1, 2),
    Xid.fromUnixMs(Date.now()), Xid.fromDate(new Date(), 7)].sort(Xid.compare);
  const pb = prefixBounds('5cnrQT');
  const lb = likeBounds('5cnrQT%');
  const lo: Xid | null = timeLowerBound(new Date(), false);
  const hi: Xid | null = timeUpperBound(EPOCH_MS + 1);
  if (pb && lb && lo && hi) console.log(pb.lower.toString(), lb.upper.toJSON(), lo.toPostgres(), hi.toString());
  const u: string = xidToUuid(x) + xidToUlid(x) + xidToUlid('5cnEkaefSdu');
  const converted: Xid[] = [xidFromUuid(xidToUuid(x)), xidFromUlid(xidToUlid(x)), xidFromUlidFlake(14246757444195114n),
    xidFromUlidFlake(1)];
  console.log(u, converted);
  try {
    Xid.parse('nope');
  } catch (e) {
    if (e instanceof XidError) console.log(e.code, e.detail);
  }

  const client = new pg.Client();
  await client.connect();
  const oids = await registerTypes(client);
  setParsers(pg.types, oids);
  await lookupTypes(client, 'public');
  const res = await client.query<{ id: Xid }>('SELECT id FROM orders WHERE id >= $1::timestamptz', [new Date()]);
  res.rows.forEach((r) => console.log(r.id.time));
  const pool = new pg.Pool();
  await registerTypes(pool);             // README's call: a Pool has no setTypeParser
  const pc = await pool.connect();
  await registerTypes(pc);
  pc.release();

  const sql = await xidPostgres.connect({ max: 2, xidSchema: 'public' });
  const sqlUrl = await xidPostgres.connect('postgres://localhost/db');
  const probe = postgres();
  const sql3 = postgres({ types: await xidPostgres.xidTypes(probe) });
  await Promise.all([sqlUrl.end(), probe.end(), sql3.end()]);
  const checked: string = xidPostgres.serialize('5cnEkaefSdu');
  const rows = await sql<{ id: Xid }[]>`SELECT id FROM orders WHERE id >= ${new Date()}`;
  // an Xid, its text, an array of them: parameters as they are
  const someId = Xid.parse('5cnEkaefSdu');
  await sql`SELECT * FROM orders WHERE id = ${someId} OR id = ${'5cnEkaefSdu'} OR id = ANY(${[someId]})`;
  await sql3`SELECT * FROM orders WHERE id = ${someId}`;  // xidTypes(): the same with postgres() itself
  rows.forEach((r) => console.log(r.id.toString()));
  const sql2 = postgres({ types: { xid: xidPostgres.xidType(oids.oid) } });
  await sql2.end();
  console.log(t, n, same, ids);
}

void demo;
