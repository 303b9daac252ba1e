/*-------------------------------------------------------------------------
 *
 * xid_key.c
 *	  Ids for existing rows: xid_from_key(time, old key), the same id for
 *	  the same row every time, made from the row's time and its old key.
 *
 * The id is the row's millisecond in the time field and the old key's low
 * 22 bits below it:
 *
 *		xid_from_key(t, k) = floor_ms(t) << 22 | (k mod 2^22)
 *
 * for a bigint key (mod taken on the two's complement, so it is never
 * negative), and the first 22 bits of the uuid for a uuid key.
 *
 * Why this and nothing cleverer: the function is immutable, so a backfill
 * interrupted and started again, a sync trigger and a check written by hand
 * all compute the same id for the same row, without any state to keep.
 *
 * What it guarantees, for the rows of one table (distinct old keys):
 *
 * - Uniqueness, bigint keys.  Two rows get the same id exactly when they
 *   share the millisecond and their keys are congruent modulo 2^22, i.e.
 *   differ by a nonzero multiple of 4,194,304.  So no two rows get the
 *   same id as long as the keys of the rows of any one millisecond lie
 *   within 2^22 consecutive values (max - min < 2^22).  For a bigserial
 *   with a creation time that is the case unless more than four million
 *   keys were handed out between rows that share a millisecond (rows
 *   imported with one constant time, say).  No function of one row can see
 *   the others, so the condition is checked over the table: the move's
 *   plan counts the colliding ids before anything changes, and the unique
 *   index on the new column refuses a duplicate (SQLSTATE 23505): an
 *   error, never two rows with one id.
 * - Uniqueness, uuid keys.  A random uuid (v4) has no order to exploit:
 *   22 of its bits are kept, and n rows in one millisecond collide with
 *   probability about n(n-1)/2^23 (0.1% for 100 rows, 11% for 1,000).
 *   The same checks turn a collision into an error.  A uuidv7 keeps its
 *   own time instead (xid_from_uuidv7(), xid_uuid.c).
 * - Order.  Ids order by millisecond first, so by time at millisecond
 *   precision; within a millisecond by the key's low 22 bits, which is the
 *   keys' order when the keys of that millisecond share their bits above
 *   the 22 (lie in one aligned block of 2^22 values), and the uuid's order
 *   for a uuid key (ties aside).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "xid.h"
#include "xid_time.h"

/*
 * xid_from_key(timestamptz, bigint): the id of a row from its time and its
 * bigint key.
 */
PG_FUNCTION_INFO_V1(xid_from_key_int8);
Datum
xid_from_key_int8(PG_FUNCTION_ARGS)
{
	int64		ms = xid_timestamp_to_ms_checked(PG_GETARG_TIMESTAMPTZ(0));
	uint64		key = (uint64) PG_GETARG_INT64(1);

	PG_RETURN_XIDPAYLOAD(XidMsGetPayload(ms, key & XID_RANDOM_MASK));
}

/*
 * xid_from_key(timestamptz, uuid): the id of a row from its time and the
 * first 22 bits of its uuid key.
 */
PG_FUNCTION_INFO_V1(xid_from_key_uuid);
Datum
xid_from_key_uuid(PG_FUNCTION_ARGS)
{
	int64		ms = xid_timestamp_to_ms_checked(PG_GETARG_TIMESTAMPTZ(0));
	pg_uuid_t  *u = PG_GETARG_UUID_P(1);
	uint32		low = ((uint32) u->data[0] << 14) | ((uint32) u->data[1] << 6) |
		(u->data[2] >> 2);

	PG_RETURN_XIDPAYLOAD(XidMsGetPayload(ms, low));
}
