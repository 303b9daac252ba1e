/*-------------------------------------------------------------------------
 *
 * xid_generate.c
 *	  Generation of new xids: xid_new() and xid_new(timestamptz).
 *
 * xid_new() returns 42 bits of milliseconds since the epoch and 22 further
 * bits, and guarantees that values are unique and strictly increasing:
 *
 * - across all sessions of a server, when the last value issued is kept in
 *   shared memory: through shared_preload_libraries (any version), or else
 *   through the DSM registry (17+, no configuration);
 * - within one session otherwise.
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
/* A new millisecond starts in the lower half of the 22 bits */
#define XID_START_MASK	(XID_RANDOM_MASK >> 1)

typedef struct XidSharedState
{
	pg_atomic_uint64 last;		/* last value issued by any session */
} XidSharedState;

static XidSharedState *shared_state = NULL;
static bool shared_state_looked_up = false;

/* The last value issued in this session, when nothing is shared */
static pg_atomic_uint64 local_last;

static pg_prng_state prng;
static bool prng_seeded = false;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
xid_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(XidSharedState)));
}

static void
xid_init_state(void *ptr)
{
	XidSharedState *state = (XidSharedState *) ptr;

	pg_atomic_init_u64(&state->last, 0);
}

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
 * The state that orders this session's values against others: shared when
 * possible, else this session's own.
 */
static pg_atomic_uint64 *
xid_last_value(void)
{
	if (!shared_state_looked_up)
	{
#ifdef XID_HAVE_DSM_REGISTRY
		bool		found;

		shared_state = GetNamedDSMSegment("xid", sizeof(XidSharedState),
										  xid_init_state, &found);
#endif
		if (shared_state == NULL)
			pg_atomic_init_u64(&local_last, 0);
		shared_state_looked_up = true;
	}
	return shared_state ? &shared_state->last : &local_last;
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
 * A new xid, unique and above every value issued before it (see the file
 * header for the scope of that guarantee).
 */
PG_FUNCTION_INFO_V1(xid_new);
Datum
xid_new(PG_FUNCTION_ARGS)
{
	pg_atomic_uint64 *last = xid_last_value();
	int64		now_ms = xid_now_ms();
	uint64		rnd = xid_random_bits();
	uint64		fresh;
	uint64		old;
	uint64		next;

	xid_check_ms(now_ms);
	fresh = XidMsGetPayload(now_ms, rnd & XID_START_MASK);

	old = pg_atomic_read_u64(last);
	for (;;)
	{
		if (XidPayloadGetMs(old) < now_ms)
			next = fresh;		/* a millisecond nobody has used yet */
		else
		{
			uint64		step = 1 + ((rnd >> 32) & (XID_MAX_STEP - 1));

			if ((old & XID_RANDOM_MASK) <= XID_RANDOM_MASK - step)
				next = old + step;
			else
			{
				/* this millisecond is used up: borrow the next one */
				int64		ms = XidPayloadGetMs(old) + 1;

				xid_check_ms(ms);
				next = XidMsGetPayload(ms, rnd & XID_START_MASK);
			}
		}
		if (pg_atomic_compare_exchange_u64(last, &old, next))
			break;
		/* old now holds the value another session stored; try again */
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

	PG_RETURN_XIDPAYLOAD(XidMsGetPayload(ms, xid_random_bits()));
}
