/*-------------------------------------------------------------------------
 *
 * xid_mark.h
 *	  The durable mark (xid_mark.c), as the generator uses it: ids that
 *	  never go back across restarts, crashes, clock steps and failover.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_MARK_H
#define XID_MARK_H

#include "xid_shmem.h"

/*
 * A lease moves the durable mark this far past the id that needs it; a
 * time field further than XID_AHEAD_WARN_MS ahead of the clock is worth a
 * warning.  A restart within a lease puts new ids at most a lease ahead of
 * the clock, which is not.
 */
#define XID_LEASE_MS		1000
#define XID_AHEAD_WARN_MS	1000

/*
 * The mark this session last saw: ids whose millisecond is at or below it
 * need no call of xid_mark_cover() (see xid_mark.c)
 */
extern int64 xid_mark_covered_ms;

/* From _PG_init: the setting xid.max_ahead */
extern void xid_mark_init(void);

extern bool xid_mark_cover(XidDbState *db, uint64 next);
extern void xid_check_ahead(XidDbState *db, uint64 next, int64 now_ms);

/* For xid_generator_status(): the mark's sequence, and its value */
extern Oid	xid_mark_relid(void);
extern bool xid_mark_read(Oid relid, int64 *mark);

#endif							/* XID_MARK_H */
