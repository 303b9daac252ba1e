// xid-pg/kysely: comparisons of a public.xid column in Kysely that are
// index ranges on it (the server's operators and planner support):
//   timeGte('orders.id', date)   id >= $1::timestamptz, xid_time(id) >= date
//   timeGt, timeLt, timeLte       the same for >, <, <=
//   startsWith('orders.id', s)    id ^@ $1, the ids whose text starts with s
// Kysely's own where('id', '=', x), '>=', 'in' and 'like' work as they are
// with an Xid or its text; results are Xid when the pg pool is registered
// with xid-pg/pg's registerTypes(pool).  Kysely is an ES module only, and so
// is this file (require() loads it on Node 22.12 and later).
import { sql } from 'kysely';
import frameworks from './frameworks.js';

const cmp = (op) => (column, t) => sql`${sql.ref(column)} ${sql.raw(op)} ${frameworks.isoTime(t)}::timestamptz`;

export const timeGte = cmp('>=');
export const timeGt = cmp('>');
export const timeLt = cmp('<');
export const timeLte = cmp('<=');

export function startsWith(column, prefix) {
  if (typeof prefix !== 'string') throw new TypeError('startsWith() takes the prefix as a string');
  return sql`${sql.ref(column)} ^@ ${prefix}::text`;
}
