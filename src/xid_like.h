/*-------------------------------------------------------------------------
 *
 * xid_like.h
 *	  LIKE and NOT LIKE on xids (xid_like.c): what a pattern admits, and
 *	  the functions the planner support knows by their C entry points.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_LIKE_H
#define XID_LIKE_H

#include "fmgr.h"

#include "xid_bounds.h"

extern XidBounds xid_like_bounds(const char *pattern, size_t len,
								 uint64 *lo, uint64 *hi, bool *exact,
								 int *rest_literals);

/* xid ~~ text, xid !~~ text, and the bound functions of a pattern */
extern PGDLLEXPORT Datum xid_like(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_not_like(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_like_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_like_upper_bound(PG_FUNCTION_ARGS);

#endif							/* XID_LIKE_H */
