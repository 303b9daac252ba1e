/*-------------------------------------------------------------------------
 *
 * xid_shmem.h
 *	  The state that the sessions of a database share (xid_shmem.c): where
 *	  it lives in shared memory, and how a session finds its database's.
 *
 * The generator (xid_generate.c) and the durable mark (xid_mark.c) read
 * and write a database's state; this module only makes it, finds it and
 * forgets it when the database is dropped.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_SHMEM_H
#define XID_SHMEM_H

#include "access/xlogdefs.h"
#include "port/atomics.h"
#include "storage/spin.h"

/*
 * What the sessions of one database share: the last id issued there
 * (xid_generate.c) and its durable mark as this server run knows it
 * (xid_mark.c).  Each database has its own, so nothing done in one
 * database moves the ids of another: ids are unique and strictly
 * increasing within each database.  It lives in a shared hash table keyed
 * by the database's OID, made at the database's first id and kept while
 * the database exists, so a session may keep a pointer to it.
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

/* This session's database's state, once found (xid_db_state) */
extern XidDbState *xid_my_db;

extern XidDbState *xid_db_attach(void);

/*
 * The state of this session's database, shared by all its sessions; an
 * error when it cannot be had (see xid_shmem.c).  A test and a load once
 * found, for xid_new().
 */
static inline XidDbState *
xid_db_state(void)
{
	if (unlikely(xid_my_db == NULL))
		return xid_db_attach();
	return xid_my_db;
}

/*
 * From _PG_init: the hooks that forget a dropped database's state, and
 * with shared_preload_libraries the request for shared memory
 */
extern void xid_shmem_init(void);

#endif							/* XID_SHMEM_H */
