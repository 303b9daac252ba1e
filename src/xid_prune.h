/*-------------------------------------------------------------------------
 *
 * xid_prune.h
 *	  The rewrite of the clauses that bound an xid for partition pruning
 *	  and constraint exclusion (xid_prune.c), and the protocol of its
 *	  "done" mark, which the index conditions (xid_support.c) and the
 *	  estimator (xid_selfuncs.c) follow.
 *
 * The protocol.  xid_simplify() answers SupportRequestSimplify for a clause
 * (<@, @>, ^@, LIKE, a time comparison) with the clause again, marked
 * done (xid_done.h: xid_done_collation() makes the mark, xid_is_done()
 * reads it), and, where partition
 * pruning or constraint exclusion needs them, with clauses beside it in an
 * AND: "elem >= lo AND elem <= hi" (marked too) for a constant, or
 * "elem >= lower_bound(t) AND elem <= upper_bound(t)" with the extension's
 * bound functions (marked) for a parameter or a stable expression.  Then:
 *
 * 1. Core simplifies the arguments of that AND once more: a marked clause
 *	  is final, and xid_simplify() leaves it as it is.
 * 2. In a table without children, where nothing is pruned any more,
 *	  xid_cmp_support() turns each marked comparison into "true" (one with
 *	  a constant only in a partition: an inheritance child keeps it for
 *	  constraint exclusion against its CHECK constraints).  A partition is
 *	  planned with the clause alone, as a plain table is, and the result is
 *	  the kept clause's, which is exact.
 * 3. The index conditions of a marked clause beside its marked comparisons
 *	  are those comparisons: the clause gives none of its own
 *	  (xid_has_pruning_clauses() with comparisons_only).
 * 4. The estimator counts a marked clause as 1 where its pruning clauses
 *	  stand beside it: they bound the id exactly as it does, and core
 *	  estimates them, so the window counts once.
 *
 * "elem > <the largest xid>", which stands for "nothing", is never marked:
 * under NOT it becomes "elem <= <the largest xid>", which rule 2 would
 * turn into "true".  On a foreign table's own column nothing is marked:
 * postgres_fdw sends no expression whose input collation no foreign column
 * gave it.  A user's own clause is never marked, whatever collation it
 * is written with (xid_done.h), so it always gets its pruning clauses.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_PRUNE_H
#define XID_PRUNE_H

#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"

/* SupportRequestSimplify of a clause function: the rewrite above */
extern Node *xid_simplify(SupportRequestSimplify *req);

/*
 * Are the clauses xid_simplify() adds beside a clause on elem among rel's
 * restriction clauses (with comparisons_only, those that compare elem
 * itself, which an index on elem takes as its conditions)?
 */
extern bool xid_has_pruning_clauses(RelOptInfo *rel, Node *elem,
									bool comparisons_only);

#endif							/* XID_PRUNE_H */
