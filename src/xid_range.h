/*-------------------------------------------------------------------------
 *
 * xid_range.h
 *	  Ranges and prefixes of xids (xid_range.c): the closed bounds of an
 *	  xidrange, and the functions the planner support knows by their C
 *	  entry points.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_RANGE_H
#define XID_RANGE_H

#include "fmgr.h"
#include "utils/rangetypes.h"
#include "utils/typcache.h"

extern bool xid_range_bounds(TypeCacheEntry *typcache, const RangeType *r,
							 uint64 *lo, uint64 *hi);

/* xid <@ xidrange, xidrange @> xid, xid ^@ text */
extern PGDLLEXPORT Datum xid_contained_by(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_range_contains(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_starts_with(PG_FUNCTION_ARGS);

/* their bound functions */
extern PGDLLEXPORT Datum xid_range_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_range_upper_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_prefix_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_prefix_upper_bound(PG_FUNCTION_ARGS);

#endif							/* XID_RANGE_H */
