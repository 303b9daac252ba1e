/*-------------------------------------------------------------------------
 *
 * xid_time.c
 *	  Time in the xid profile: the epoch, the clock, every conversion
 *	  between timestamps and milliseconds, the field accessors xid_time()
 *	  and xid_random(), and the comparisons of xids with timestamptz.
 *
 * An xid's time is a whole millisecond since 2011-11-11T11:11:11.111Z in its
 * top 42 bits.  Timestamps are microseconds; the conversions here round
 * down (floor) or up (ceil) explicitly, and every other file asks for one
 * of them rather than doing arithmetic on the epoch itself.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "datatype/timestamp.h"
#include "utils/timestamp.h"

#include "xid.h"
#include "xid_bounds.h"
#include "xid_time.h"

/*
 * The epoch, 2011-11-11T11:11:11.111Z, in milliseconds after the unix epoch
 * and in microseconds after the PostgreSQL epoch (2000-01-01), and the first
 * and last instants an xid holds as text for messages.
 */
#define XID_EPOCH_UNIX_MS	INT64CONST(1321009871111)
#define XID_EPOCH_PG_USEC	INT64CONST(374325071111000)
#define XID_FIRST_TIME_TEXT "2011-11-11 11:11:11.111+00"
#define XID_LAST_TIME_TEXT	"2151-03-25 18:46:22.214+00"

/*
 * The constants above are derived by hand; the compiler recomputes them
 * from the calendar.  XID_JDATE is date2j() (utils/adt/datetime.c) as a
 * constant expression, checked against core's own Julian dates of the unix
 * and PostgreSQL epochs.
 */
#define XID_JD_Y(y, m)		((m) > 2 ? (y) + 4800 : (y) + 4799)
#define XID_JD_M(m)			((m) > 2 ? (m) + 1 : (m) + 13)
#define XID_JDATE(y, m, d) \
	(XID_JD_Y(y, m) * 365 - 32167 + XID_JD_Y(y, m) / 4 - \
	 XID_JD_Y(y, m) / 100 + XID_JD_Y(y, m) / 400 + \
	 7834 * XID_JD_M(m) / 256 + (d))
/* milliseconds of a UTC date and time after the Julian date "jd0" */
#define XID_CIVIL_MS(jd0, y, mo, d, h, mi, s, ms) \
	((((INT64CONST(1) * (XID_JDATE(y, mo, d) - (jd0)) * 24 + (h)) * 60 + \
	   (mi)) * 60 + (s)) * 1000 + (ms))

StaticAssertDecl(XID_JDATE(1970, 1, 1) == UNIX_EPOCH_JDATE,
				 "XID_JDATE agrees with core on the unix epoch");
StaticAssertDecl(XID_JDATE(2000, 1, 1) == POSTGRES_EPOCH_JDATE,
				 "XID_JDATE agrees with core on the PostgreSQL epoch");
StaticAssertDecl(XID_EPOCH_UNIX_MS ==
				 XID_CIVIL_MS(UNIX_EPOCH_JDATE, 2011, 11, 11, 11, 11, 11, 111),
				 "the xid epoch in unix milliseconds");
StaticAssertDecl(XID_EPOCH_PG_USEC ==
				 XID_CIVIL_MS(POSTGRES_EPOCH_JDATE, 2011, 11, 11, 11, 11, 11, 111) * 1000,
				 "the xid epoch in PostgreSQL microseconds");
StaticAssertDecl(XID_EPOCH_UNIX_MS + XID_MAX_MS ==
				 XID_CIVIL_MS(UNIX_EPOCH_JDATE, 2151, 3, 25, 18, 46, 22, 214),
				 "the last instant an xid holds");

/*
 * Milliseconds since the xid epoch, now, from CLOCK_REALTIME: read once per
 * call, never cached.  May be outside the 42-bit range (a clock set before
 * 2011); callers check.
 */
