// Types of xid-pg/zod: Zod 4 schemas for an xid.
import type { z } from 'zod';
import type { Xid } from './index.js';

/** The text of an xid (11 Base58 symbols, at most jpXCZedGfVQ), kept as a string. */
export declare const xidText: z.ZodString;
/** An Xid, or its text parsed to an Xid. */
export declare const xid: z.ZodType<Xid, Xid | string>;
