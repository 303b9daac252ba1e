/*-------------------------------------------------------------------------
 *
 * xid_selfuncs.h
 *	  Row estimates of the clauses the planner support understands
 *	  (xid_selfuncs.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_SELFUNCS_H
#define XID_SELFUNCS_H

#include "nodes/pathnodes.h"

extern double xid_clause_selectivity(PlannerInfo *root, Oid funcid,
									 List *args, int varRelid,
									 Oid collation);

#endif							/* XID_SELFUNCS_H */
