// The xid extension's own objects that drizzle-kit push compares (its
// sequence): in the schema of drizzle-push.config.ts only.
export { xidDurableMark } from 'xid-pg/drizzle';
