/*-------------------------------------------------------------------------
 *
 * xid_range.c
 *	  Prefix and time ranges of xids: xid_prefix_range(), xid_time_range(),
 *	  the <@, @> and ^@ operators' functions, the bound functions the
 *	  planner uses for parameters, and the range type's subtype difference.
 *
 * An xidrange keeps closed bounds exactly as given (no canonical function:
 * the upper bound of a prefix may be 2^64-1, which has no successor).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "compat.h"
#include "uid11.h"
#include "xid.h"
#include "xid_bounds.h"
#include "xid_io.h"
#include "xid_range.h"
#include "xid_time.h"

/*
 * tstzrange's type cache entry, for xid_time_range(): a built-in type's
 * entry, which the type cache never frees, so it is kept for the backend.
 */
static TypeCacheEntry *tstzrange_typcache = NULL;

/*
 * The closed bound that one bound of a range stands for, in the range's
 * own terms; false when the bound admits nothing.
 */
typedef bool (*ClosedBoundFunc) (const RangeBound *b, uint64 *v);

/*
 * Closed bounds [*lo, *hi] of a range whose bounds "closed" converts; false
 * when the range admits nothing.
 */
static bool
closed_bounds(TypeCacheEntry *typcache, const RangeType *r,
			  ClosedBoundFunc closed, uint64 *lo, uint64 *hi)
{
	RangeBound	lower,
				upper;
	bool		empty;

	range_deserialize(typcache, r, &lower, &upper, &empty);
	return !empty && closed(&lower, lo) && closed(&upper, hi) && *lo <= *hi;
}

/* An xidrange bound: the first or last xid it admits */
static bool
payload_bound(const RangeBound *b, uint64 *v)
{
	if (b->infinite)
	{
		*v = b->lower ? 0 : PG_UINT64_MAX;
		return true;
	}
	*v = DatumGetXidPayload(b->val);
	if (b->inclusive)
		return true;
	if (b->lower)
	{
		if (*v == PG_UINT64_MAX)
			return false;
		(*v)++;
	}
	else
	{
		if (*v == 0)
			return false;
		(*v)--;
	}
	return true;
}

/*
 * Closed bounds [*lo, *hi] of the xids in range r, of any bound kinds;
 * false when it holds none.
 */
bool
xid_range_bounds(TypeCacheEntry *typcache, const RangeType *r,
				 uint64 *lo, uint64 *hi)
{
	return closed_bounds(typcache, r, payload_bound, lo, hi);
}

/*
 * Type cache entry of the range type of a range argument, kept in fn_extra.
 */
static TypeCacheEntry *
range_arg_typcache(FunctionCallInfo fcinfo, Oid rngtypid)
{
	TypeCacheEntry *typcache = (TypeCacheEntry *) fcinfo->flinfo->fn_extra;

	if (typcache == NULL || typcache->type_id != rngtypid)
	{
		typcache = lookup_type_cache(rngtypid, TYPECACHE_RANGE_INFO);
		if (typcache->rngelemtype == NULL)
			elog(ERROR, "type %u is not a range type", rngtypid);
		fcinfo->flinfo->fn_extra = typcache;
	}
	return typcache;
}

/*
 * Build the xidrange [lo, hi], or an empty one, as the result of the calling
 * function (whose declared result type is xidrange: the extension's schema
 * is the user's choice, so the type is found through the function).
 */
static Datum
make_xid_range(FunctionCallInfo fcinfo, uint64 lo, uint64 hi, bool empty)
{
	TypeCacheEntry *typcache = (TypeCacheEntry *) fcinfo->flinfo->fn_extra;
	RangeBound	lower,
				upper;

	if (typcache == NULL)
	{
		Oid			rngtypid = get_func_rettype(fcinfo->flinfo->fn_oid);

		typcache = range_arg_typcache(fcinfo, rngtypid);
	}
	if (empty)
		PG_RETURN_RANGE_P(make_empty_range(typcache));

	lower.val = XidPayloadGetDatum(lo);
	lower.infinite = false;
	lower.inclusive = true;
	lower.lower = true;
	upper.val = XidPayloadGetDatum(hi);
	upper.infinite = false;
	upper.inclusive = true;
	upper.lower = false;
	PG_RETURN_RANGE_P(XID_MAKE_RANGE(typcache, &lower, &upper));
}

/*
 * The closed range of every xid whose text starts with a prefix of 1 to 11
 * symbols, clamped to the largest xid; empty when the prefix lies wholly
 * above it.
 */
PG_FUNCTION_INFO_V1(xid_prefix_range);
Datum
xid_prefix_range(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);
	uint64		lo,
				hi;
	bool		empty;

	xid_prefix_bounds_or_error(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix),
							   &lo, &hi, &empty);
	return make_xid_range(fcinfo, lo, hi, empty);
}

/*
 * A tstzrange bound: the first (lower) or last (upper) millisecond since
 * the epoch that an xid's time may have, as the time operators read it
 * (a lower bound is "xid_time(id) >= t" or "> t", an upper one "<= t" or
 * "< t"); false when it admits none.
 */
static bool
ms_bound(const RangeBound *b, uint64 *v)
{
	if (b->infinite)
	{
		*v = b->lower ? 0 : XID_MAX_MS;
		return true;
	}
	return xid_time_op_ms(XidTimeOpFor(b->lower, b->inclusive),
						  DatumGetTimestampTz(b->val), v);
}

