/*-------------------------------------------------------------------------
 *
 * xid.h
 *	  Shared definitions of the xid extension: the datum representation,
 *	  the xid profile's constants and helpers used by more than one file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_H
#define XID_H

#include "postgres.h"

#include "fmgr.h"
#include "nodes/nodes.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "compat.h"

/*
 * An xid is its unsigned 64-bit payload, passed by value.  Order, equality
 * and hashing are those of the unsigned integer.
 */
#define DatumGetXidPayload(X)	DatumGetUInt64(X)
#define XidPayloadGetDatum(X)	UInt64GetDatum(X)
#define PG_GETARG_XIDPAYLOAD(n) DatumGetXidPayload(PG_GETARG_DATUM(n))
#define PG_RETURN_XIDPAYLOAD(x) return XidPayloadGetDatum(x)

/* The xid profile: 42 bits of milliseconds since the epoch, 22 random bits */
#define XID_RANDOM_BITS		22
#define XID_RANDOM_MASK		((UINT64CONST(1) << XID_RANDOM_BITS) - 1)
#define XID_MAX_MS			((INT64CONST(1) << 42) - 1)

/*
 * The epoch, 2011-11-11T11:11:11.111Z, in microseconds after the PostgreSQL
 * epoch 2000-01-01T00:00:00Z (unix ms 1321009871111 - 946684800000).
 */
#define XID_EPOCH_PG_USEC	(INT64CONST(374325071111) * 1000)
/* and in milliseconds after the unix epoch */
#define XID_EPOCH_UNIX_MS	INT64CONST(1321009871111)

/* Text of the first and last instants an xid can hold, for messages */
#define XID_FIRST_TIME_TEXT "2011-11-11 11:11:11.111+00"
#define XID_LAST_TIME_TEXT	"2151-03-25 18:46:22.214+00"

/* xid_io.c */
extern bool xid_parse_text(const char *str, size_t len, uint64 *result,
						   Node *escontext);
extern void xid_prefix_bounds_or_error(const char *str, size_t len,
									   uint64 *lo, uint64 *hi, bool *empty);

/* xid_range.c */
extern bool xid_range_bounds(TypeCacheEntry *typcache, const RangeType *r,
							 uint64 *lo, uint64 *hi);

/* xid_clock.c */
extern int64 xid_clock_now_ms(void);
extern void xid_clock_define_guc(void);

/* xid_generate.c */
extern int64 xid_timestamp_to_ms(TimestampTz ts);

#endif							/* XID_H */
