/*-------------------------------------------------------------------------
 *
 * xid_generate.c
 *	  Generation of new xids: xid_new() and xid_new(timestamptz), the node
 *	  number settings, and xid_generator_status().
 *
 * xid_new() returns 42 bits of milliseconds since the epoch and 22 further
 * bits, and guarantees that values are unique and strictly increasing
 * across all sessions of a database: the last value issued there is kept
 * in shared memory, on every version with or without
 * shared_preload_libraries (xid_shmem.c says where; when it cannot be had,
 * xid_new() fails rather than order its values within one session).
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
 * the design and why; docs/generating.md the guarantee and where it does
 * not hold).
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
#include "access/xlog.h"
#include "common/pg_prng.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "xid.h"
#include "xid_generate.h"
#include "xid_mark.h"
#include "xid_shmem.h"
#include "xid_time.h"

/* Largest random step within a millisecond, a power of two */
#define XID_MAX_STEP	32

/*
 * xid.node_bits and xid.node_id: the node number xid_new() puts into the
 * top bits of the 22 low bits.  -1 is "not set".  They are set in the
 * server's configuration and take effect on reload (PGC_SIGHUP), never per
 * session: a session cannot claim another server's node number.  A reload
 * cannot make the server repeat an id: each session reads the whole file at
 * a command boundary, so it never makes an id with one new value and one
 * old, and every id is above its database's last one whatever the layout
 * (see the file header).  PGC_POSTMASTER is not an option: PostgreSQL
 * allows it only for libraries in shared_preload_libraries, and xid works
 * without.  Whether the pair fits is checked where it is used
 * (xid_node_layout), and at server start when preloaded, as a check hook
 * cannot see a value that comes later in postgresql.conf.
 */
static int	xid_node_bits = 0;
static int	xid_node_id = -1;

static pg_prng_state prng;
static bool prng_seeded = false;

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
	XidDbState *db = xid_db_state();
	pg_atomic_uint64 *last = &db->last;
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
 * settings.  With shared_preload_libraries, a server whose node layout does
 * not fit does not start.
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

	if (process_shared_preload_libraries_in_progress)
	{
		int			counter_bits;
		uint64		node_field;

		xid_node_layout(&counter_bits, &node_field);
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
	uint64		last = pg_atomic_read_u64(&db->last);
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
	values[6] = CStringGetTextDatum("database");
	/* durable: marks are written here */
	values[7] = BoolGetDatum(OidIsValid(relid) && !RecoveryInProgress());

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
