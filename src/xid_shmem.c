/*-------------------------------------------------------------------------
 *
 * xid_shmem.c
 *	  Where the state that the sessions of a database share lives: the
 *	  shared hash table of the databases' states (XidDbState), how a
 *	  session finds its database's entry, and how a dropped database's
 *	  entry goes.
 *
 * The table is a dshash table in a DSA area of its own, made by the first
 * session of the server run that needs it, which grows with the number of
 * databases.  Only the small fixed part that says where the table is
 * (XidSharedState) has to be found by name, and it is found in one of
 * three places:
 *
 * - with shared_preload_libraries (any version): in the server's shared
 *   memory, asked for at start-up (xid_shmem_request, xid_shmem_startup),
 *   its lock of a tranche named then;
 * - otherwise on 17 and later: in the DSM registry;
 * - otherwise on 15 and 16: in the shared memory that the server keeps
 *   spare beyond what its own structures and the preloaded libraries asked
 *   for (about 100 kB), taken with ShmemInitStruct() when the first session
 *   needs it, as contrib's pg_prewarm takes its autoprewarm state when it
 *   is not preloaded (apw_init_shmem, under AddinShmemInitLock); its lock's
 *   tranche comes from LWLockNewTrancheId(), and each process names it
 *   itself.  The fixed part takes a few dozen bytes of it, the table none
 *   (DSA areas are dynamic shared memory).  When the spare memory is used
 *   up, xid_new() fails with an error that says to preload the library:
 *   there is no per-session fallback, as ids made per session can repeat
 *   another session's.
 *
 * Every path gives the same table, so the generator (xid_generate.c) and
 * the durable mark (xid_mark.c) work the same on all of them.  At a
 * restart, or the crash restart of the server's processes, the fixed part
 * and the area go with the shared memory; the next run's first session
 * makes them anew, and the durable mark puts its database's ids above every
 * id of the runs before.  Within a run an entry stays while its database
 * exists: the durable mark's floor could not be read again (xid_mark.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_database.h"
#include "lib/dshash.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/dsa.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "compat.h"
#include "xid_shmem.h"

/* compat.h says whether there is one */
#ifdef XID_HAVE_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif

/*
 * The name of the fixed part in the server's shared memory when the library
 * is preloaded (any version).
 */
#define XID_SHMEM_NAME	"xid"

/*
 * Its name otherwise: in the DSM registry (17+), or in the spare shared
 * memory (15 and 16).  Not "xid": 1.0's library registered a smaller state
 * under that name in the DSM registry, and a server that had loaded it
 * still holds it until restarted (nor "xid_generator" or "xid_databases",
 * the layouts 1.1 had before it was released).
 */
#define XID_LATE_NAME	"xid_database_table"

/* The LWLock tranche of the fixed part's lock, the area and the table */
#define XID_TRANCHE_NAME	"xid"

/*
 * The table is searched for the entries of dropped databases when it has
 * twice as many entries as after the last search, and at least this many:
 * a search costs a catalog lookup per entry, so it runs rarely enough
 * that its cost per new entry stays constant.
 */
#define XID_SWEEP_MIN	64

/*
 * The fixed part of the shared state: where the table of the databases'
 * generator states is.  The first session that needs the table makes it
 * (see the file header).
 */
typedef struct XidSharedState
{
	LWLock		lock;			/* guards the rest */
	int			tranche_id;		/* of lock, the area and the table */
	bool		made;			/* the area and table exist: */
	dsa_handle	area;
	dshash_table_handle table;
	int			entries;		/* entries added less those removed */
	int			sweep_at;		/* look for dropped databases at this many */
} XidSharedState;

/*
 * An entry of the table, a database's generator state, padded on both
 * sides: sessions of different databases compare-and-swap their own last
 * values without sharing a cache line.
 */
typedef struct XidDbEntry
{
	Oid			dbid;			/* the key */
	pg_atomic_uint32 sessions;	/* sessions that point at it */
	char		pad_before[PG_CACHE_LINE_SIZE];
	XidDbState	db;
	char		pad_after[PG_CACHE_LINE_SIZE];
} XidDbEntry;

static XidSharedState *shared_state = NULL;
static bool shared_state_looked_up = false;

