'use strict';
// xid-pg/postgres: public.xid in postgres.js (the "postgres" package).
//
// postgres.js prepares each statement and asks the server for the types of
// its parameters, and sends a Date as timestamptz: `id >= ${date}` already
// means xid_time(id) >= date there.  What this adds: results as Xid (also in
// arrays), and Xid or string parameters checked before they are sent.  The
// type is found by OID (to_regtype('public.xid')), never by the bare name,
// and given to postgres.js through its public `types` option only.

const { Xid } = require('./index.js');

function serialize(x) {
  if (x instanceof Xid) return x.toString();
  // text is checked here, with the server's error, before it is sent
  if (typeof x === 'string') return Xid.parse(x).toString();
  throw new TypeError(`cannot send ${Object.prototype.toString.call(x)} as public.xid: pass an Xid or its text ` +
    '(to compare with a time, pass a Date: postgres.js sends it as timestamptz)');
}

// postgres.js parses an array itself and hands each element's text to this
// parser, a NULL element as the text NULL, which is no xid (4 characters)
function parse(s) {
  return s === 'NULL' ? null : Xid.parse(s);
}

/**
 * The type entry for postgres(url, { types: { xid: xidType(oid) } }), when
 * the OID is known before connecting (postgres.js then adds the array type
 * itself).
 */
function xidType(oid) {
  return { to: oid, from: [oid], serialize, parse };
}

/** Look up the OIDs of SCHEMA.xid and its array type. */
async function lookupTypes(sql, schema = 'public') {
  const rows = await sql`
    SELECT t.oid::int AS oid, t.typarray::int AS array_oid
      FROM pg_type t
     WHERE t.oid = to_regtype(quote_ident(${schema}) || '.xid')`;
  if (rows.length !== 1) {
    throw new Error(`type ${schema}.xid does not exist (CREATE EXTENSION xid SCHEMA ${schema})`);
  }
  return { oid: rows[0].oid, arrayOid: rows[0].array_oid };
}

/**
 * The `types` option of postgres() for SCHEMA.xid (default public): looks
 * the OID up on `sql` (any postgres.js instance on the same database) and
 * returns { xid: xidType(oid) }; postgres.js adds the array type itself.
 */
async function xidTypes(sql, options = {}) {
  const { oid } = await lookupTypes(sql, options.schema);
  return { xid: xidType(oid) };
}

/**
 * postgres(url, options) with public.xid (or options.xidSchema) read and sent
 * as Xid, arrays included, through postgres.js's public `types` option: a
 * first connection looks the OID up and is closed, then the instance is
 * made with the type in its options.
 */
async function connect(url, options) {
  const postgres = require('postgres');
  const [u, o] = typeof url === 'string' ? [url, options || {}] : [undefined, url || {}];
  const { xidSchema, ...rest } = o;
  const open = (opts) => (u === undefined ? postgres(opts) : postgres(u, opts));
  const probe = open({ ...rest, max: 1, onnotice: () => {} });
  let types;
  try {
    types = await xidTypes(probe, { schema: xidSchema });
  } finally {
    await probe.end();
  }
  return open({ ...rest, types: { ...rest.types, ...types } });
}

module.exports = { connect, xidTypes, lookupTypes, xidType, serialize, parse };
