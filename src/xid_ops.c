/*-------------------------------------------------------------------------
 *
 * xid_ops.c
 *	  Comparison, sort support, hashing and BRIN support of the xid type.
 *
 * Order is the unsigned order of the 64-bit payload, which equals the byte
 * order of the text form; every comparison below goes through xid_cmp_internal
 * so that btree, sorting, merge joins, min/max and BRIN agree.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "utils/sortsupport.h"

#include "xid.h"
#include "xid_ops.h"

static inline int
xid_cmp_internal(uint64 a, uint64 b)
{
	return (a > b) - (a < b);
}

#define XID_CMP_FUNC(name, test) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	int			c = xid_cmp_internal(PG_GETARG_XIDPAYLOAD(0), \
									 PG_GETARG_XIDPAYLOAD(1)); \
	PG_RETURN_BOOL(test); \
}

/* a = b, a <> b, a < b, a <= b, a > b, a >= b */
XID_CMP_FUNC(xid_eq, c == 0)
XID_CMP_FUNC(xid_ne, c != 0)
XID_CMP_FUNC(xid_lt, c < 0)
XID_CMP_FUNC(xid_le, c <= 0)
XID_CMP_FUNC(xid_gt, c > 0)
XID_CMP_FUNC(xid_ge, c >= 0)

/*
 * btree support 1: -1, 0 or 1 as a is below, equal to or above b.
 */
PG_FUNCTION_INFO_V1(xid_cmp);
Datum
xid_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(xid_cmp_internal(PG_GETARG_XIDPAYLOAD(0),
									 PG_GETARG_XIDPAYLOAD(1)));
}

/*
 * btree support 2: sort support.  The payload is an unsigned by-value datum,
 * so core's unsigned comparator applies, and tuplesort recognises it and
 * uses its specialised sort routine.
 */
PG_FUNCTION_INFO_V1(xid_sortsupport);
Datum
xid_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ssup_datum_unsigned_cmp;
	PG_RETURN_VOID();
}

/*
 * Larger and smaller of two xids, for the max and min aggregates.
 */
PG_FUNCTION_INFO_V1(xid_larger);
Datum
xid_larger(PG_FUNCTION_ARGS)
{
	uint64		a = PG_GETARG_XIDPAYLOAD(0);
	uint64		b = PG_GETARG_XIDPAYLOAD(1);

	PG_RETURN_XIDPAYLOAD(a > b ? a : b);
}

PG_FUNCTION_INFO_V1(xid_smaller);
Datum
xid_smaller(PG_FUNCTION_ARGS)
{
	uint64		a = PG_GETARG_XIDPAYLOAD(0);
	uint64		b = PG_GETARG_XIDPAYLOAD(1);

	PG_RETURN_XIDPAYLOAD(a < b ? a : b);
}

/*
 * Hashing folds the two 32-bit halves and mixes them with core's integer
 * hash.  Hash partitioning stores rows by these values, so they must never
 * change in a later version: a change would need a new opclass.
 */
static inline uint32
xid_fold(uint64 value)
{
	return (uint32) value ^ (uint32) (value >> 32);
}

/*
 * hash support 1: 32-bit hash.
 */
PG_FUNCTION_INFO_V1(xid_hash);
Datum
xid_hash(PG_FUNCTION_ARGS)
{
	return hash_uint32(xid_fold(PG_GETARG_XIDPAYLOAD(0)));
}

/*
 * hash support 2: seeded 64-bit hash (hash partitioning, parallel hash).
 */
PG_FUNCTION_INFO_V1(xid_hash_extended);
Datum
xid_hash_extended(PG_FUNCTION_ARGS)
{
	return hash_uint32_extended(xid_fold(PG_GETARG_XIDPAYLOAD(0)),
								PG_GETARG_INT64(1));
}

/*
 * BRIN minmax-multi support 11: the distance of two xids.  Core's int8
 * distance would be signed, and wrong for payloads at and above 2^63.
 */
PG_FUNCTION_INFO_V1(xid_brin_minmax_multi_distance);
Datum
xid_brin_minmax_multi_distance(PG_FUNCTION_ARGS)
{
	uint64		a = PG_GETARG_XIDPAYLOAD(0);
	uint64		b = PG_GETARG_XIDPAYLOAD(1);

	Assert(a <= b);
	PG_RETURN_FLOAT8((double) (b - a));
}
