// drizzle-kit generate, migrate and pull.  The connection puts public
// before pg_catalog in its search_path: drizzle-kit writes the column type
// as "xid", which is then the extension's public.xid, not core's
// pg_catalog.xid.
import { defineConfig } from 'drizzle-kit';

export const url = `postgres://${process.env.PGUSER}@${process.env.PGHOST}:${process.env.PGPORT}/${process.env.KIT_DATABASE}`
  + '?options=-c%20search_path%3Dpublic%2Cpg_catalog';

export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './drizzle',
  dbCredentials: { url },
});
