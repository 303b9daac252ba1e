// Types of xid-pg/typeorm.
import type { Xid } from './index.js';

/** TypeORM's ValueTransformer for a public.xid column declared { type: 'text' }. */
export declare const xidTransformer: {
  to(value: Xid | string | null | undefined): string | null | undefined;
  from(value: Xid | string | null | undefined): Xid | null | undefined;
};
