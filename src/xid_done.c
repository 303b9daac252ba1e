/*-------------------------------------------------------------------------
 *
 * xid_done.c
 *	  The "done" mark of a clause that the rewrite for pruning made: see
 *	  xid_done.h for what it is, xid_prune.h for what it means.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "nodes/nodeFuncs.h"

#include "xid_done.h"

Oid
xid_done_collation(Node *other)
{
	if (other != NULL && exprCollation(other) == C_COLLATION_OID)
		return DEFAULT_COLLATION_OID;
	return C_COLLATION_OID;
}

bool
xid_is_done(Oid inputcollid, Node *other)
{
	return inputcollid == xid_done_collation(other);
}