/* This session's view of the table, once attached */
static dsa_area *table_area = NULL;
static dshash_table *db_table = NULL;

/* The databases this transaction drops, whose entries go at its commit */
static List *dropped_databases = NIL;

/* The entry of this session's database, once attached */
static XidDbEntry *my_entry = NULL;
XidDbState *xid_my_db = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;
static object_access_hook_type prev_object_access_hook = NULL;

static void
xid_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(XidSharedState)));
	RequestNamedLWLockTranche(XID_TRANCHE_NAME, 1);
}

static void
xid_init_state(XidSharedState *state, int tranche_id)
{
	LWLockInitialize(&state->lock, tranche_id);
	state->tranche_id = tranche_id;
	state->made = false;
	state->entries = 0;
	state->sweep_at = XID_SWEEP_MIN;
}

#ifdef XID_HAVE_DSM_REGISTRY
/* The same, as the DSM registry calls it (17+, not preloaded) */
static void
xid_dsm_init_state(XID_DSM_INIT_PARAMS)
{
	xid_init_state((XidSharedState *) ptr,
				   XID_NEW_TRANCHE_ID(XID_TRANCHE_NAME));
}
#endif

static void
xid_shmem_startup(void)
{
	bool		found;
	XidSharedState *state;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	state = ShmemInitStruct(XID_SHMEM_NAME, sizeof(XidSharedState), &found);
	if (!found)
		xid_init_state(state,
					   GetNamedLWLockTranche(XID_TRANCHE_NAME)[0].lock.tranche);
	LWLockRelease(AddinShmemInitLock);
	shared_state = state;
	shared_state_looked_up = true;
}

#ifndef XID_HAVE_DSM_REGISTRY
/*
 * 15 and 16 without shared_preload_libraries: the fixed part from the
 * server's spare shared memory (see the file header), or NULL when it does
 * not fit there; then *why is ShmemInitStruct()'s error.  The first session
 * of the server run makes it; the others find it, and need no memory.
 */
static XidSharedState *
xid_spare_state(ErrorData **why)
{
	MemoryContext cxt = CurrentMemoryContext;
	XidSharedState *volatile state = NULL;
	uint32		holdoff;
	bool		found = false;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	holdoff = InterruptHoldoffCount;
	PG_TRY();
	{
		state = ShmemInitStruct(XID_LATE_NAME, sizeof(XidSharedState), &found);
	}
	PG_CATCH();
	{
		/*
		 * Out of spare memory: ShmemInitStruct() released its own lock and
		 * took back its index entry.  The error reset the count of held
		 * interrupts, which the lock still held here counts in (errfinish()
		 * lets a handler set it back).
		 */
		InterruptHoldoffCount = holdoff;
		MemoryContextSwitchTo(cxt);
		*why = CopyErrorData();
		FlushErrorState();
		state = NULL;
	}
	PG_END_TRY();
	if (state != NULL && !found)
		xid_init_state(state, XID_NEW_TRANCHE_ID(XID_TRANCHE_NAME));
	LWLockRelease(AddinShmemInitLock);
	if (state != NULL)
		XID_REGISTER_TRANCHE(state->tranche_id, XID_TRANCHE_NAME);
	return state;
}
#endif

/*
 * The fixed part of the shared state, found once.  Without it (15 and 16
 * without shared_preload_libraries, the spare shared memory used up): an
 * error, or NULL with missing_ok, and looked for again next time.
 */
static XidSharedState *
xid_shared_state(bool missing_ok)
{
	if (!shared_state_looked_up)
	{
#ifdef XID_HAVE_DSM_REGISTRY
		bool		found;

		shared_state = XID_GET_NAMED_DSM_SEGMENT(XID_LATE_NAME,
												 sizeof(XidSharedState),
												 xid_dsm_init_state, &found);
		XID_REGISTER_TRANCHE(shared_state->tranche_id, XID_TRANCHE_NAME);
#else
		ErrorData  *why = NULL;

		shared_state = xid_spare_state(&why);
		if (shared_state == NULL)
		{
			if (missing_ok)
				return NULL;
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("not enough shared memory for the state of xid_new()"),
					 errdetail("The xid library is not in shared_preload_libraries, so it takes its state from the shared memory the server keeps spare, and that is used up: %s.",
							   why->message),
					 errhint("Add xid to shared_preload_libraries and restart the server.")));
		}
