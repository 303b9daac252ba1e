/*-------------------------------------------------------------------------
 *
 * xid_move_catalog.c
 *	  What a move reads from the catalog that SQL cannot read without
 *	  evaluating an expression: the constant of a column's default.
 *
 * A referencing column's default (ON DELETE SET DEFAULT, inserts without
 * the column) is carried over at the swap as the id of the row it
 * references.  The default is an expression tree; evaluating it would run
 * whatever it calls (a domain's CHECK, a cast function) as the role that
 * evaluates it.  So the move never evaluates it: it takes the Const at its
 * root, under any relabeling, coercion to a domain or built-in cast (an
 * integer literal as the default of a bigint column is int8(0)), and
 * prints it with its built-in type's output function; the move then reads
 * that text as a value of the key's own type.  Any other default is no constant
 * and the plan refuses it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "access/transam.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "rewrite/rewriteHandler.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "xid_move.h"

PG_FUNCTION_INFO_V1(xid_move_default_const);

/*
 * xid_move_default_const(rel regclass, attnum int2) returns text: the
 * constant a column's own default is, as text, or NULL when its default is
 * not a constant of a built-in type, or the caller has not the privileges
 * of the table's owner (the caller has read pg_attrdef: a
 * column without a default of its own would give its domain's)
 */
Datum
xid_move_default_const(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	AttrNumber	attnum = PG_GETARG_INT16(1);
	Relation	rel;
	Node	   *expr = NULL;
	Const	   *c;
	Oid			typoutput;
	bool		typisvarlena;

	/*
	 * No lock on a table of another role, and nothing read from it: the plan
	 * refuses such a table on its own
	 */
	if (!has_privs_of_role(GetUserId(), xid_move_rel_owner(relid)))
		PG_RETURN_NULL();
	rel = table_open(relid, AccessShareLock);
	if (attnum > 0 && attnum <= RelationGetDescr(rel)->natts &&
		!TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attisdropped)
		expr = build_column_default(rel, attnum);
	table_close(rel, AccessShareLock);

	/* no default, or the type's own: build_column_default() gives NULL */
	while (expr != NULL)
	{
		if (IsA(expr, RelabelType))
			expr = (Node *) ((RelabelType *) expr)->arg;
		else if (IsA(expr, CoerceToDomain))
			expr = (Node *) ((CoerceToDomain *) expr)->arg;
		else if (IsA(expr, FuncExpr) &&
				 (((FuncExpr *) expr)->funcformat == COERCE_IMPLICIT_CAST ||
				  ((FuncExpr *) expr)->funcformat == COERCE_EXPLICIT_CAST) &&
				 ((FuncExpr *) expr)->funcid < FirstNormalObjectId &&
				 list_length(((FuncExpr *) expr)->args) == 1)
			expr = (Node *) linitial(((FuncExpr *) expr)->args);
		else
			break;
	}
	if (expr == NULL || !IsA(expr, Const))
		PG_RETURN_NULL();
	c = (Const *) expr;
	if (c->constisnull || c->consttype >= FirstNormalObjectId)
		PG_RETURN_NULL();
	getTypeOutputInfo(c->consttype, &typoutput, &typisvarlena);
	PG_RETURN_TEXT_P(cstring_to_text(OidOutputFunctionCall(typoutput, c->constvalue)));
}
