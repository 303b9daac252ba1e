'use strict';
// xid-pg/typeorm: a public.xid column in TypeORM.
//
// TypeORM checks every column type against its own list for PostgreSQL,
// which has no xid (DataTypeNotSupportedError for type 'public.xid'): so
// the column is declared as text with this transformer, and created by a
// migration that says public.xid (synchronize would make it text):
//   { type: 'text', primary: true, transformer: xidTransformer }
// Parameters go untyped, so the server reads them as public.xid; values come
// back as Xid (from text, or from an Xid when xid-pg/pg's registerTypes
// parsed it).  No import of typeorm is needed.

const { Xid } = require('./index.js');
const { toText } = require('./frameworks.js');

/** TypeORM's ValueTransformer for an xid column: Xid in the entity, text to the driver. */
const xidTransformer = {
  to(value) {
    // a FindOperator (LessThan(x) ...) is transformed by TypeORM per value
    return value === null || value === undefined ? value : toText(value);
  },
  from(value) {
    return value === null || value === undefined || value instanceof Xid ? value : Xid.parse(value);
  },
};

module.exports = { xidTransformer };
