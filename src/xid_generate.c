/*-------------------------------------------------------------------------
 *
 * xid_generate.c
 *	  Generation of new xids: xid_new() and xid_new(timestamptz), the node
 *	  number settings, and xid_generator_status().
 *
 * xid_new() returns 42 bits of milliseconds since the epoch and 22 further
 * bits, and guarantees that values are unique and strictly increasing:
 *
 * - across all sessions of a database, when the last value issued there is
 *   kept in shared memory: through shared_preload_libraries (any version),
 *   or else through the DSM registry (17+, no configuration);
 * - within one session otherwise.
 *
 * Each database has its own last value (XidDbState, its entry in a shared
 * hash table keyed by its OID, which no other database can take): what one
 * database does, a far-ahead durable mark and any number of databases
 * included, never moves the time field of another's ids nor makes
 * xid_new() wait there.  Two databases of one server draw their ids
 * independently, as two servers do.
 *
 * The last value is updated with a 64-bit compare-and-swap, never a lock.
 * In a new millisecond the low 22 bits start from a fresh random value in
 * their lower half.  In the same millisecond as the last value (or when the
 * clock went back) the next value is the last plus a random step of 1 to 32;
 * when that would leave the millisecond, the value borrows the next
 * millisecond with a fresh random start.  The lower-half start leaves room
 * for at least 65,536 ids in every millisecond (2^21 / 32), so the time field
 * runs ahead of the clock only while ids are asked for faster than that, or
 * until the clock has caught up after going back.  (A start anywhere in the
 * 22 bits would, at 10,000 ids/ms with larger steps, borrow in a large share
 * of milliseconds and put ids ahead of the clock with no overload at all.)
 *
 * With xid.node_bits = b > 0 the top b of the 22 bits hold xid.node_id and
 * the rest, 22 - b bits, work as above: a new millisecond starts in the
 * lower half of them, and the largest step shrinks with their room (32 >>
 * b, at least 1), so that every millisecond keeps room for at least
 * min(65,536, 2^(21 - b)) ids.  Servers with different node ids can never
 * make the same id.  In a millisecond whose last value has another node
 * number (only after a change of layout), a higher node number starts
 * fresh in the same millisecond and a lower one borrows the next.
 *
 * Ids never go back, also across restarts, crashes, clock steps and
 * failover: no id is returned before the database's durable mark covers
 * its millisecond, and a server run starts above the mark (xid_mark.c has
 * the design and why; README the guarantee and where it does not hold).
 * The check is one comparison with the mark this session last saw; the
 * mark moves once a second at most, one WAL record each time.  With the
 * clock behind the mark, ids run ahead of it as when it goes back within
 * a run; xid.max_ahead may bound how far (xid_check_ahead).
 *
 * The clock is read once per value (xid_now_ms), nothing cleverer.  The
 * random bits are a tie-breaker, not a secret: they come from a per-backend
 * PRNG seeded once from strong randomness, not from a system call per value.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_database.h"
#include "common/pg_prng.h"
#include "funcapi.h"
#include "lib/dshash.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/dsa.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "xid.h"
#include "xid_generate.h"
#include "xid_mark.h"
#include "xid_time.h"

/* compat.h says whether there is one */
#ifdef XID_HAVE_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif

/* Largest random step within a millisecond, a power of two */
#define XID_MAX_STEP	32

/*
 * The name of the fixed part of the shared state in the DSM registry.  Not
 * "xid": 1.0's library registered a smaller state under that name, and a
 * server that had loaded it still holds it until restarted (nor
 * "xid_generator" or "xid_databases", the layouts 1.1 had before it was
 * released).
 */
#define XID_DSM_NAME	"xid_database_table"

/* The LWLock tranche of the shared state, its area and its table */
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
 * generator states is.  The first session that needs the table makes it,
 * in a DSA area of its own, which grows with the number of databases.
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

/*
 * xid.node_bits and xid.node_id: the node number xid_new() puts into the
 * top bits of the 22 low bits.  -1 is "not set".  They are set in the
 * server's configuration and take effect on reload (PGC_SIGHUP), never per
 * session: a session cannot claim another server's node number.  A reload
 * cannot make the server repeat an id: each session reads the whole file at
 * a command boundary, so it never makes an id with one new value and one
 * old, and every id is above its database's last one whatever the layout
 * (see the file header).  PGC_POSTMASTER is not an option: PostgreSQL
 * allows it only for libraries in shared_preload_libraries, and on 17+ xid
 * works without.  Whether the pair fits is checked where it is used
 * (xid_node_layout), and at server start when preloaded, as a check hook
 * cannot see a value that comes later in postgresql.conf.
 */
