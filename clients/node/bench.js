'use strict';
// node bench.js [rounds]: the codec against Node's UUID handling, and
// Drizzle and Kysely building queries on an xid column against the same on
// a uuid column, side by side in one run.  Each case runs over 4,096 prepared inputs, in rounds of
// about 0.1 s of CPU time; the best round counts.  Prints ns per operation and the
// ratio xid/UUID (below 1.0: xid is faster).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

function pkgVersion(name) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'node_modules', name, 'package.json'), 'utf8')).version;
}
const uuid = require('uuid');
const { Xid, xidNew } = require('./index.js');

const rounds = Number(process.argv[2] || 7);
const N = 4096;
const texts = [];
const ids = [];
const uuidTexts = [];
const uuidBytes = [];
for (let i = 0; i < N; i++) {
  const x = new Xid(crypto.randomBytes(8).readBigUInt64BE(0));
  ids.push(x);
  texts.push(x.toString());
  const u = crypto.randomUUID();
  uuidTexts.push(u);
  uuidBytes.push(uuid.parse(u));
}

// the fastest plain JavaScript UUID text handling: table lookups
const HEX = [];
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, '0'));
const HEXVAL = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEXVAL['0123456789abcdef'.charCodeAt(i)] = i;
  HEXVAL['0123456789ABCDEF'.charCodeAt(i)] = i;
}
function hexParse(s) {
  if (s.length !== 36 || s[8] !== '-' || s[13] !== '-' || s[18] !== '-' || s[23] !== '-') throw new TypeError('bad uuid');
  const b = new Uint8Array(16);
  let bad = 0;
  for (let i = 0, j = 0; i < 36; i += 2, j++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) i++;
    const h = HEXVAL[s.charCodeAt(i) & 127];
    const l = HEXVAL[s.charCodeAt(i + 1) & 127];
    bad |= h | l;
    b[j] = (h << 4) | l;
  }
  if (bad < 0) throw new TypeError('bad uuid');
  return b;
}
function hexFormat(b) {
  return HEX[b[0]] + HEX[b[1]] + HEX[b[2]] + HEX[b[3]] + '-' + HEX[b[4]] + HEX[b[5]] + '-' + HEX[b[6]] + HEX[b[7]] +
    '-' + HEX[b[8]] + HEX[b[9]] + '-' + HEX[b[10]] + HEX[b[11]] + HEX[b[12]] + HEX[b[13]] + HEX[b[14]] + HEX[b[15]];
}

// Drizzle and Kysely without a database: the SQL and parameters of a
// query, as each builds them before the driver sends anything.  The same
// table shape, with an xid or a uuid primary key.
const { drizzle } = require('drizzle-orm/node-postgres');
const { pgTable, text, uuid: uuidColumn, customType } = require('drizzle-orm/pg-core');
const { eq } = require('drizzle-orm');
const { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, DummyDriver } = require('kysely');
const { xid: xidColumn, timeGte } = require('./drizzle.js');
const kysely = require('./kysely.mjs');

const dz = drizzle.mock();
const xidTable = pgTable('orders_x', { id: xidColumn('id').primaryKey(), item: text('item') });
const uuidTable = pgTable('orders_u', { id: uuidColumn('id').primaryKey(), item: text('item') });
// a custom column that converts nothing: what Drizzle itself costs for a
// custom type, and for an object parameter in place of a string
const plainColumn = customType({ dataType: () => 'public.xid', toDriver: (v) => v });
const plainTable = pgTable('orders_p', { id: plainColumn('id').primaryKey(), item: text('item') });
const kdb = new Kysely({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const times = ids.map((x) => x.time);

let sink = 0;
// the process's CPU time in ns (user and system): on a shared machine a
// case that waits for a core is not charged for the wait, as it would be
// with the wall clock
function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

// repetitions of fn (over the N inputs) that take about 0.1 s
function calibrate(fn) {
  let reps = 1;
  for (;;) {
    const t0 = cpuNs();
    for (let r = 0; r < reps; r++) sink ^= fn();
    if (cpuNs() - t0 > 1e8) return reps;
    reps *= 2;
  }
}

function once(fn, reps) {
  const t0 = cpuNs();
  for (let r = 0; r < reps; r++) sink ^= fn();
  return (cpuNs() - t0) / (reps * N);
}

const cases = {
  'parse: Xid.parse(text)': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= Xid.parse(texts[i]).random;
    return h;
  },
  'parse: uuid.parse(text)': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= uuid.parse(uuidTexts[i])[15];
    return h;
  },
  'parse: UUID hex, hand-written': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= hexParse(uuidTexts[i])[15];
    return h;
  },
  'format: xid.toString()': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= ids[i].toString().length;
    return h;
  },
  'format: uuid.stringify(bytes)': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= uuid.stringify(uuidBytes[i]).length;
    return h;
  },
  'format: UUID hex, hand-written': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= hexFormat(uuidBytes[i]).length;
    return h;
  },
  'generate: xidNew()': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= xidNew().random;
    return h;
  },
  'generate: xidNew().toString()': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= xidNew().toString().length;
    return h;
  },
  'generate: crypto.randomUUID()': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= crypto.randomUUID().length;
    return h;
  },
  'generate: uuid.v4()': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= uuid.v4().length;
    return h;
  },
  'generate: uuid.v7()': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= uuid.v7().length;
    return h;
  },
  'drizzle select by id: xid column, Xid': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.select().from(xidTable).where(eq(xidTable.id, ids[i])).toSQL().params.length;
    return h;
  },
  'drizzle select by id: xid column, text': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.select().from(xidTable).where(eq(xidTable.id, texts[i])).toSQL().params.length;
    return h;
  },
  'drizzle select by id: uuid column': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.select().from(uuidTable).where(eq(uuidTable.id, uuidTexts[i])).toSQL().params.length;
    return h;
  },
  'drizzle select by id: identity column, text': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.select().from(plainTable).where(eq(plainTable.id, texts[i])).toSQL().params.length;
    return h;
  },
  'drizzle select by id: identity column, Xid': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.select().from(plainTable).where(eq(plainTable.id, ids[i])).toSQL().params.length;
    return h;
  },
  'drizzle insert: xid column, Xid': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.insert(xidTable).values({ id: ids[i], item: 'a' }).toSQL().params.length;
    return h;
  },
  'drizzle insert: uuid column': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.insert(uuidTable).values({ id: uuidTexts[i], item: 'a' }).toSQL().params.length;
    return h;
  },
  'drizzle select by time: timeGte(xid)': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= dz.select().from(xidTable).where(timeGte(xidTable.id, times[i])).toSQL().params.length;
    return h;
  },
  'kysely select by id: xid column, Xid': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= kdb.selectFrom('orders_x').selectAll().where('id', '=', ids[i]).compile().parameters.length;
    return h;
  },
  'kysely select by id: uuid column': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= kdb.selectFrom('orders_u').selectAll().where('id', '=', uuidTexts[i]).compile().parameters.length;
    return h;
  },
  'kysely insert: xid column, Xid': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= kdb.insertInto('orders_x').values({ id: ids[i], item: 'a' }).compile().parameters.length;
    return h;
  },
  'kysely insert: uuid column': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= kdb.insertInto('orders_u').values({ id: uuidTexts[i], item: 'a' }).compile().parameters.length;
    return h;
  },
  'kysely select by time: timeGte(xid)': () => {
    let h = 0;
    for (let i = 0; i < N; i++) h ^= kdb.selectFrom('orders_x').selectAll().where(kysely.timeGte('id', times[i])).compile().parameters.length;
    return h;
  },
};

