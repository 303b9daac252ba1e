// drizzle-kit push: the same, with the extension's sequence in the schema it
// compares, so that push neither drops it nor plans anything for it.
import { defineConfig } from 'drizzle-kit';
import config from './drizzle.config.ts';

export default defineConfig({ ...config, schema: ['./db/schema.ts', './db/xid-extension.ts'] });