static int	xid_node_bits = 0;
static int	xid_node_id = -1;

static XidSharedState *shared_state = NULL;
static bool shared_state_looked_up = false;

/* This session's view of the table, once attached */
static dsa_area *table_area = NULL;
static dshash_table *db_table = NULL;

/* The databases this transaction drops, whose entries go at its commit */
static List *dropped_databases = NIL;

/* The entry of this session's database, once attached */
static XidDbEntry *my_entry = NULL;
static XidDbState *my_db = NULL;
static bool my_db_looked_up = false;

/* The last value issued in this session, when nothing is shared */
static pg_atomic_uint64 local_last;

static pg_prng_state prng;
static bool prng_seeded = false;

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
	state = ShmemInitStruct("xid", sizeof(XidSharedState), &found);
	if (!found)
		xid_init_state(state,
					   GetNamedLWLockTranche(XID_TRANCHE_NAME)[0].lock.tranche);
	LWLockRelease(AddinShmemInitLock);
	shared_state = state;
	shared_state_looked_up = true;
}

/*
 * Called from _PG_init while shared_preload_libraries are loaded: ask for
 * the shared state, so that every version orders values across sessions.
 */
static void
xid_generate_request_shmem(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = xid_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = xid_shmem_startup;
}

/*
 * The state shared by the server's sessions, or NULL when there is none
 * (15 and 16 without shared_preload_libraries).
 */
static XidSharedState *
xid_shared_state(void)
{
	if (!shared_state_looked_up)
	{
#ifdef XID_HAVE_DSM_REGISTRY
		bool		found;

		shared_state = XID_GET_NAMED_DSM_SEGMENT(XID_DSM_NAME,
												 sizeof(XidSharedState),
												 xid_dsm_init_state, &found);
		XID_REGISTER_TRANCHE(shared_state->tranche_id, XID_TRANCHE_NAME);
#endif
		if (shared_state == NULL)
			pg_atomic_init_u64(&local_last, 0);
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
	my_db = NULL;
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
	my_db = &entry->db;
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
		XidSharedState *state = xid_shared_state();
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
 * Find this session's database's state, once: kept out of line, so that
 * xid_db_state() costs xid_new() a test and a load
 */
static pg_noinline void
xid_db_lookup(void)
{
	XidSharedState *state = xid_shared_state();
	bool		made = state != NULL && xid_attach(state);

	my_db_looked_up = true;
	if (made)
		xid_sweep(state);
}

/*
 * The state of this session's database, or NULL when nothing is shared
 * (15 and 16 without shared_preload_libraries)
 */
static XidDbState *
xid_db_state(void)
{
	if (unlikely(!my_db_looked_up))
		xid_db_lookup();
	return my_db;
}

/*
 * The state that orders this session's values against others: its
 * database's when shared, else this session's own.
 */
static inline pg_atomic_uint64 *
xid_last_value(void)
{
	XidDbState *db = xid_db_state();

	return db ? &db->last : &local_last;
}

/* The last value of this session, for xid_generator_status() */
static uint64
xid_session_last(void)
{
	xid_shared_state();
	return pg_atomic_read_u64(&local_last);
}

static inline uint64
xid_random_bits(void)
{
	if (unlikely(!prng_seeded))
	{
		if (!pg_prng_strong_seed(&prng))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not seed the random number generator for xid")));
		prng_seeded = true;
	}
	return pg_prng_uint64(&prng);
}

/*
 * The layout of the 22 low bits under xid.node_bits and xid.node_id: how
 * many bits the counter keeps, and the node field already shifted into
 * place.  A pair that does not fit is an error: ids without the node
 * number a server was meant to have could repeat another server's.
 */
static void
xid_node_layout(int *counter_bits, uint64 *node_field)
{
	int			bits = xid_node_bits;
	int			id = xid_node_id;

	if (unlikely(bits > 0 ? id < 0 || id >= (1 << bits) : id > 0))
	{
		if (bits > 0 && id < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("xid.node_bits is %d but xid.node_id is not set", bits),
					 errhint("Set xid.node_id to this server's node number, from 0 to %d, and reload the configuration.",
							 (1 << bits) - 1)));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("xid.node_id %d does not fit in xid.node_bits %d", id, bits),
				 errdetail("With %d node bits, node numbers go from 0 to %d.",
						   bits, (1 << bits) - 1),
				 errhint("Change xid.node_id or xid.node_bits and reload the configuration.")));
	}
	*counter_bits = XID_RANDOM_BITS - bits;
	*node_field = bits > 0 ? (uint64) id << *counter_bits : 0;
}

