/*-------------------------------------------------------------------------
 *
 * xid_ops.h
 *	  The comparison functions of xid_ops.c that the planner support knows
 *	  by their C entry points.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_OPS_H
#define XID_OPS_H

#include "fmgr.h"

extern PGDLLEXPORT Datum xid_lt(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_le(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_gt(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_ge(PG_FUNCTION_ARGS);

#endif							/* XID_OPS_H */
