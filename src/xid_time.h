/*-------------------------------------------------------------------------
 *
 * xid_time.h
 *	  Time in the xid profile (xid_time.c): the clock, the conversions
 *	  between timestamps and milliseconds, and what a comparison of an xid
 *	  with a timestamptz admits.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_TIME_H
#define XID_TIME_H

#include "datatype/timestamp.h"
#include "fmgr.h"

#include "xid.h"

/* The comparison a time operator makes: xid_time(id) OP t */
typedef enum XidTimeOp
{
	XID_TIME_LT,
	XID_TIME_LE,
	XID_TIME_GT,
	XID_TIME_GE
} XidTimeOp;

/* Does op bound the time from below (> and >=)?  Does it admit t itself? */
#define XidTimeOpIsLower(op)		((op) == XID_TIME_GT || (op) == XID_TIME_GE)
#define XidTimeOpIsInclusive(op)	((op) == XID_TIME_LE || (op) == XID_TIME_GE)
/* The operator that bounds from below or above, admitting t or not */
#define XidTimeOpFor(lower, inclusive) \
	((lower) ? ((inclusive) ? XID_TIME_GE : XID_TIME_GT) : \
	 ((inclusive) ? XID_TIME_LE : XID_TIME_LT))

extern int64 xid_now_ms(void);
extern int64 xid_timestamp_floor_ms(TimestampTz ts);
extern int64 xid_timestamp_ceil_ms(TimestampTz ts);
extern int64 xid_timestamp_to_ms_checked(TimestampTz ts);
extern TimestampTz xid_ms_timestamp(int64 ms);
extern void xid_time_out_of_range(void);
extern int64 xid_ms_from_unix_ms(int64 unix_ms);
extern int64 xid_ms_to_unix_ms(int64 ms);

/*
 * Check that a millisecond since the epoch fits the 42-bit field; inline,
 * since xid_new() checks every id.
 */
static inline void
xid_check_ms(int64 ms)
{
	if (unlikely(ms < 0 || ms > XID_MAX_MS))
		xid_time_out_of_range();
}

extern bool xid_time_op_ms(XidTimeOp op, TimestampTz t, uint64 *ms);
extern bool xid_time_op_bounds(XidTimeOp op, TimestampTz t,
							   uint64 *lo, uint64 *hi);

/*
 * The time field, the time comparisons and their bound functions, which
 * the planner support knows by their C entry points
 */
extern PGDLLEXPORT Datum xid_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_lt_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_le_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_gt_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_ge_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_lt(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_le(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_gt(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_ge(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_upper_bound(PG_FUNCTION_ARGS);

#endif							/* XID_TIME_H */
