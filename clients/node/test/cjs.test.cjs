'use strict';
// Every entry point of xid-pg loads with require() (CommonJS) and gives the
// same classes as with import (test/frameworks.test.mjs, README): one Xid,
// whichever way it was loaded.
const assert = require('node:assert/strict');
const { test, run } = require('./harness.js');

test('require: every CommonJS entry point, with its named exports', () => {
  const want = {
    'xid-pg': ['Xid', 'XidError', 'XidGenerator', 'xidNew', 'xidAt', 'prefixBounds', 'likeBounds', 'timeLowerBound', 'timeUpperBound'],
    'xid-pg/pg': ['registerTypes', 'lookupTypes', 'setParsers'],
    'xid-pg/postgres': ['connect', 'xidTypes', 'lookupTypes', 'xidType', 'serialize', 'parse'],
    'xid-pg/drizzle': ['xid', 'xidDurableMark', 'timeGte', 'timeGt', 'timeLt', 'timeLte', 'startsWith'],
    'xid-pg/typeorm': ['xidTransformer', 'xidTextTransformer'],
    'xid-pg/zod': ['xid', 'xidText'],
  };
  for (const [name, keys] of Object.entries(want)) {
    const m = require(name);
    for (const k of keys) assert.ok(m[k] !== undefined, `${name}: ${k}`);
  }
  const { Xid } = require('xid-pg');
  assert.ok(require('xid-pg/zod').xid.parse('5cnEkaefSdu') instanceof Xid);
  assert.ok(require('xid-pg/typeorm').xidTransformer.from('5cnEkaefSdu') instanceof Xid);
});

test('import and require give the same Xid class (no dual-package hazard)', async () => {
  const esm = await import('xid-pg');
  const cjs = require('xid-pg');
  assert.equal(esm.Xid, cjs.Xid);
  const ezod = await import('xid-pg/zod');
  assert.ok(ezod.xid.parse('5cnEkaefSdu') instanceof cjs.Xid);
  const edrizzle = await import('xid-pg/drizzle');
  assert.equal(typeof edrizzle.xid, 'function');
});

test('xid-pg/kysely is an ES module: import() loads it; require() does on Node 22.12 and later', async () => {
  const k = await import('xid-pg/kysely');
  assert.equal(typeof k.timeGte, 'function');
  // process.features.require_module: require() of an ES module (Node 20.19, 22.12 on)
  if (process.features.require_module) assert.equal(typeof require('xid-pg/kysely').startsWith, 'function');
  else assert.throws(() => require('xid-pg/kysely'), { code: 'ERR_REQUIRE_ESM' });
});

run('cjs: ').then((failed) => process.exit(failed ? 1 : 0));
