// The application's Drizzle schema, for drizzle-kit generate and migrate
// and push, with the config files of README's section "drizzle-kit": test.sh.
import { sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { xid } from 'xid-pg/drizzle';

export const kitOrders = pgTable('kit_orders', {
  id: xid('id').primaryKey().default(sql`xid_new()`),
  item: text('item').notNull(),
});

export const kitLines = pgTable('kit_lines', {
  id: xid('id').primaryKey().default(sql`xid_new()`),
  orderId: xid('order_id').notNull().references(() => kitOrders.id),
  related: xid('related').array(),
  qty: integer('qty').notNull(),
});