int64
xid_now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not read the system clock: %m")));
	return (int64) ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - XID_EPOCH_UNIX_MS;
}

/*
 * The millisecond since the xid epoch that holds a finite timestamp (rounded
 * down), and the first millisecond at or after it (rounded up).  Either may
 * be outside the 42-bit range; callers clamp or check.
 */
int64
xid_timestamp_floor_ms(TimestampTz ts)
{
	int64		us = ts - XID_EPOCH_PG_USEC;
	int64		ms = us / 1000;

	if (us % 1000 < 0)
		ms--;
	return ms;
}

int64
xid_timestamp_ceil_ms(TimestampTz ts)
{
	int64		ms = xid_timestamp_floor_ms(ts);

	return (ts - XID_EPOCH_PG_USEC) % 1000 == 0 ? ms : ms + 1;
}

/*
 * Raise the error for a time an xid cannot hold.
 */
void
xid_time_out_of_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for type xid"),
			 errdetail("An xid holds instants from %s to %s.",
					   XID_FIRST_TIME_TEXT, XID_LAST_TIME_TEXT)));
}

/*
 * The millisecond of a timestamp, rounded down, or an error when an xid
 * cannot hold it (infinities, before the epoch, after 2151-03-25).
 */
int64
xid_timestamp_to_ms_checked(TimestampTz ts)
{
	int64		ms;

	if (TIMESTAMP_NOT_FINITE(ts))
		xid_time_out_of_range();
	ms = xid_timestamp_floor_ms(ts);
	xid_check_ms(ms);
	return ms;
}

/* The instant of a millisecond since the xid epoch (0 to XID_MAX_MS) */
TimestampTz
xid_ms_timestamp(int64 ms)
{
	return XID_EPOCH_PG_USEC + ms * 1000;
}

/*
 * The instant of an xid: the epoch plus its millisecond field.  Exact for
 * every payload (the last instant is in 2151), so it never fails.
 */
static inline TimestampTz
payload_timestamp(uint64 value)
{
	return XID_EPOCH_PG_USEC + XidPayloadGetMs(value) * 1000;
}

PG_FUNCTION_INFO_V1(xid_time);
Datum
xid_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(payload_timestamp(PG_GETARG_XIDPAYLOAD(0)));
}

/*
 * The 22-bit field below the time of an xid.
 */
PG_FUNCTION_INFO_V1(xid_random);
Datum
xid_random(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_XIDPAYLOAD(0);

	PG_RETURN_INT32((int32) (value & XID_RANDOM_MASK));
}

/*
 * What "xid_time(id) OP t" means for the millisecond field, once for the
 * time operators, their index conditions and xid_time_range(): the first
 * millisecond admitted (for > and >=) or the last (for < and <=), clamped
 * to the milliseconds an xid holds.  False when none is admitted.  An
 * xid's time is a whole millisecond m, so
 *		m < t  <=>  m <= ceil(t) - 1		m <= t  <=>  m <= floor(t)
 *		m > t  <=>  m >= floor(t) + 1		m >= t  <=>  m >= ceil(t)
 */
bool
xid_time_op_ms(XidTimeOp op, TimestampTz t, uint64 *ms)
{
	bool		lower = XidTimeOpIsLower(op);
	int64		m = 0;

	/*
	 * Every time is above -infinity and below infinity.  A value outside the
	 * range of timestamptz (none comes from its input functions) is taken as
	 * the infinity on its side, so that the arithmetic below never overflows.
	 */
	if (TIMESTAMP_NOT_FINITE(t) || !IS_VALID_TIMESTAMP(t))
	{
		bool		before_all = TIMESTAMP_IS_NOBEGIN(t) || t < MIN_TIMESTAMP;

		*ms = lower ? 0 : XID_MAX_MS;
		return before_all == lower;
	}
	switch (op)
	{
		case XID_TIME_LT:
			m = xid_timestamp_ceil_ms(t) - 1;
			break;
		case XID_TIME_LE:
			m = xid_timestamp_floor_ms(t);
			break;
		case XID_TIME_GT:
			m = xid_timestamp_floor_ms(t) + 1;
			break;
		case XID_TIME_GE:
			m = xid_timestamp_ceil_ms(t);
			break;
	}
	if (lower ? m > XID_MAX_MS : m < 0)
		return false;
	*ms = (uint64) Max(Min(m, XID_MAX_MS), 0);
	return true;
}

