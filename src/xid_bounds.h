/*-------------------------------------------------------------------------
 *
 * xid_bounds.h
 *	  Closed bounds on the xid: what a clause admits, and the SQL functions
 *	  that compute them at run time for the planner.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_BOUNDS_H
#define XID_BOUNDS_H

#include "fmgr.h"

/* What a clause admits, as closed bounds on the xid */
typedef enum XidBounds
{
	XID_BOUNDS_NONE,			/* no xid satisfies the clause */
	XID_BOUNDS_SOME,			/* the xids in [lo, hi] */
	XID_BOUNDS_ALL,				/* every xid */
	XID_BOUNDS_UNKNOWN			/* not known at plan time */
} XidBounds;

/*
 * Define the SQL-callable function "name" as helper(fcinfo, flag): the
 * lower and upper bound functions the planner puts into plans come in
 * pairs that differ only in the end they return.
 */
#define XID_BOUND_FUNC(name, helper, flag) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	return helper(fcinfo, flag); \
}

#endif							/* XID_BOUNDS_H */
