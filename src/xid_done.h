/*-------------------------------------------------------------------------
 *
 * xid_done.h
 *	  The "done" mark of a clause that the rewrite for pruning made
 *	  (xid_done.c): one constructor and one predicate, which every file that
 *	  makes or reads the mark uses (xid_prune.c, xid_clause.c, xid_support.c,
 *	  xid_selfuncs.c; the protocol is in xid_prune.h).
 *
 * The mark is an input collation that the clause's arguments did not give
 * it.  PostgreSQL derives a call's input collation from its arguments, and
 * of a clause's two the xid has none: so a clause a user writes, with or
 * without COLLATE, has no input collation (a range or a time) or that of
 * its text argument (a prefix, a LIKE pattern).  A marked clause has "C",
 * or the database's default collation where its text argument's collation
 * is "C": never its argument's.  No query can write that.  The clauses'
 * functions ignore their collation but for LIKE, where every deterministic
 * collation (a database's default is one) matches an id's ASCII text
 * alike; EXPLAIN does not show an input collation.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_DONE_H
#define XID_DONE_H

#include "nodes/nodes.h"

/*
 * The input collation that marks done a clause (or a comparison of the xid)
 * whose argument other than the xid is "other"
 */
extern Oid	xid_done_collation(Node *other);

/* Is a clause with this input collation and other argument marked done? */
extern bool xid_is_done(Oid inputcollid, Node *other);

#endif							/* XID_DONE_H */
