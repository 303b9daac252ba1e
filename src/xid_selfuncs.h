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
extern bool xid_has_pruning_clauses(RelOptInfo *rel, Node *elem,
									bool comparisons_only);

#endif							/* XID_SELFUNCS_H */
