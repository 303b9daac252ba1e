// xid-pg/zod for import: the same as zod.js, with the ES module build of zod.
import { z } from 'zod';
import frameworks from './frameworks.js';

export const { xidText, xid } = frameworks.makeZod(z);
