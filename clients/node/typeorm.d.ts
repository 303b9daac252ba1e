// Types of xid-pg/typeorm.
import type { Xid } from './index.js';

/** TypeORM's ValueTransformer for a public.xid column declared { type: 'text' }. */
export declare const xidTransformer: {
  to(value: Xid | string | null | undefined): string | null | undefined;
  from(value: Xid | string | null | undefined): Xid | null | undefined;
};
/**
 * For a column that is also a relation's join column (parentId beside a
 * @ManyToOne parent): the entity keeps the text.  Write text there too
 * (id.toString()) or set the relation: TypeORM takes an Xid object in a
 * join column for the related entity and writes NULL.
 */
export declare const xidTextTransformer: {
  to(value: Xid | string | null | undefined): string | null | undefined;
  from(value: Xid | string | null | undefined): string | null | undefined;
};