// the cases take turns, round after round, so that a change in the
// machine's load touches them all alike; the best round of each counts
const r = {};
const reps = {};
console.log(`node ${process.version}, uuid ${require('uuid/package.json').version}, drizzle-orm ${pkgVersion('drizzle-orm')}, ` +
  `kysely ${pkgVersion('kysely')}, best of ${rounds} rounds of CPU time, cases interleaved`);
for (const [name, fn] of Object.entries(cases)) {
  reps[name] = calibrate(fn);
  r[name] = Infinity;
}
for (let k = 0; k < rounds; k++) {
  for (const [name, fn] of Object.entries(cases)) r[name] = Math.min(r[name], once(fn, reps[name]));
}
for (const name of Object.keys(cases)) console.log(`${name.padEnd(40)} ${r[name].toFixed(1).padStart(7)} ns/op`);
const fastestUuid = Math.min(r['generate: crypto.randomUUID()'], r['generate: uuid.v4()'], r['generate: uuid.v7()']);
console.log(`ratio parse  (Xid.parse / uuid.parse)                ${(r['parse: Xid.parse(text)'] / r['parse: uuid.parse(text)']).toFixed(2)}`);
console.log(`ratio parse  (Xid.parse / hand-written hex)          ${(r['parse: Xid.parse(text)'] / r['parse: UUID hex, hand-written']).toFixed(2)}`);
console.log(`ratio format (xid.toString / uuid.stringify)         ${(r['format: xid.toString()'] / r['format: uuid.stringify(bytes)']).toFixed(2)}`);
console.log(`ratio format (xid.toString / hand-written hex)       ${(r['format: xid.toString()'] / r['format: UUID hex, hand-written']).toFixed(2)}`);
console.log(`ratio generate (xidNew / fastest UUID generator)      ${(r['generate: xidNew()'] / fastestUuid).toFixed(2)}`);
console.log(`ratio generate text (xidNew().toString / fastest)     ${(r['generate: xidNew().toString()'] / fastestUuid).toFixed(2)}`);
const ratio = (a, b) => (r[a] / r[b]).toFixed(2);
console.log(`ratio drizzle select by id (xid / uuid column)      ${ratio('drizzle select by id: xid column, Xid', 'drizzle select by id: uuid column')}`);
console.log(`ratio drizzle select by id (xid text / uuid column) ${ratio('drizzle select by id: xid column, text', 'drizzle select by id: uuid column')}`);
console.log(`ratio drizzle identity column, text / uuid column   ${ratio('drizzle select by id: identity column, text', 'drizzle select by id: uuid column')}`);
console.log(`ratio drizzle identity column, Xid / uuid column    ${ratio('drizzle select by id: identity column, Xid', 'drizzle select by id: uuid column')}`);
console.log(`ratio drizzle insert (xid / uuid column)            ${ratio('drizzle insert: xid column, Xid', 'drizzle insert: uuid column')}`);
console.log(`ratio kysely select by id (xid / uuid column)       ${ratio('kysely select by id: xid column, Xid', 'kysely select by id: uuid column')}`);
console.log(`ratio kysely insert (xid / uuid column)             ${ratio('kysely insert: xid column, Xid', 'kysely insert: uuid column')}`);
if (sink === 0.5) console.log(sink);