#endif
		shared_state_looked_up = true;
	}
	return shared_state;
}

/*
 * Attach this session to the table of the databases' generator states,
 * making it if no session has yet.  The area stays mapped, and the table
 * attached, for the rest of the session.
 */
static void
xid_attach_table(XidSharedState *state)
{
	dshash_parameters params;
	MemoryContext old;

	memset(&params, 0, sizeof(params));
	params.key_size = sizeof(Oid);
	params.entry_size = sizeof(XidDbEntry);
	params.compare_function = dshash_memcmp;
	params.hash_function = dshash_memhash;
	XID_DSHASH_SET_COPY(params);
	params.tranche_id = state->tranche_id;

	old = MemoryContextSwitchTo(TopMemoryContext);
	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	if (!state->made)
	{
		table_area = dsa_create(state->tranche_id);
		dsa_pin(table_area);
		dsa_pin_mapping(table_area);
		db_table = dshash_create(table_area, &params, NULL);
		state->table = dshash_get_hash_table_handle(db_table);
		state->area = dsa_get_handle(table_area);
		state->made = true;
	}
	else
	{
		table_area = dsa_attach(state->area);
		dsa_pin_mapping(table_area);
		db_table = dshash_attach(table_area, &params, state->table, NULL);
	}
	LWLockRelease(&state->lock);
	MemoryContextSwitchTo(old);
}

/* At exit, a session no longer points at its database's entry */
static void
xid_detach(int code, Datum arg)
{
	pg_atomic_fetch_sub_u32(&my_entry->sessions, 1);
	my_entry = NULL;
	xid_my_db = NULL;
}

/*
 * Count a new entry, and remove the entries of databases that no longer
 * exist when the table has grown enough since the last search
 * (XID_SWEEP_MIN).  An entry that a
 * session points at is never removed: only the sessions of its own
 * database do, and once its database is dropped there are none.  The
 * catalog is read with no lock of the table held; each entry is removed
 * under its partition's lock, once no session points at it.
 */
static void
xid_sweep(XidSharedState *state)
{
	dshash_seq_status scan;
	XidDbEntry *entry;
	Oid		   *dbids;
	int			n = 0;
	int			size = 64;
	int			removed = 0;
	bool		due;
	int			i;

	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	state->entries++;
	due = state->entries >= state->sweep_at;
	if (due)
		state->sweep_at = 2 * state->entries;	/* one session searches */
	LWLockRelease(&state->lock);
	if (!due)
		return;

	dbids = palloc(size * sizeof(Oid));
	dshash_seq_init(&scan, db_table, false);
	while ((entry = dshash_seq_next(&scan)) != NULL)
	{
		if (n == size)
		{
			size *= 2;
			dbids = repalloc(dbids, size * sizeof(Oid));
		}
		dbids[n++] = entry->dbid;
	}
	dshash_seq_term(&scan);

	/* see every database committed before now */
	AcceptInvalidationMessages();
	for (i = 0; i < n; i++)
	{
		if (dbids[i] == MyDatabaseId ||
			SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(dbids[i])))
			continue;
		entry = dshash_find(db_table, &dbids[i], true);
		if (entry == NULL)
			continue;
		if (pg_atomic_read_u32(&entry->sessions) == 0)
		{
			dshash_delete_entry(db_table, entry);
			removed++;
		}
		else
			dshash_release_lock(db_table, entry);
	}
	pfree(dbids);

	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	state->entries -= removed;
	state->sweep_at = Max(XID_SWEEP_MIN, 2 * state->entries);
	LWLockRelease(&state->lock);
	ereport(DEBUG1,
			(errmsg_internal("xid: removed the generator state of %d dropped databases, %d remain",
							 removed, n - removed)));
}

/*
 * Attach this session to its database's entry in the table, making the
 * entry at the database's first id in this server run.  Only this
 * database's sessions make, read or write it; another database can
 * neither take it nor make this one wait beyond the partition lock of the
 * table, held for the lookup.  The entry stays while the database exists,
 * so its last value and mark never restart within a server run (on a
 * standby, and for a database whose extension predates the mark, they
 * could not be read again).  True when the entry is new.
 */