/*
 * The next value after old for this millisecond, random bits and layout
 * (see the file header).  Inlined twice: with the constant layout of no
 * node number, which compiles to the same code as before node numbers
 * existed, and with the configured one.
 */
static pg_attribute_always_inline uint64
next_value(uint64 old, int64 now_ms, uint64 rnd, int counter_bits,
		   uint64 node_field)
{
	uint64		counter_max = (UINT64CONST(1) << counter_bits) - 1;
	uint64		start = node_field | (rnd & (counter_max >> 1));
	uint64		step = 1 + ((rnd >> 32) &
							((XID_MAX_STEP >> Min(XID_RANDOM_BITS - counter_bits, 5)) - 1));
	uint64		old_node = (old & XID_RANDOM_MASK) >> counter_bits;
	uint64		node = node_field >> counter_bits;
	int64		ms;

	if (XidPayloadGetMs(old) < now_ms)
		return XidMsGetPayload(now_ms, start);	/* a new millisecond */
	if (old_node == node && (old & counter_max) <= counter_max - step)
		return old + step;
	if (old_node < node)
		return XidMsGetPayload(XidPayloadGetMs(old), start);
	/* this millisecond is used up: borrow the next one */
	ms = XidPayloadGetMs(old) + 1;
	xid_check_ms(ms);
	return XidMsGetPayload(ms, start);
}

/*
 * A new xid, unique and above every value issued before it (see the file
 * header for the scope of that guarantee).
 */
PG_FUNCTION_INFO_V1(xid_new);
Datum
xid_new(PG_FUNCTION_ARGS)
{
	pg_atomic_uint64 *last = xid_last_value();
	XidDbState *db = my_db;
	int64		now_ms = xid_now_ms();
	uint64		rnd = xid_random_bits();
	bool		no_node = (xid_node_bits == 0 && xid_node_id <= 0);
	int			counter_bits = XID_RANDOM_BITS;
	uint64		node_field = 0;
	uint64		old;
	uint64		next;

	xid_check_ms(now_ms);
	if (unlikely(!no_node))
		xid_node_layout(&counter_bits, &node_field);

	old = pg_atomic_read_u64(last);
	for (;;)
	{
		if (likely(no_node))
			next = next_value(old, now_ms, rnd, XID_RANDOM_BITS, 0);
		else
			next = next_value(old, now_ms, rnd, counter_bits, node_field);
		if (unlikely(XidPayloadGetMs(next) - now_ms > XID_AHEAD_WARN_MS))
			xid_check_ahead(db, next, now_ms);	/* may refuse: ERROR */
		if (!pg_atomic_compare_exchange_u64(last, &old, next))
			continue;			/* old now holds another session's value */

		/*
		 * Return no id before the durable mark covers its millisecond.  The
		 * mark was read after a restart: then start again above the ids
		 * issued before it.
		 */
		if (likely(XidPayloadGetMs(next) <= xid_mark_covered_ms) ||
			xid_mark_cover(db, next))
			break;
		old = pg_atomic_read_u64(last);
	}
	PG_RETURN_XIDPAYLOAD(next);
}

/*
 * A new xid for a given instant, truncated to the millisecond, for
 * backfilling.  Not ordered against xid_new(): only the time field is given.
 */
PG_FUNCTION_INFO_V1(xid_new_at);
Datum
xid_new_at(PG_FUNCTION_ARGS)
{
	int64		ms = xid_timestamp_to_ms_checked(PG_GETARG_TIMESTAMPTZ(0));
	int			counter_bits;
	uint64		node_field;

	xid_node_layout(&counter_bits, &node_field);
	PG_RETURN_XIDPAYLOAD(XidMsGetPayload(ms, node_field |
										 (xid_random_bits() &
										  ((UINT64CONST(1) << counter_bits) - 1))));
}

