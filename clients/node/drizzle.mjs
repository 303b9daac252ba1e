// xid-pg/drizzle for import: the same as drizzle.js, with the ES module
// build of drizzle-orm.
import { sql } from 'drizzle-orm';
import { customType, pgSequence } from 'drizzle-orm/pg-core';
import frameworks from './frameworks.js';

export const { xid, xidDurableMark, timeGte, timeGt, timeLt, timeLte, startsWith } =
  frameworks.makeDrizzle(sql, customType, pgSequence);
