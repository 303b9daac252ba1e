/*-------------------------------------------------------------------------
 *
 * xid_support.c
 *	  The planner support function of the clauses that bound an xid (<@,
 *	  @>, ^@, LIKE, and the comparisons with a timestamptz), and their
 *	  index conditions, as core's like_support.c and network.c's
 *	  match_network_subset() make them for text and inet.
 *
 * A constant range, prefix, pattern or time stands for the closed bounds
 * [lo, hi]: SupportRequestIndexCondition gives btree and BRIN the two
 * comparisons "elem >= lo AND elem <= hi" as an exact index condition (a
 * LIKE pattern with more after its first wildcard, a lossy one); an empty
 * range or a prefix no id can have becomes one that matches nothing.  A
 * range, prefix, pattern or time that is a parameter (prepared statements,
 * the inner side of a nested loop) or an expression such as now() -
 * interval '1 day' gets an index condition too, through the extension's
 * functions that compute its bounds at run time.  The comparisons are
 * built in xid_clause.c, which the rewrite for pruning (xid_prune.c)
 * shares.
 *
 * NOT LIKE (!~~) has no support function: what it admits is not a window
 * of ids, so there is no index range and nothing for pruning to use; only
 * its estimate is the extension's (xid_selfuncs.c).
 *
 * No OID is fixed: the extension's schema is the user's choice.  The
 * comparison operators come from the index's operator family.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"

#include "xid_clause.h"
#include "xid_done.h"
#include "xid_prune.h"
#include "xid_selfuncs.h"

/*
 * "range_column @> xid" (or "xid <@ range_column") with an index on the
 * range column: our operators shadow core's polymorphic ones, which GiST and
 * SP-GiST range opclasses know, so hand the index core's operator instead.
 */
static List *
range_column_condition(SupportRequestIndexCondition *req, Node *range,
					   Node *elem)
{
	Oid			op;

	if (!type_is_range(exprType(range)) ||
		!is_pseudo_constant_for_index(req->root, elem, req->index))
		return NIL;
	op = get_opfamily_member(req->opfamily, ANYRANGEOID, ANYELEMENTOID,
							 RANGESTRAT_CONTAINS_ELEM);
	if (!OidIsValid(op))
		return NIL;
	req->lossy = false;
	return list_make1(make_opclause(op, BOOLOID, false, (Expr *) range,
									(Expr *) elem, InvalidOid, InvalidOid));
}

/*
 * Index conditions for a range, prefix, pattern or time that is not a
 * constant but fixed during an index scan (a parameter of a prepared
 * statement, an outer column in a nested loop, an expression such as now()
 * - interval '1 day'): the bound function clauses.  Generic plans of
 * parameterized queries then still scan the index.  Index conditions are
 * always ANDed at the top, so a NULL there means exactly "no row".
 */
static List *
parameter_condition(SupportRequestIndexCondition *req, const XidClause *c)
{
	List	   *clauses;

	if (contain_volatile_functions(c->other) ||
		!is_pseudo_constant_for_index(req->root, c->other, req->index))
		return NIL;
	clauses = xid_bound_function_clauses(req->funcid, c, req->opfamily,
										 false);
	if (clauses != NIL)
		req->lossy = (c->kind == XID_CLAUSE_LIKE);
	return clauses;
}

/*
 * SupportRequestIndexCondition: exact index conditions for a constant,
 * bound functions for a parameter.  Only families with >= and <= (btree,
 * BRIN minmax) qualify; hash and bloom families have none.
 */
static List *
index_condition(SupportRequestIndexCondition *req)
{
	List	   *args;
	Oid			collid;
	XidClause	clause;
	XidClauseBounds b;
	List	   *clauses;

	if (is_opclause(req->node))
	{
		args = ((OpExpr *) req->node)->args;
		collid = ((OpExpr *) req->node)->inputcollid;
	}
	else if (is_funcclause(req->node))
	{
		args = ((FuncExpr *) req->node)->args;
		collid = ((FuncExpr *) req->node)->inputcollid;
	}
	else
		return NIL;
	if (!xid_clause_parse(req->funcid, args, collid, &clause))
		return NIL;

	/*
	 * A clause marked done beside the comparisons xid_simplify() added for
	 * pruning (an inheritance child, an expression): they are the index
	 * conditions already.  Not beside "xid_time(elem) >= t" alone, which is
	 * what stays in a TimescaleDB chunk, where the comparisons with the bound
	 * functions became "true": the clause gives the index conditions there.
	 */
	if (xid_is_done(collid, clause.other) &&
		xid_has_pruning_clauses(req->index->rel, clause.elem, true))
		return NIL;
	if (req->indexarg != clause.elem_argno)
		return clause.kind == XID_CLAUSE_RANGE ?
			range_column_condition(req, clause.other, clause.elem) : NIL;

	xid_clause_bounds(&clause, clause.other, &b);
	if (b.bounds == XID_BOUNDS_UNKNOWN && !IsA(clause.other, Const))
		return parameter_condition(req, &clause);
	clauses = xid_const_range_clauses(clause.elem, req->opfamily, &b,
									  false);
	if (clauses != NIL)
		req->lossy = !b.exact;
	return clauses;
}

/*
 * Planner support function of the clause functions (see xid_clause_parse):
 * the rewrite for pruning is xid_prune.c's, the index conditions are this
 * file's, the estimates xid_selfuncs.c's.
 */
PG_FUNCTION_INFO_V1(xid_range_support);
Datum
xid_range_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(xid_simplify((SupportRequestSimplify *) rawreq));

	if (IsA(rawreq, SupportRequestIndexCondition))
		PG_RETURN_POINTER(index_condition((SupportRequestIndexCondition *) rawreq));

	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;

		if (req->is_join)
			PG_RETURN_POINTER(NULL);
		req->selectivity = xid_clause_selectivity(req->root, req->funcid,
												  req->args, req->varRelid,
												  req->inputcollid);
		PG_RETURN_POINTER(req);
	}

	PG_RETURN_POINTER(NULL);
}
