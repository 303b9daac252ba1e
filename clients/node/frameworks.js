'use strict';
// xid-pg's framework glue that needs the framework passed in: drizzle.js and
// zod.js (CommonJS) and drizzle.mjs and zod.mjs (ES modules) each call it
// with the framework of their own kind, so that a program that imports
// drizzle-orm or zod gets schemas made by that same copy.  Not a public
// entry point.

const { Xid } = require('./index.js');

// the text of an xid: 11 Base58 symbols, at most the largest id (Base58 is
// in ASCII order and the length is fixed, so string order is payload order)
const XID_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{11}$/;
const MAX_TEXT = 'jpXCZedGfVQ';

function toText(value) {
  if (value instanceof Xid) return value.toString();
  if (typeof value === 'string') {
    // canonical text goes as it is; anything else gets Xid.parse's error
    if (value.length === 11 && XID_PATTERN.test(value) && value <= MAX_TEXT) return value;
    return Xid.parse(value).toString();
  }
  throw new TypeError(`an xid column takes an Xid or its text, not ${Object.prototype.toString.call(value)} ` +
    '(to compare with a time, use timeGte/timeGt/timeLt/timeLte from xid-pg/drizzle)');
}

function fromText(value) {
  return value instanceof Xid ? value : Xid.parse(value);
}

// the ISO text of a Date, for $1::timestamptz
function isoTime(t) {
  if (!(t instanceof Date) || Number.isNaN(t.getTime())) {
    throw new TypeError(`a time comparison of an xid takes a valid Date, not ${Object.prototype.toString.call(t)}`);
  }
  return t.toISOString();
}

function makeDrizzle(sql, customType, pgSequence) {
  // drizzle-kit writes a custom type as one quoted name ("public.xid" would
  // be a type of that name) and compares it with information_schema's
  // udt_name, xid: so the type is xid, which is public.xid where the
  // search_path puts public before pg_catalog (README, drizzle-kit)
  const xid = customType({
    dataType() {
      return 'xid';
    },
    toDriver: toText,
    fromDriver: fromText,
  });
  const cmp = (op) => (column, t) => sql`${column} ${sql.raw(op)} ${isoTime(t)}::timestamptz`;
  // the extension's sequence as drizzle-kit pull writes it: in the schema
  // that drizzle-kit push compares, so that push leaves it alone
  const xidDurableMark = pgSequence('xid_durable_mark', {
    startWith: 0, increment: 1, minValue: 0, maxValue: 4398046511103, cache: 1, cycle: false,
  });
  return {
    xid,
    xidDurableMark,
    timeGte: cmp('>='),
    timeGt: cmp('>'),
    timeLt: cmp('<'),
    timeLte: cmp('<='),
    startsWith(column, prefix) {
      if (typeof prefix !== 'string') throw new TypeError('startsWith() takes the prefix as a string');
      return sql`${column} ^@ ${prefix}::text`;
    },
  };
}


function makeZod(z) {
  const xidText = z.string()
    .regex(XID_PATTERN, { message: 'invalid input syntax for type xid: an xid is written as exactly 11 Base58 symbols' })
    .refine((s) => s <= MAX_TEXT, { message: `value is out of range for type xid: the largest xid is "${MAX_TEXT}"` });
  // an Xid is taken as its text, so that a bad id gets xidText's message
  // (a union would say only "Invalid input") and the input's JSON schema
  // (z.toJSONSchema(schema, { io: 'input' })) is xidText's
  const xid = z.preprocess((v) => (v instanceof Xid ? v.toString() : v), xidText).transform((s) => Xid.parse(s));
  return { xidText, xid };
}

module.exports = { makeDrizzle, makeZod, toText, fromText, isoTime, XID_PATTERN };
