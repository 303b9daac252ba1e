/*-------------------------------------------------------------------------
 *
 * xid_prune.c
 *	  The rewrite of the clauses that bound an xid (<@, @>, ^@, LIKE, and
 *	  the comparisons with a timestamptz) for partition pruning and
 *	  constraint exclusion, and its "done" mark (xid_prune.h has the
 *	  protocol).
 *
 * A constant range, prefix, pattern or time stands for the closed bounds
 * [lo, hi], so "id <@ r" is "id >= lo AND id <= hi".  Partition pruning
 * and constraint exclusion understand only the two comparisons, so
 * SupportRequestSimplify adds them beside the clause wherever the element
 * may belong to a partitioned or inheritance parent, and wherever it is
 * not a plain column (expression indexes, outer references).  A clause
 * with a constant keeps one form with a planner and without one (index
 * predicates), so that partial indexes and ON CONFLICT arbiters match it
 * (see xid_simplify()).  A parameter or a stable expression on a parent
 * keeps the clause and gets the bound function clauses beside it.
 *
 * On a plain table's own column the clause is kept alone, so that its row
 * estimate comes from xid_selfuncs.c, which interpolates within the
 * column's histogram (core's estimate of the two comparisons cannot), and
 * its index conditions from xid_support.c.
 *
 * Also here: the tests for parent, child, foreign and TimescaleDB tables
 * that decide where the comparisons go.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "xid.h"
#include "xid_catcache.h"
#include "xid_clause.h"
#include "xid_done.h"
#include "xid_like.h"
#include "xid_ops.h"
#include "xid_prune.h"
#include "xid_range.h"
#include "xid_time.h"

/*
 * The table whose own column elem is, in a planner run; NULL for anything
 * else (an expression, an outer reference, a subquery's output, no planner).
 */
static RangeTblEntry *
column_table(PlannerInfo *root, Node *elem)
{
	Var		   *var;
	RangeTblEntry *rte;

	if (root == NULL || root->parse == NULL || !IsA(elem, Var))
		return NULL;
	var = (Var *) elem;
	if (var->varlevelsup != 0 || var->varno < 1 ||
		var->varno > list_length(root->parse->rtable))
		return NULL;
	rte = rt_fetch(var->varno, root->parse->rtable);
	return rte->rtekind == RTE_RELATION ? rte : NULL;
}

/*
 * Is rte a partitioned table or a table with inheritance children?  Not
 * rte->inh: TimescaleDB clears it for a hypertable, whose chunks it expands
 * itself.  With ONLY, the clauses added for a parent are merely redundant.
 */
static bool
is_parent(RangeTblEntry *rte)
{
	return rte->relkind == RELKIND_PARTITIONED_TABLE || has_subclass(rte->relid);
}

/*
 * Keep the clause whole (see the file header)?  Only for a plain column of
 * a plain table without inheritance children, in a planner run.
 */
static bool
keep_for_estimates(PlannerInfo *root, Node *elem)
{
	RangeTblEntry *rte = column_table(root, elem);

	return rte != NULL && !is_parent(rte);
}

/*
 * Is elem a column of an inheritance child (of a parent that is not a
 * partitioned table)?  A clause on it that the planner simplifies is one
 * of the child's CHECK constraints or index predicates: PostgreSQL 19
 * simplifies them with the child's own varno (before, with varno 1, which
 * was the parent's in a query on the parent, and the Vars renumbered
 * afterwards).  Constraint exclusion compares them with the parent's
 * clauses, which have the comparisons, so they need them too.
 */
static bool
inheritance_child_column(PlannerInfo *root, Node *elem)
{
	Index		varno;
	AppendRelInfo *appinfo;

	if (column_table(root, elem) == NULL || root->append_rel_array == NULL)
		return false;
	varno = ((Var *) elem)->varno;
	if (varno >= (Index) root->simple_rel_array_size)
		return false;
	appinfo = root->append_rel_array[varno];
	return appinfo != NULL && appinfo->parent_relid >= 1 &&
		appinfo->parent_relid <= (Index) list_length(root->parse->rtable) &&
		rt_fetch(appinfo->parent_relid, root->parse->rtable)->relkind !=
		RELKIND_PARTITIONED_TABLE;
}

/*
 * Is evaluating elem twice cheap and safe?  As core's rule for ranges: no
 * volatile function, no subplan, and no more than ten operators.
 */
static bool
cheap_to_repeat(PlannerInfo *root, Node *elem)
{
	QualCost	cost;

	if (contain_volatile_functions(elem) || contain_subplans(elem))
		return false;
	cost_qual_eval_node(&cost, elem, root);
	return cost.startup + cost.per_tuple <= 10 * cpu_operator_cost;
}

