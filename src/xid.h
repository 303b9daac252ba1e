/*-------------------------------------------------------------------------
 *
 * xid.h
 *	  Shared definitions of the xid extension: the datum representation,
 *	  the layout of the xid profile, and what each file offers the others.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_H
#define XID_H

#include "postgres.h"

#include "fmgr.h"
#include "nodes/nodes.h"
#include "nodes/pathnodes.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "compat.h"

/*
 * The type is an unsigned 64-bit integer passed by value, which needs a
 * 64-bit Datum: stop here rather than build a library that cannot work.
 */
#if SIZEOF_DATUM < 8
#error "the xid extension needs a 64-bit platform (8-byte Datum)"
#endif

/*
 * An xid is its unsigned 64-bit payload, passed by value.  Order, equality
 * and hashing are those of the unsigned integer.
 */
#define DatumGetXidPayload(X)	DatumGetUInt64(X)
#define XidPayloadGetDatum(X)	UInt64GetDatum(X)
#define PG_GETARG_XIDPAYLOAD(n) DatumGetXidPayload(PG_GETARG_DATUM(n))
#define PG_RETURN_XIDPAYLOAD(x) return XidPayloadGetDatum(x)

/*
 * The xid profile: 42 bits of milliseconds since the epoch, then 22 bits
 * that the generator fills (xid_time.c has the epoch and every conversion).
 */
#define XID_MS_BITS			42
#define XID_RANDOM_BITS		22
#define XID_RANDOM_MASK		((UINT64CONST(1) << XID_RANDOM_BITS) - 1)
#define XID_MAX_MS			((INT64CONST(1) << XID_MS_BITS) - 1)

StaticAssertDecl(XID_MS_BITS + XID_RANDOM_BITS == 64,
				 "the xid fields fill 64 bits");

/* The millisecond field of a payload, and the payload of a millisecond */
#define XidPayloadGetMs(p)		((int64) ((p) >> XID_RANDOM_BITS))
#define XidMsGetPayload(ms, low) \
	(((uint64) (ms) << XID_RANDOM_BITS) | ((uint64) (low) & XID_RANDOM_MASK))

/* xid.c */
extern void _PG_init(void);

/* xid_io.c */
extern bool xid_parse_text(const char *str, size_t len, uint64 *result,
						   Node *escontext);
extern void xid_prefix_bounds_or_error(const char *str, size_t len,
									   uint64 *lo, uint64 *hi, bool *empty);

/* xid_time.c */
extern int64 xid_now_ms(void);
extern int64 xid_timestamp_floor_ms(TimestampTz ts);
extern int64 xid_timestamp_ceil_ms(TimestampTz ts);
extern int64 xid_timestamp_to_ms_checked(TimestampTz ts);
extern void xid_check_ms(int64 ms);

/* xid_generate.c */
extern void xid_generate_request_shmem(void);

/* xid_planner.c */
typedef enum XidBounds
{
	XID_BOUNDS_NONE,			/* no xid satisfies the clause */
	XID_BOUNDS_SOME,			/* the xids in [lo, hi] */
	XID_BOUNDS_ALL,				/* every xid */
	XID_BOUNDS_UNKNOWN			/* not a constant */
} XidBounds;

extern XidBounds xid_const_bounds(Node *other, uint64 *lo, uint64 *hi);

/* xid_selfuncs.c */
extern double xid_clause_selectivity(PlannerInfo *root, List *args,
									 int varRelid);

/* xid_range.c */
extern bool xid_range_bounds(TypeCacheEntry *typcache, const RangeType *r,
							 uint64 *lo, uint64 *hi);
extern bool xid_tstzrange_ms(TypeCacheEntry *typcache, const RangeType *r,
							 uint64 *lo_ms, uint64 *hi_ms);

#endif							/* XID_H */
