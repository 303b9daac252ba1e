'use strict';
// xid-pg/pg: public.xid in node-postgres (the "pg" package).
//
// registerTypes(client) looks the type up by OID (to_regtype('public.xid'),
// never the bare name: that is core's transaction id type) and sets the
// client's own parsers for it and its array type, in text and binary
// format.  Parameters need nothing: an Xid sends its text (toPostgres()),
// and an array of them the array literal.
//
// What it cannot change: node-postgres sends every parameter untyped, so in
// `id >= $1` the server types $1 as public.xid and a Date fails
// ("invalid input syntax for type xid").  Write `id >= $1::timestamptz`,
// which compares xid_time(id) with the time and keeps the index.

const { Xid } = require('./index.js');

/** Look up the OIDs of SCHEMA.xid and its array type; throws when it is not installed. */
async function lookupTypes(client, schema = 'public') {
  // the OIDs come back as text: on a client made with binary: true an
  // int4 in binary format passes through node-postgres's UTF-8 decoding
  // too, and an OID with a byte of 0x80 or above in it comes out wrong
  const res = await client.query({
    text: `SELECT t.oid::text AS oid, t.typarray::text AS array_oid
             FROM pg_type t
            WHERE t.oid = to_regtype(quote_ident($1) || '.xid')`,
    values: [schema],
  });
  if (res.rows.length !== 1) {
    throw new Error(`type ${schema}.xid does not exist (CREATE EXTENSION xid SCHEMA ${schema})`);
  }
  return { oid: Number(res.rows[0].oid), arrayOid: Number(res.rows[0].array_oid) };
}

function parseText(s) {
  return Xid.parse(s);
}

// node-postgres (pg-protocol) decodes every field of a row as UTF-8 text,
// and hands a binary-format field to its parser re-encoded from that text:
// bytes that are no valid UTF-8 are gone by then (each bad sequence became
// U+FFFD, EF BF BD).  So a binary xid arrives intact only when its 8 bytes
// happen to be valid UTF-8; otherwise reading it is an error here, never a
// wrong id.
const REPLACEMENT = Buffer.from([0xef, 0xbf, 0xbd]);

function checkIntact(buf) {
  if (buf.indexOf(REPLACEMENT) >= 0) {
    throw new Error('node-postgres decoded this binary public.xid as UTF-8 text and lost bytes: ' +
      'leave the client\'s binary option off (xid reads exactly in text format)');
  }
}

function parseBinary(buf) {
  checkIntact(buf);
  if (buf.length !== 8) checkIntact(REPLACEMENT);
  return Xid.fromBytes(buf);
}

// "{a,b,NULL}": xid text never needs quotes
function parseTextArray(s) {
  if (s === '{}') return [];
  if (s[0] !== '{' || s[s.length - 1] !== '}' || s.indexOf('{', 1) >= 0) {
    throw new Error(`cannot read ${JSON.stringify(s)} as a one-dimensional array of xid`);
  }
  return s.slice(1, -1).split(',').map((e) => (e === 'NULL' ? null : Xid.parse(e)));
}

// the binary array format: ndim, has-null flag, element OID, then per
// dimension its length and lower bound, then per element its length (-1 for
// NULL) and bytes
function parseBinaryArray(buf) {
  // ndim comes first and is intact whatever follows: an empty array reads
  // even when the element type's OID has a byte the decoding replaced
  const ndim = buf.readInt32BE(0);
  if (ndim === 0) return [];
  checkIntact(buf);
  if (ndim !== 1) throw new Error(`cannot read a ${ndim}-dimensional array of xid`);
  const n = buf.readInt32BE(12);
  const out = new Array(n);
  let pos = 20;
  for (let i = 0; i < n; i++) {
    const len = buf.readInt32BE(pos);
    pos += 4;
    if (len === -1) {
      out[i] = null;
    } else {
      out[i] = Xid.fromBytes(buf.subarray(pos, pos + len));
      pos += len;
    }
  }
  return out;
}

/**
 * Parse public.xid (or SCHEMA.xid) and its arrays as Xid on this client,
 * in text and binary results; returns the OIDs.  For a pg.Pool, call it
 * before the pool's first query: it sets the parsers of the connection it
 * looks the type up on, and the pool's `types`, which every connection made
 * after it takes.
 */
async function registerTypes(client, options = {}) {
  if (isPool(client)) {
    const c = await client.connect();
    try {
      const oids = await lookupTypes(c, options.schema);
      setParsers(c, oids);
      const types = overrides(client.options.types || require('pg').types);
      setParsers(types, oids);
      client.options.types = types;
      return oids;
    } finally {
      c.release();
    }
  }
  const oids = await lookupTypes(client, options.schema);
  setParsers(client, oids);
  return oids;
}

function isPool(x) {
  return typeof x.connect === 'function' && typeof x.totalCount === 'number' && x.options !== undefined;
}

// the shape of pg's TypeOverrides: own parsers, else those of `base`
function overrides(base) {
  const own = { text: new Map(), binary: new Map() };
  return {
    setTypeParser(oid, format, fn) {
      own[format].set(oid, fn);
    },
    getTypeParser(oid, format = 'text') {
      const fn = own[format].get(oid);
      return fn !== undefined ? fn : base.getTypeParser(oid, format);
    },
  };
}

/** Set the parsers for known OIDs on anything with setTypeParser (a Client, pg.types, a TypeOverrides). */
function setParsers(target, { oid, arrayOid }) {
  target.setTypeParser(oid, 'text', parseText);
  target.setTypeParser(oid, 'binary', parseBinary);
  target.setTypeParser(arrayOid, 'text', parseTextArray);
  target.setTypeParser(arrayOid, 'binary', parseBinaryArray);
}

module.exports = { registerTypes, lookupTypes, setParsers };