/*
 * Closed millisecond bounds of the xids whose time lies in a tstzrange;
 * false when none is.
 */
static bool
xid_tstzrange_ms(TypeCacheEntry *typcache, const RangeType *r,
				 uint64 *lo_ms, uint64 *hi_ms)
{
	return closed_bounds(typcache, r, ms_bound, lo_ms, hi_ms);
}

/*
 * The closed range of every xid whose time (xid_time) lies in a tstzrange.
 */
PG_FUNCTION_INFO_V1(xid_time_range);
Datum
xid_time_range(PG_FUNCTION_ARGS)
{
	RangeType  *r = PG_GETARG_RANGE_P(0);
	uint64		lo_ms,
				hi_ms;

	/*
	 * The argument's range type is always tstzrange: looked up once, as
	 * make_xid_range() keeps the result's in fn_extra, not per row (a catalog
	 * access per row, when the type cache was invalidated).
	 */
	if (tstzrange_typcache == NULL)
		tstzrange_typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	if (RangeTypeGetOid(r) != TSTZRANGEOID)
		elog(ERROR, "type %u is not tstzrange", RangeTypeGetOid(r));
	if (!xid_tstzrange_ms(tstzrange_typcache, r, &lo_ms, &hi_ms))
		return make_xid_range(fcinfo, 0, 0, true);
	return make_xid_range(fcinfo, XidMsGetPayload(lo_ms, 0),
						  XidMsGetPayload(hi_ms, XID_RANDOM_MASK), false);
}

static inline bool
xid_in_range(FunctionCallInfo fcinfo, uint64 value, const RangeType *r)
{
	TypeCacheEntry *typcache = range_arg_typcache(fcinfo, RangeTypeGetOid(r));
	uint64		lo,
				hi;

	return xid_range_bounds(typcache, r, &lo, &hi) &&
		value >= lo && value <= hi;
}

/*
 * xid <@ xidrange: is the xid in the range?
 */
PG_FUNCTION_INFO_V1(xid_contained_by);
Datum
xid_contained_by(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(xid_in_range(fcinfo, PG_GETARG_XIDPAYLOAD(0),
								PG_GETARG_RANGE_P(1)));
}

/*
 * xidrange @> xid: does the range hold the xid?
 */
PG_FUNCTION_INFO_V1(xid_range_contains);
Datum
xid_range_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(xid_in_range(fcinfo, PG_GETARG_XIDPAYLOAD(1),
								PG_GETARG_RANGE_P(0)));
}

/*
 * xid ^@ text: does the xid's text start with the given text?  As for text's
 * own ^@, an empty prefix matches every xid, and a text that no xid can
 * start with (too long, or with a byte outside the alphabet) matches none.
 */
PG_FUNCTION_INFO_V1(xid_starts_with);
Datum
xid_starts_with(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_XIDPAYLOAD(0);
	text	   *prefix = PG_GETARG_TEXT_PP(1);

	PG_RETURN_BOOL(uid11_has_prefix(value, VARDATA_ANY(prefix),
									VARSIZE_ANY_EXHDR(prefix)));
}

/*
 * Subtype difference of xidrange, for GiST indexes on ranges.
 */
PG_FUNCTION_INFO_V1(xid_subdiff);
Datum
xid_subdiff(PG_FUNCTION_ARGS)
{
	uint64		a = PG_GETARG_XIDPAYLOAD(0);
	uint64		b = PG_GETARG_XIDPAYLOAD(1);

	PG_RETURN_FLOAT8(a >= b ? (double) (a - b) : -(double) (b - a));
}

/*
 * Bounds of the xids in a range, or in a prefix as ^@ reads it (every xid
 * for an empty text), or NULL when none qualifies.  The planner uses them
 * for index conditions when the range or prefix is a parameter.
 */
static Datum
range_bound(FunctionCallInfo fcinfo, bool upper)
{
	RangeType  *r = PG_GETARG_RANGE_P(0);
	uint64		lo,
				hi;

	if (!xid_range_bounds(range_arg_typcache(fcinfo, RangeTypeGetOid(r)),
						  r, &lo, &hi))
		PG_RETURN_NULL();
	PG_RETURN_XIDPAYLOAD(upper ? hi : lo);
}

static Datum
prefix_bound(FunctionCallInfo fcinfo, bool upper)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);
	uint64_t	lo,
				hi;

	if (!uid11_starts_with_bounds(VARDATA_ANY(prefix),
								  VARSIZE_ANY_EXHDR(prefix), &lo, &hi))
		PG_RETURN_NULL();
	PG_RETURN_XIDPAYLOAD(upper ? hi : lo);
}

/* xid_range_lower_bound(xidrange), xid_range_upper_bound(xidrange) */
XID_BOUND_FUNC(xid_range_lower_bound, range_bound, false)
XID_BOUND_FUNC(xid_range_upper_bound, range_bound, true)
/* xid_prefix_lower_bound(text), xid_prefix_upper_bound(text) */
XID_BOUND_FUNC(xid_prefix_lower_bound, prefix_bound, false)
XID_BOUND_FUNC(xid_prefix_upper_bound, prefix_bound, true)
