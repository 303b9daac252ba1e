/*-------------------------------------------------------------------------
 *
 * xid_actual.h
 *	  The actual ends of an xid column, read through its btree index once
 *	  per plan (xid_actual.c), for the estimators.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_ACTUAL_H
#define XID_ACTUAL_H

#include "nodes/pathnodes.h"
#include "utils/selfuncs.h"

/* What the index says of the column's non-null values now */
typedef struct XidActualRange
{
	uint64		min;			/* the smallest */
	uint64		max;			/* the largest */
	bool		have_after;		/* is there one above "past"? */
	uint64		after;			/* the smallest above "past" */
} XidActualRange;

/*
 * The actual range of vardata's column, and the first value above past;
 * false when there is no btree index to read it from, or it has no row.
 */
extern bool xid_actual_range(PlannerInfo *root, VariableStatData *vardata,
							 uint64 past, XidActualRange *range);

#endif							/* XID_ACTUAL_H */
