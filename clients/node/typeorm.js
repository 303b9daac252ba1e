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

/**
 * The same for a column that is also a relation's join column (a parentId
 * beside @ManyToOne parent): the entity keeps the id's text, checked.
 * TypeORM reads an object in a join column as the related entity and takes
 * its primary key from it, so an Xid there would be written as NULL: give
 * that property text (id.toString()), or set the relation ({ parent: { id } }).
 */
const xidTextTransformer = {
  to(value) {
    return value === null || value === undefined ? value : toText(value);
  },
  from(value) {
    if (value === null || value === undefined) return value;
    return value instanceof Xid ? value.toString() : Xid.parse(value).toString();
  },
};

module.exports = { xidTransformer, xidTextTransformer };