/*
 * xid_node(xid, bits): the node field of an id under a layout of bits node
 * bits (0 to 12); 0 for 0 bits.
 */
PG_FUNCTION_INFO_V1(xid_node);
Datum
xid_node(PG_FUNCTION_ARGS)
{
	uint64		payload = PG_GETARG_XIDPAYLOAD(0);
	int32		bits = PG_GETARG_INT32(1);

	if (bits < 0 || bits > XID_MAX_NODE_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("node bits %d is out of range", bits),
				 errdetail("An xid has from 0 to %d node bits.", XID_MAX_NODE_BITS)));
	PG_RETURN_INT32((int32) ((payload & XID_RANDOM_MASK) >> (XID_RANDOM_BITS - bits)));
}

/*
 * From _PG_init, in every session that loads the library: the node number
 * settings, and the hooks that forget the generator state of a dropped
 * database.  With shared_preload_libraries, also ask for the shared memory
 * that orders xid_new() across sessions.
 */
void
xid_generate_init(void)
{
	DefineCustomIntVariable("xid.node_bits",
							"Number of the 22 low bits of new xids that hold the node number (0 = none).",
							"Servers that generate ids for the same data each need their own xid.node_id.",
							&xid_node_bits,
							0, 0, XID_MAX_NODE_BITS,
							PGC_SIGHUP,
							0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("xid.node_id",
							"Node number of this server in new xids (-1 = not set).",
							"From 0 to 2^xid.node_bits - 1; required when xid.node_bits is above 0.",
							&xid_node_id,
							-1, -1, (1 << XID_MAX_NODE_BITS) - 1,
							PGC_SIGHUP,
							0,
							NULL, NULL, NULL);

	prev_object_access_hook = object_access_hook;
	object_access_hook = xid_object_access;
	RegisterXactCallback(xid_xact_callback, NULL);

	if (process_shared_preload_libraries_in_progress)
	{
		/* a server with a node layout that does not fit does not start */
		int			counter_bits;
		uint64		node_field;

		xid_node_layout(&counter_bits, &node_field);
		xid_generate_request_shmem();
	}
}

/* A millisecond of the xid epoch as a timestamptz */
static Datum
ms_timestamptz(int64 ms)
{
	return TimestampTzGetDatum(xid_ms_timestamp(ms));
}

/* A number of milliseconds as an interval */
static Datum
ms_interval(int64 ms)
{
	Interval   *iv = palloc0(sizeof(Interval));

	iv->time = ms * 1000;
	return IntervalPGetDatum(iv);
}

/*
 * xid_generator_status(): the last id issued, the durable mark of this
 * database, the clock, and how far the clock is behind the two.
 */
PG_FUNCTION_INFO_V1(xid_generator_status);
Datum
xid_generator_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[8];
	bool		nulls[8] = {0};
	XidDbState *db = xid_db_state();
	uint64		last = db ? pg_atomic_read_u64(&db->last) : xid_session_last();
	int64		now_ms = xid_now_ms();
	Oid			relid = xid_mark_relid();
	bool		have_mark = false;
	int64		mark = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	if (OidIsValid(relid))
		have_mark = xid_mark_read(relid, &mark);

	/* last_id, last_time, last_ahead */
	if (last != 0)
	{
		values[0] = XidPayloadGetDatum(last);
		values[1] = ms_timestamptz(XidPayloadGetMs(last));
		values[4] = ms_interval(XidPayloadGetMs(last) - now_ms);
	}
	else
		nulls[0] = nulls[1] = nulls[4] = true;
	/* durable_mark, mark_ahead */
	if (have_mark)
	{
		values[2] = ms_timestamptz(mark);
		values[5] = ms_interval(mark - now_ms);
	}
	else
		nulls[2] = nulls[5] = true;
	/* clock */
	values[3] = ms_timestamptz(now_ms);
	/* scope */
	values[6] = CStringGetTextDatum(db ? "database" : "session");
	/* durable: marks are written here */
	values[7] = BoolGetDatum(db != NULL && OidIsValid(relid) &&
							 !RecoveryInProgress());

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