/*
 * Closed bounds of the xids for which "xid_time(id) OP t" holds; false when
 * there are none.
 */
bool
xid_time_op_bounds(XidTimeOp op, TimestampTz t, uint64 *lo, uint64 *hi)
{
	uint64		ms;

	if (!xid_time_op_ms(op, t, &ms))
		return false;
	if (XidTimeOpIsLower(op))
	{
		*lo = XidMsGetPayload(ms, 0);
		*hi = PG_UINT64_MAX;
	}
	else
	{
		*lo = 0;
		*hi = XidMsGetPayload(ms, XID_RANDOM_MASK);
	}
	return true;
}

/*
 * xid OP timestamptz and timestamptz OP xid: exactly xid_time(id) OP t.
 * Not btree operators: many ids share one millisecond, so an "equality"
 * would not be transitive.  They cannot fail (LEAKPROOF).
 */
#define XID_TIME_CMP_FUNC(name, xidarg, test) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	TimestampTz a = payload_timestamp(PG_GETARG_XIDPAYLOAD(xidarg)); \
	TimestampTz t = PG_GETARG_TIMESTAMPTZ(1 - (xidarg)); \
	PG_RETURN_BOOL(test); \
}

/* id < t, id <= t, id > t, id >= t */
XID_TIME_CMP_FUNC(xid_lt_time, 0, a < t)
XID_TIME_CMP_FUNC(xid_le_time, 0, a <= t)
XID_TIME_CMP_FUNC(xid_gt_time, 0, a > t)
XID_TIME_CMP_FUNC(xid_ge_time, 0, a >= t)
/* t < id, t <= id, t > id, t >= id */
XID_TIME_CMP_FUNC(xid_time_lt, 1, t < a)
XID_TIME_CMP_FUNC(xid_time_le, 1, t <= a)
XID_TIME_CMP_FUNC(xid_time_gt, 1, t > a)
XID_TIME_CMP_FUNC(xid_time_ge, 1, t >= a)

/*
 * The first xid whose time is at or after (inclusive) or after t, and the
 * last whose time is at or before (inclusive) or before t; NULL when there
 * is none.  The planner uses them for index conditions when t is a
 * parameter or an expression such as now() - interval '1 day'.
 */
static Datum
time_bound(FunctionCallInfo fcinfo, bool lower)
{
	TimestampTz t = PG_GETARG_TIMESTAMPTZ(0);
	bool		inclusive = PG_GETARG_BOOL(1);
	XidTimeOp	op = XidTimeOpFor(lower, inclusive);
	uint64		lo,
				hi;

	if (!xid_time_op_bounds(op, t, &lo, &hi))
		PG_RETURN_NULL();
	PG_RETURN_XIDPAYLOAD(lower ? lo : hi);
}

/* xid_time_lower_bound(timestamptz, boolean), xid_time_upper_bound(...) */
XID_BOUND_FUNC(xid_time_lower_bound, time_bound, true)
XID_BOUND_FUNC(xid_time_upper_bound, time_bound, false)

/*
 * Milliseconds since the xid epoch of a unix time in milliseconds, and back:
 * the formats ids are converted from (UUIDv7, ULID, ulid-flake) count from
 * other epochs.  No range check; callers use xid_check_ms().
 */
int64
xid_ms_from_unix_ms(int64 unix_ms)
{
	return unix_ms - XID_EPOCH_UNIX_MS;
}

int64
xid_ms_to_unix_ms(int64 ms)
{
	return ms + XID_EPOCH_UNIX_MS;
}