static bool
xid_attach(XidSharedState *state)
{
	XidDbEntry *entry;
	bool		found;

	if (db_table == NULL)
		xid_attach_table(state);
	entry = dshash_find_or_insert(db_table, &MyDatabaseId, &found);
	if (!found)
	{
		XidDbState *db = &entry->db;

		pg_atomic_init_u32(&entry->sessions, 0);
		memset(db, 0, sizeof(*db));
		pg_atomic_init_u64(&db->last, 0);
		pg_atomic_init_u64(&db->warned_ms, 0);
		SpinLockInit(&db->mutex);
		db->relid = InvalidOid;
		db->pending_lsn = InvalidXLogRecPtr;
	}
	pg_atomic_fetch_add_u32(&entry->sessions, 1);
	dshash_release_lock(db_table, entry);
	my_entry = entry;
	xid_my_db = &entry->db;
	before_shmem_exit(xid_detach, (Datum) 0);
	return !found;
}

/*
 * Remove a dropped database's entry, unless a session points at it (none
 * does once the drop has committed: dropdb() waited for the database's
 * sessions to exit, and each left the entry at its exit)
 */
static void
xid_forget_database(XidSharedState *state, Oid dbid)
{
	XidDbEntry *entry = dshash_find(db_table, &dbid, true);

	if (entry == NULL)
		return;
	if (pg_atomic_read_u32(&entry->sessions) != 0)
	{
		dshash_release_lock(db_table, entry);
		return;
	}
	dshash_delete_entry(db_table, entry);
	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	state->entries--;
	LWLockRelease(&state->lock);
	ereport(DEBUG1,
			(errmsg_internal("xid: removed the generator state of database %u", dbid)));
}

/*
 * DROP DATABASE, in a session that has loaded the library (every session
 * when it is preloaded): note the database, attached to the table now,
 * where an error can still abort the drop, and remove its entry when the
 * drop commits (the hook runs before dropdb() checks that the database
 * can be dropped, which may still fail).  Databases dropped where the
 * library was not loaded, or on a standby, which replays the drop, leave
 * their entries to xid_sweep().
 */
static void
xid_object_access(ObjectAccessType access, Oid classId, Oid objectId,
				  int subId, void *arg)
{
	if (prev_object_access_hook)
		prev_object_access_hook(access, classId, objectId, subId, arg);
	if (access == OAT_DROP && classId == DatabaseRelationId)
	{
		XidSharedState *state = xid_shared_state(true);
		bool		made;
		MemoryContext old;

		if (state == NULL)
			return;
		LWLockAcquire(&state->lock, LW_SHARED);
		made = state->made;
		LWLockRelease(&state->lock);
		if (!made)
			return;
		if (db_table == NULL)
			xid_attach_table(state);
		old = MemoryContextSwitchTo(TopMemoryContext);
		dropped_databases = lappend_oid(dropped_databases, objectId);
		MemoryContextSwitchTo(old);
	}
}

/* At the end of a transaction that dropped databases */
static void
xid_xact_callback(XactEvent event, void *arg)
{
	ListCell   *lc;

	if (dropped_databases == NIL)
		return;
	if (event == XACT_EVENT_COMMIT)
	{
		foreach(lc, dropped_databases)
			xid_forget_database(shared_state, lfirst_oid(lc));
	}
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT)
	{
		list_free(dropped_databases);
		dropped_databases = NIL;
	}
}

/*
 * Find this session's database's state, once (xid_db_state): attach to
 * its entry in the table, and look for the entries of dropped databases
 * when the entry is new.  An error when there is no shared state.
 */
XidDbState *
xid_db_attach(void)
{
	XidSharedState *state = xid_shared_state(false);

	if (xid_attach(state))
		xid_sweep(state);
	return xid_my_db;
}

/*
 * From _PG_init, in every session that loads the library: the hooks that
 * forget the state of a dropped database.  With shared_preload_libraries,
 * also ask for the shared memory of the fixed part.
 */
void
xid_shmem_init(void)
{
	prev_object_access_hook = object_access_hook;
	object_access_hook = xid_object_access;
	RegisterXactCallback(xid_xact_callback, NULL);

	if (process_shared_preload_libraries_in_progress)
	{
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = xid_shmem_request;
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = xid_shmem_startup;
	}
}
