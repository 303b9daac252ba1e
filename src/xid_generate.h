/*-------------------------------------------------------------------------
 *
 * xid_generate.h
 *	  The generator of new xids (xid_generate.c): its per-database state,
 *	  which the durable mark (xid_mark.c) keeps part of, and its setup.
 *
 * The generator calls the mark, never the other way: xid_new() hands the
 * mark its database's state, and xid_generator_status() reads the mark
 * through xid_mark.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_GENERATE_H
#define XID_GENERATE_H

#include "access/xlogdefs.h"
#include "port/atomics.h"
#include "storage/spin.h"

/*
 * What the sessions of one database share: the last id issued there
 * (xid_generate.c) and its durable mark as this server run knows it
 * (xid_mark.c).  Each database has its own, so nothing done in one
 * database moves the ids of another: ids are unique and strictly
 * increasing within each database.  It lives in a shared hash table keyed
 * by the database's OID (XidDbEntry), made at the database's first id and
 * kept while the database exists, so a session may keep a pointer to it.
 */
typedef struct XidDbState
{
	pg_atomic_uint64 last;		/* last value issued in the database */
	pg_atomic_uint64 warned_ms; /* clock of its last run-ahead warning */
	/* under mutex: */
	slock_t		mutex;
	Oid			relid;			/* the mark's sequence, InvalidOid: not read */
	int64		page_ms;		/* the value on its page, as last seen */
	int64		mark_ms;		/* no id of it is beyond this millisecond */
	uint64		floor;			/* ids issued since reading it are above */
	int64		pending_ms;		/* the next mark, written but maybe not */
	XLogRecPtr	pending_lsn;	/* flushed yet (Invalid: none) */
} XidDbState;

/*
 * From _PG_init: the settings xid.node_bits and xid.node_id, the hooks,
 * and with shared_preload_libraries the request for shared memory
 */
extern void xid_generate_init(void);

#endif							/* XID_GENERATE_H */
