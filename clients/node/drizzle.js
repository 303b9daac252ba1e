'use strict';
// xid-pg/drizzle: public.xid in Drizzle ORM (drizzle-orm/pg-core).
//
// xid('id') is the column type: values are Xid, written as text, read from
// text or from an Xid (when xid-pg/pg's registerTypes already parsed it).
// The comparisons below are the server's operators, so each is an index
// range on the column (the extension's planner support):
//   timeGte(orders.id, date)   id >= $1::timestamptz, xid_time(id) >= date
//   timeGt, timeLt, timeLte    the same for >, <, <=
//   startsWith(orders.id, s)   id ^@ $1, the ids whose text starts with s
// xidDurableMark is the extension's sequence, for the schema that
// drizzle-kit push compares (README: push would drop it otherwise).
// Drizzle's own eq/gt/inArray/between/like on an xid column work as they
// are (like is the server's xid ~~ text, also indexed); only a Date needs
// the time helpers, since the server reads `id >= $1` as an xid.
//
// This file is the CommonJS build; drizzle.mjs is the same for import, each
// with the drizzle-orm of its own kind.

const { sql } = require('drizzle-orm');
const { customType, pgSequence } = require('drizzle-orm/pg-core');
const { makeDrizzle } = require('./frameworks.js');

module.exports = makeDrizzle(sql, customType, pgSequence);
