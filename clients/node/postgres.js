'use strict';
// xid-pg/postgres: public.xid in postgres.js (the "postgres" package).
//
// postgres.js prepares each statement and asks the server for the types of
// its parameters, and sends a Date as timestamptz: `id >= ${date}` already
// means xid_time(id) >= date there.  What this adds: results as Xid (also in
// arrays), and Xid or string parameters checked before they are sent.  The
// type is found by OID (to_regtype('public.xid')), never by the bare name.

const { Xid } = require('./index.js');

function serialize(x) {
  if (x instanceof Xid) return x.toString();
  if (typeof x === 'string') return x;
  throw new TypeError(`cannot send ${Object.prototype.toString.call(x)} as public.xid: pass an Xid or its text ` +
    '(to compare with a time, pass a Date: postgres.js sends it as timestamptz)');
}

function parse(s) {
  return Xid.parse(s);
}

// postgres.js hands an array parser marked .array the text after the "{"
function parseArray(s) {
  const body = s.endsWith('}') ? s.slice(0, -1) : s;
  if (body === '') return [];
  if (body.indexOf('{') >= 0) throw new Error('cannot read a multi-dimensional array of xid');
  return body.split(',').map((e) => (e === 'NULL' ? null : Xid.parse(e)));
}
parseArray.array = true;

function serializeArray(xs) {
  return '{' + xs.map((x) => (x === null || x === undefined ? 'NULL' : serialize(x))).join(',') + '}';
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
 * Look up public.xid (or SCHEMA.xid) and read and send it as Xid on every
 * connection of this sql instance, arrays included.  Call it before the
 * first query that reads an xid (postgres.js keeps a statement's parsers).
 */
async function registerTypes(sql, options = {}) {
  const oids = await lookupTypes(sql, options.schema);
  const o = sql.options;
  o.parsers[oids.oid] = parse;
  o.serializers[oids.oid] = serialize;
  o.parsers[oids.arrayOid] = parseArray;
  o.serializers[oids.arrayOid] = serializeArray;
  if (o.shared && o.shared.typeArrayMap) o.shared.typeArrayMap[oids.oid] = oids.arrayOid;
  return oids;
}

module.exports = { registerTypes, lookupTypes, xidType, serialize, parse };
