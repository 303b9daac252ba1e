/*-------------------------------------------------------------------------
 *
 * xid_planner.h
 *	  The mark of the clauses that xid_planner.c's rewrite for partition
 *	  pruning returns, which the estimator and the clause recognition read.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_PLANNER_H
#define XID_PLANNER_H

#include "catalog/pg_collation.h"

/*
 * The input collation that marks the clauses xid_planner.c's simplify()
 * returns for partition pruning: the clause it kept, and the bound function
 * clauses it added.  Core simplifies the arguments of an AND that a support
 * function returns once more, and the mark tells simplify() that the kept
 * clause is done; xid_cmp_support() drops the added ones in each partition,
 * and the estimator counts the kept one as 1 where they stand beside it.
 * The clauses' functions ignore the collation but for LIKE, where every
 * deterministic collation matches an id's ASCII text alike; EXPLAIN does
 * not show it.  A user's own LIKE or ^@ with COLLATE "C" is taken as done
 * too, and so only misses the pruning clauses.
 */
#define XID_DONE_COLLATION C_COLLATION_OID

#endif							/* XID_PLANNER_H */