/*
 * The default btree operator family of a type, or InvalidOid: the type
 * cache's, found once per backend (and again after a change to the type's
 * operator classes) rather than by a scan of pg_opclass for every clause
 * of every partition.
 */
static Oid
btree_family(Oid type)
{
	return lookup_type_cache(type, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
}

/*
 * The clause again, with input collation collid, as the operator it was
 * written with where there is one.
 */
static Expr *
clause_with_collation(SupportRequestSimplify *req, const XidClause *c,
					  Oid collid)
{
	FuncExpr   *f = req->fcall;
	Node	   *elem = copyObject(c->elem);
	Node	   *other = copyObject(c->other);
	Node	   *left = c->elem_argno == 0 ? elem : other;
	Node	   *right = c->elem_argno == 0 ? other : elem;
	static const char *const time_names[4] = {
		[XID_TIME_LT] = "<",[XID_TIME_LE] = "<=",
		[XID_TIME_GT] = ">",[XID_TIME_GE] = ">=",
	};
	static const char *const time_names_flipped[4] = {
		[XID_TIME_LT] = ">",[XID_TIME_LE] = ">=",
		[XID_TIME_GT] = "<",[XID_TIME_GE] = "<=",
	};
	const char *name = NULL;
	Oid			opno = InvalidOid;

	switch (c->kind)
	{
		case XID_CLAUSE_RANGE:
			name = c->elem_argno == 0 ? "<@" : "@>";
			break;
		case XID_CLAUSE_PREFIX:
			name = "^@";
			break;
		case XID_CLAUSE_LIKE:
			name = "~~";
			break;
		case XID_CLAUSE_TIME:
			name = (c->elem_argno == 0 ? time_names : time_names_flipped)[c->timeop];
			break;
		case XID_CLAUSE_NOT_LIKE:
		case XID_CLAUSE_CMP:
			/* !~~ has no support function (see the file header) */
			elog(ERROR, "unexpected xid clause kind %d", (int) c->kind);
	}
	opno = GetSysCacheOid4(OPERNAMENSP, Anum_pg_operator_oid,
						   CStringGetDatum(name),
						   ObjectIdGetDatum(exprType(left)),
						   ObjectIdGetDatum(exprType(right)),
						   ObjectIdGetDatum(get_func_namespace(f->funcid)));
	if (OidIsValid(opno) && get_opcode(opno) == f->funcid)
		return make_opclause(opno, BOOLOID, false, (Expr *) left,
							 (Expr *) right, InvalidOid, collid);
	return (Expr *) makeFuncExpr(f->funcid, BOOLOID, list_make2(left, right),
								 InvalidOid, collid, COERCE_EXPLICIT_CALL);
}

/* The clause again, marked done */
static Expr *
clause_marked_done(SupportRequestSimplify *req, const XidClause *c)
{
	return clause_with_collation(req, c, xid_done_collation(c->other));
}

/*
 * A constant on a foreign table's own column (also a partition's, after
 * its parent's clauses were translated to it): what postgres_fdw decides
 * to send to the remote server.  It sends no expression whose input
 * collation no foreign column gave it, such as the mark, and a foreign
 * table has no index here for a predicate to match; so, as before the one
 * form: the exact comparisons where they are the whole truth, else the
 * clause as written, unmarked (its collation is its text argument's, for
 * LIKE; none for the others).  A single clause is not simplified again;
 * the comparisons are plain and stay as they are.
 */
static Node *
simplify_foreign(SupportRequestSimplify *req, XidClause *clause)
{
	XidClauseBounds b;
	Oid			family;
	List	   *clauses;

	xid_clause_bounds(clause, clause->other, &b);
	family = btree_family(exprType(clause->elem));
	if ((b.bounds == XID_BOUNDS_NONE || b.bounds == XID_BOUNDS_SOME) && b.exact &&
		OidIsValid(family) &&
		(clauses = xid_const_range_clauses(clause->elem, family, &b,
										   false)) != NIL)
		return list_length(clauses) == 1 ? linitial(clauses) :
			(Node *) make_andclause(clauses);
	if (!xid_is_done(req->fcall->inputcollid, clause->other))
		return NULL;
	return (Node *) clause_with_collation(req, clause,
										  clause->kind == XID_CLAUSE_LIKE ?
										  exprCollation(clause->other) : InvalidOid);
}

/* Is elem a foreign table's own column, in a planner run? */
static bool
foreign_column(PlannerInfo *root, Node *elem)
{
	RangeTblEntry *rte = column_table(root, elem);

	return rte != NULL && rte->relkind == RELKIND_FOREIGN_TABLE;
}

/*
 * "xid_time(elem) OP t" for a time comparison that bounds from below: what
 * TimescaleDB's chunk constraints are written in (see xid_simplify()).
 */
static Expr *
time_field_clause(Oid support_of, const XidClause *c)
{
	Oid			fn = xid_plan_func(get_func_namespace(support_of), XID_FN_TIME);
	Oid			family = btree_family(TIMESTAMPTZOID);
	int			strategy = c->timeop == XID_TIME_GE ?
		BTGreaterEqualStrategyNumber : BTGreaterStrategyNumber;
	Oid			op = get_opfamily_member(family, TIMESTAMPTZOID, TIMESTAMPTZOID,
										 strategy);

	if (!OidIsValid(op))
		return NULL;
	return make_opclause(op, BOOLOID, false,
						 (Expr *) makeFuncExpr(fn, TIMESTAMPTZOID,
											   list_make1(copyObject(c->elem)),
											   InvalidOid, InvalidOid,
											   COERCE_EXPLICIT_CALL),
						 (Expr *) copyObject(c->other), InvalidOid, InvalidOid);
}

/*
 * SupportRequestSimplify: one form for a clause with a constant wherever
 * it is read, so that what the planner proves from a query's clauses
 * (partial index predicates, ON CONFLICT arbiters, constraint exclusion)
 * meets the same expression in the catalog, as it does for a timestamptz
 * column.
 *
 * - A constant: the clause as written, marked done (xid_done.h).
 *   That is all on a plain table's own column, where the estimator reads
 *   the clause whole, and where there is no planner (index predicates and
 *   expressions, which PostgreSQL simplifies without one).  Where the
 *   element belongs to a partitioned or inheritance parent, or is not a
 *   plain column (see the file header), "elem >= lo AND elem <= hi" (or
 *   "elem > <the largest xid>" for nothing), also marked, follow it: what
 *   partition pruning and constraint exclusion understand.  They count
 *   once in the estimates (xid_selfuncs.c), and in a partition, where
 *   nothing is pruned any more, they are "true" (xid_cmp_support), so a
 *   partition is planned with the clause alone, as a plain table is; the
 *   children of an inheritance parent keep them for constraint exclusion
 *   against their CHECK constraints.
 *
 * - A parameter or a stable expression (now() - interval '1 day') keeps
 *   the clause and adds the bound function clauses, "elem >= lower(t)" and
 *   so on, which PostgreSQL prunes partitions with when the executor
 *   starts.  They are redundant: where a bound is NULL (no xid qualifies)
 *   the clause beside it is false or NULL, and "false AND NULL" is false,
 *   so the result is exactly the clause's, under NOT too.  The estimator
 *   counts the window once (xid_selfuncs.c).  On an inheritance parent
 *   that is not a partitioned table (a TimescaleDB hypertable) a lower
 *   time bound also adds "xid_time(elem) >= t", the form of the chunks'
 *   constraints, which TimescaleDB excludes chunks with at start-up.
 *
 * A clause marked done is final: simplified again (in a partition, for an
 * inlined function) it stays as it is.
 */
Node *
xid_simplify(SupportRequestSimplify *req)
{
	XidClause	clause;
	XidClauseBounds b;
	Oid			family;
	List	   *clauses;

	if (!xid_clause_parse(req->fcall->funcid, req->fcall->args,
						  req->fcall->inputcollid, &clause))
		return NULL;
	if (IsA(clause.other, Const) && foreign_column(req->root, clause.elem))
		return simplify_foreign(req, &clause);
	if (xid_is_done(req->fcall->inputcollid, clause.other))
		return NULL;
	if (IsA(clause.other, Const))
	{
		Expr	   *done = clause_marked_done(req, &clause);

		/* the common case first: a plain table's own column */
		if (req->root == NULL ||
			(keep_for_estimates(req->root, clause.elem) &&
			 !inheritance_child_column(req->root, clause.elem)))
			return (Node *) done;
		xid_clause_bounds(&clause, clause.other, &b);
		if ((b.bounds != XID_BOUNDS_NONE && b.bounds != XID_BOUNDS_SOME) ||
			!cheap_to_repeat(req->root, clause.elem))
			return (Node *) done;
		family = btree_family(exprType(clause.elem));
		if (!OidIsValid(family))
			return (Node *) done;
		clauses = xid_const_range_clauses(clause.elem, family, &b, true);
		if (clauses == NIL)
			return (Node *) done;
		return (Node *) make_andclause(lcons(done, clauses));
	}
	else
	{
		/* a parameter or an expression: cheap tests first */
		RangeTblEntry *rte;

		xid_clause_bounds(&clause, clause.other, &b);
		if (b.bounds != XID_BOUNDS_UNKNOWN)
			return NULL;
		rte = column_table(req->root, clause.elem);
		if (rte == NULL || !is_parent(rte) ||
			!is_pseudo_constant_clause(clause.other) ||
			!cheap_to_repeat(req->root, clause.other))
			return NULL;
		family = btree_family(exprType(clause.elem));
		if (!OidIsValid(family))
			return NULL;
		clauses = xid_bound_function_clauses(req->fcall->funcid, &clause,
											 family, true);
		if (clauses == NIL)
			return NULL;
		clauses = lcons(clause_marked_done(req, &clause), clauses);
		if (clause.kind == XID_CLAUSE_TIME && XidTimeOpIsLower(clause.timeop) &&
			rte->relkind != RELKIND_PARTITIONED_TABLE)
		{
			Expr	   *field = time_field_clause(req->fcall->funcid, &clause);

			if (field != NULL)
				clauses = lappend(clauses, field);
		}
	}
	return list_length(clauses) == 1 ? linitial(clauses) :
		(Node *) make_andclause(clauses);
}

/*
 * Planner support function of xid >= xid and xid <= xid.  The comparisons
 * that xid_simplify() adds on a parent for partition pruning (marked done,
 * xid_done.h) only repeat the clause kept beside them, whose index
 * conditions they are too: in a partition of its own (a table without
 * children), where nothing is pruned any more, such a comparison is
 * "true".  So each partition is planned with the one clause, as it is for a
 * table partitioned by a timestamptz column, and the result is the kept
 * clause's, which is exact, wherever the pair stood (under NOT too).  A
 * comparison with a constant stays in a child that is not a partition: its
 * CHECK constraints are what excludes it (constraint exclusion), and they
 * read as the same comparisons.
 */
PG_FUNCTION_INFO_V1(xid_cmp_support);
Datum
xid_cmp_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestSimplify *req;
	Node	   *elem;

	if (!IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(NULL);
	req = (SupportRequestSimplify *) rawreq;
	if (list_length(req->fcall->args) != 2 ||
		!xid_is_done(req->fcall->inputcollid, lsecond(req->fcall->args)))
		PG_RETURN_POINTER(NULL);
	elem = linitial(req->fcall->args);
	if (keep_for_estimates(req->root, elem) &&
		(!IsA(lsecond(req->fcall->args), Const) ||
		 get_rel_relispartition(column_table(req->root, elem)->relid)))
		PG_RETURN_POINTER(makeBoolConst(true, false));
	PG_RETURN_POINTER(NULL);
}

/*
 * Is clause one that xid_simplify() adds beside a clause on
 * elem for partition pruning: "elem >= bound_function(...)" (either
 * operator, either order), "xid_time(elem) OP t" (unless comparisons_only:
 * it is no index condition on elem), or a comparison of elem with a
 * constant marked done (xid_done.h)?
 */
static bool
pruning_clause(Node *clause, Node *elem, bool comparisons_only)
{
	static const PGFunction bound_funcs[] = {
		xid_time_lower_bound, xid_time_upper_bound,
		xid_range_lower_bound, xid_range_upper_bound,
		xid_prefix_lower_bound, xid_prefix_upper_bound,
		xid_like_lower_bound, xid_like_upper_bound,
	};
	List	   *args;
	FuncExpr   *f;
	PGFunction	fn;
	int			i;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return false;
	args = ((OpExpr *) clause)->args;

	/* elem >= or <= a constant, marked */
	if (xid_is_done(((OpExpr *) clause)->inputcollid, lsecond(args)) &&
		equal(linitial(args), elem) && IsA(lsecond(args), Const))
	{
		fn = xid_func_entry_point(get_opcode(((OpExpr *) clause)->opno));
		return fn == xid_ge || fn == xid_le;
	}

	/* xid_time(elem) OP t */
	if (!comparisons_only && IsA(linitial(args), FuncExpr))
	{
		f = linitial(args);
		if (list_length(f->args) == 1 && equal(linitial(f->args), elem) &&
			xid_func_entry_point(f->funcid) == xid_time)
			return true;
	}

	/* elem OP bound_function(...), or the other way round */
	if (equal(linitial(args), elem) && IsA(lsecond(args), FuncExpr))
		f = lsecond(args);
	else if (equal(lsecond(args), elem) && IsA(linitial(args), FuncExpr))
		f = linitial(args);
	else
		return false;
	fn = xid_func_entry_point(f->funcid);
	for (i = 0; i < (int) lengthof(bound_funcs); i++)
		if (fn == bound_funcs[i])
			return true;
	return false;
}

/* See xid_prune.h */
bool
xid_has_pruning_clauses(RelOptInfo *rel, Node *elem, bool comparisons_only)
{
	ListCell   *lc;

	if (rel == NULL)
		return false;
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

		if (pruning_clause((Node *) rinfo->clause, elem, comparisons_only))
			return true;
	}
	return false;
}
