/*-------------------------------------------------------------------------
 *
 * xid_generate.c
 *	  Generation of new xids: xid_new() and xid_new(timestamptz).
 *
 * xid_new() returns 42 bits of milliseconds since the epoch and 22 further
 * bits, and guarantees that values are unique and strictly increasing:
 *
 * - across all sessions of a database, when the last value issued there is
 *   kept in shared memory: through shared_preload_libraries (any version),
 *   or else through the DSM registry (17+, no configuration);
 * - within one session otherwise.
 *
 * Each database has its own last value (a slot, XidDbState): what one
 * database does, a far-ahead durable mark included, never moves the time
 * field of another's ids.  Two databases of one server draw their ids
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
#include "xid.h"

#include "common/pg_prng.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#ifdef XID_HAVE_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif

/* Largest random step within a millisecond, a power of two */
#define XID_MAX_STEP	32

/*
 * The name of the shared state in the DSM registry.  Not "xid": 1.0's
 * library registered a smaller state under that name, and a server that
 * had loaded it still holds it until restarted (nor "xid_generator", the
 * state with one last value for the whole server that 1.1 had before it
 * was released).
 */
#define XID_DSM_NAME	"xid_databases"

static XidSharedState *shared_state = NULL;
static bool shared_state_looked_up = false;

/* The slot of this session's database, once attached */
static XidDbState *my_db = NULL;
static bool my_db_looked_up = false;

/* The last value issued in this session, when nothing is shared */
static pg_atomic_uint64 local_last;

static pg_prng_state prng;
static bool prng_seeded = false;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * The size of the shared state: a slot for each backend's database and
 * XID_SPARE_SLOTS more (MaxBackends is known by now in every process that
 * asks, as a shmem_request_hook or as a backend)
 */
static Size
xid_state_size(void)
{
	return add_size(offsetof(XidSharedState, slots),
					mul_size(MaxBackends + XID_SPARE_SLOTS, sizeof(XidDbSlot)));
}

static void
xid_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(xid_state_size());
}

static void
xid_init_state(void *ptr)
{
	XidSharedState *state = (XidSharedState *) ptr;
	int			i;

	SpinLockInit(&state->mutex);
	state->nslots = MaxBackends + XID_SPARE_SLOTS;
	for (i = 0; i < state->nslots; i++)
	{
		XidDbState *db = &state->slots[i].db;

		memset(db, 0, sizeof(*db));
		pg_atomic_init_u64(&db->last, 0);
		pg_atomic_init_u64(&db->warned_ms, 0);
		SpinLockInit(&db->mutex);
	}
}

#ifdef XID_HAVE_DSM_REGISTRY
/* The same, as the DSM registry calls it */
static void
xid_dsm_init_state(XID_DSM_INIT_PARAMS)
{
	xid_init_state(ptr);
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
	state = ShmemInitStruct("xid", xid_state_size(), &found);
	if (!found)
		xid_init_state(state);
	LWLockRelease(AddinShmemInitLock);
	shared_state = state;
	shared_state_looked_up = true;
}

/*
 * Called from _PG_init while shared_preload_libraries are loaded: ask for
 * the shared state, so that every version orders values across sessions.
 */
void
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
XidSharedState *
xid_shared_state(void)
{
	if (!shared_state_looked_up)
	{
#ifdef XID_HAVE_DSM_REGISTRY
		bool		found;

		shared_state = XID_GET_NAMED_DSM_SEGMENT(XID_DSM_NAME,
												 xid_state_size(),
												 xid_dsm_init_state, &found);
#endif
		if (shared_state == NULL)
			pg_atomic_init_u64(&local_last, 0);
		shared_state_looked_up = true;
	}
	return shared_state;
}

/* At exit, a session leaves its database's slot */
static void
xid_detach(int code, Datum arg)
{
	XidSharedState *state = shared_state;

	SpinLockAcquire(&state->mutex);
	my_db->sessions--;
	SpinLockRelease(&state->mutex);
	my_db = NULL;
}

/*
 * Attach this session to its database's slot, taking one for the database
 * if it has none.  A slot no session is attached to may go to another
 * database, and its own then reads its durable mark again when it comes
 * back: that starts its ids above the mark, which a moment after its last
 * id is still ahead of the clock.  So a slot is taken over only once the
 * ids of its database would start no later than the clock (the free slots
 * first, then the one whose database has been idle longest); when every
 * unattached slot is of a database that made ids in the last lease, wait
 * for the first of them to pass, at most a lease.  A database whose mark
 * is further ahead of the clock than that (by its owner's setval(), or a
 * clock far back) loses its slot at once: its own ids start at its mark,
 * a lease at most above its last one.  At least XID_SPARE_SLOTS slots are
 * unattached at any time, since a session attaches to one slot only.
 */
static void
xid_attach(XidSharedState *state)
{
	for (;;)
	{
		int64		now_ms = xid_now_ms();
		XidDbState *best = NULL;
		int64		best_ahead = 0;
		int			i;

		SpinLockAcquire(&state->mutex);
		for (i = 0; i < state->nslots; i++)
		{
			XidDbState *db = &state->slots[i].db;
			int64		ahead;

			if (db->dbid == MyDatabaseId)
			{
				best = db;
				best_ahead = PG_INT64_MIN;
				break;
			}
			if (db->sessions > 0)
				continue;
			ahead = OidIsValid(db->dbid) ? xid_mark_ahead_of(db, now_ms) :
				PG_INT64_MIN + 1;
			if (best == NULL || ahead < best_ahead)
			{
				best = db;
				best_ahead = ahead;
			}
		}
		if (best != NULL && best_ahead > 0 && best_ahead <= XID_LEASE_MS)
		{
			/* the database of that slot made ids a moment ago */
			SpinLockRelease(&state->mutex);
			pg_usleep(best_ahead * 1000L);
			CHECK_FOR_INTERRUPTS();
			continue;
		}
		if (best == NULL)
		{
			SpinLockRelease(&state->mutex);
			elog(ERROR, "no free slot in the shared state of xid");
		}
		if (best->dbid != MyDatabaseId)
		{
			/* a new slot, no mark read yet */
			best->dbid = MyDatabaseId;
			best->sessions = 0;
			best->relid = InvalidOid;
			best->page_ms = 0;
			best->mark_ms = 0;
			best->floor = 0;
			best->pending_ms = 0;
			best->pending_lsn = InvalidXLogRecPtr;
			pg_atomic_write_u64(&best->last, 0);
			pg_atomic_write_u64(&best->warned_ms, 0);
		}
		best->sessions++;
		SpinLockRelease(&state->mutex);
		my_db = best;
		before_shmem_exit(xid_detach, (Datum) 0);
		return;
	}
}

/*
 * The slot of this session's database, or NULL when nothing is shared
 * (15 and 16 without shared_preload_libraries)
 */
XidDbState *
xid_db_state(void)
{
	if (unlikely(!my_db_looked_up))
	{
		XidSharedState *state = xid_shared_state();

		if (state != NULL)
			xid_attach(state);
		my_db_looked_up = true;
	}
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
uint64
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
void
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
