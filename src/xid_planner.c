/*-------------------------------------------------------------------------
 *
 * xid_planner.c
 *	  Planner support for the clauses that bound an xid (<@, @>, ^@, LIKE,
 *	  and the comparisons with a timestamptz): index range scans, and what
 *	  partition pruning and constraint exclusion need.  Clauses are taken
 *	  apart in xid_clause.c; their row estimates are xid_selfuncs.c's.
 *
 * A constant range, prefix, pattern or time stands for the closed bounds
 * [lo, hi], so "id <@ r" is "id >= lo AND id <= hi".  Two ways get that to
 * the planner:
 *
 * - SupportRequestSimplify adds the two comparisons beside the clause.
 *   Partition pruning and constraint exclusion understand only those, so
 *   this is done wherever the element may belong to a partitioned or
 *   inheritance parent, and wherever it is not a plain column (expression
 *   indexes, outer references).  A clause with a constant keeps one form
 *   with a planner and without one (index predicates), so that partial
 *   indexes and ON CONFLICT arbiters match it (see simplify()).  A
 *   parameter or a stable expression on a parent keeps the clause and gets
 *   the bound function clauses beside it.
 *
 * - On a plain table's own column the clause is kept alone, so that its
 *   row estimate comes from xid_selfuncs.c, which interpolates within the
 *   column's histogram (core's estimate of the two comparisons cannot).
 *   SupportRequestIndexCondition then gives btree and BRIN the same two
 *   comparisons as an exact index condition; an empty range or a prefix
 *   no id can have becomes one that matches nothing.
 *
 * A range, prefix, pattern or time that is a parameter (prepared
 * statements, the inner side of a nested loop) or an expression such as
 * now() - interval '1 day' gets an index condition too, through the
 * extension's functions that compute its bounds at run time.
 *
 * NOT LIKE (!~~) has no support function: what it admits is not a window
 * of ids, so there is no index range and nothing for pruning to use; only
 * its estimate is the extension's (xid_selfuncs.c).
 *
 * No OID is fixed: the extension's schema is the user's choice.  The
 * comparison operators come from the index's operator family; the bound
 * functions are looked up once per backend in the extension's own schema
 * (again after any change to pg_proc), and a missing one is an error, not
 * a silently worse plan.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_class.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_proc.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "xid.h"
#include "xid_clause.h"
#include "xid_planner.h"
#include "xid_selfuncs.h"
#include "xid_time.h"

/*
 * An xid constant of the element's type.
 */
static Expr *
xid_const(Oid xidtype, uint64 value)
{
	return (Expr *) makeConst(xidtype, -1, InvalidOid, sizeof(uint64),
							  XidPayloadGetDatum(value), false, true);
}

/*
 * The >= and <= operators of an operator family for a type, of the last
 * family asked for: each planned clause asks for them once or twice, and
 * nearly always of the same family.  Any change to pg_amop forgets them.
 */
static Oid	ge_le_family = InvalidOid;
static Oid	ge_le_type = InvalidOid;
static Oid	ge_le_ops[2];
static uint32 ge_le_generation = 0;

static void
ge_le_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	ge_le_family = InvalidOid;
	ge_le_generation++;
}

static void
family_ge_le(Oid opfamily, Oid type, Oid *ge, Oid *le)
{
	static bool callback_registered = false;

	if (!callback_registered)
	{
		CacheRegisterSyscacheCallback(AMOPSTRATEGY, ge_le_invalidate, (Datum) 0);
		callback_registered = true;
	}
	if (opfamily != ge_le_family || type != ge_le_type)
	{
		uint32		generation = ge_le_generation;

		/*
		 * The lookups may process invalidations: remember the answer only if
		 * none came meanwhile, so that it cannot outlive a change
		 */
		*ge = get_opfamily_member(opfamily, type, type,
								  BTGreaterEqualStrategyNumber);
		*le = get_opfamily_member(opfamily, type, type,
								  BTLessEqualStrategyNumber);
		if (generation == ge_le_generation)
		{
			ge_le_ops[0] = *ge;
			ge_le_ops[1] = *le;
			ge_le_family = opfamily;
			ge_le_type = type;
		}
		return;
	}
	*ge = ge_le_ops[0];
	*le = ge_le_ops[1];
}

/*
 * "elem >= lo" and "elem <= hi" with the operators of a btree-like operator
 * family and the given input collation (which the comparisons ignore, see
 * XID_DONE_COLLATION); a NULL bound is left out.  NIL if the family lacks
 * the operators (hash, BRIN bloom) or both bounds are NULL.
 */
static List *
range_clauses(Node *elem, Oid opfamily, Expr *lo, Expr *hi, Oid collation)
{
	Oid			xidtype = exprType(elem);
	Oid			ge,
				le;
	List	   *clauses = NIL;

	family_ge_le(opfamily, xidtype, &ge, &le);

	if (!OidIsValid(ge) || !OidIsValid(le))
		return NIL;
	if (lo != NULL)
		clauses = lappend(clauses,
						  make_opclause(ge, BOOLOID, false, (Expr *) elem, lo,
										InvalidOid, collation));
	if (hi != NULL)
		clauses = lappend(clauses,
						  make_opclause(le, BOOLOID, false,
										(Expr *) (lo != NULL ? copyObject(elem) : elem),
										hi, InvalidOid, collation));
	return clauses;
}

/*
 * The index or rewrite conditions for what a clause admits with constant
 * bounds: "elem >= lo AND elem <= hi" (an end of the xid range left out),
 * and for nothing "elem > <the largest xid>", which is false for every xid
 * and NULL for NULL, exactly as the clause itself (a plain "false" would
 * turn NOT (id <@ 'empty') true for a NULL id).  NIL when the family lacks
 * the operators or when every xid qualifies.
 */
static List *
const_range_clauses(Node *elem, Oid opfamily, const XidClauseBounds *b,
					Oid collation)
{
	Oid			xidtype = exprType(elem);
	Oid			gt;

	if (b->bounds == XID_BOUNDS_SOME)
		return range_clauses(elem, opfamily,
							 b->lo > 0 ? xid_const(xidtype, b->lo) : NULL,
							 b->hi < PG_UINT64_MAX ? xid_const(xidtype, b->hi) : NULL,
							 collation);
	if (b->bounds != XID_BOUNDS_NONE)
		return NIL;
	gt = get_opfamily_member(opfamily, xidtype, xidtype,
							 BTGreaterStrategyNumber);
	if (!OidIsValid(gt))
		return NIL;

	/*
	 * Never marked: under NOT it becomes "elem <= <the largest xid>", which
	 * xid_cmp_support would turn into "true" in a partition
	 */
	return list_make1(make_opclause(gt, BOOLOID, false, (Expr *) elem,
									xid_const(xidtype, PG_UINT64_MAX),
									InvalidOid, InvalidOid));
}

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
 * The extension's functions that the planner puts into plans, looked up once
 * per backend in the extension's schema.
 */
typedef enum XidPlanFunc
{
	XID_FN_RANGE_LOWER,
	XID_FN_RANGE_UPPER,
	XID_FN_PREFIX_LOWER,
	XID_FN_PREFIX_UPPER,
	XID_FN_LIKE_LOWER,
	XID_FN_LIKE_UPPER,
	XID_FN_TIME_LOWER,
	XID_FN_TIME_UPPER,
	XID_FN_TIME,
	XID_NUM_PLAN_FUNCS
} XidPlanFunc;

/* An argument type of InvalidOid is the extension's type named in "ours" */
static const struct
{
	const char *name;
	int			nargs;
	Oid			argtypes[2];
	const char *ours;
	const char *signature;		/* for messages */
}			plan_func_sig[XID_NUM_PLAN_FUNCS] = {
	[XID_FN_RANGE_LOWER] = {"xid_range_lower_bound", 1, {InvalidOid}, "xidrange", "xidrange"},
	[XID_FN_RANGE_UPPER] = {"xid_range_upper_bound", 1, {InvalidOid}, "xidrange", "xidrange"},
	[XID_FN_PREFIX_LOWER] = {"xid_prefix_lower_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_PREFIX_UPPER] = {"xid_prefix_upper_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_LIKE_LOWER] = {"xid_like_lower_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_LIKE_UPPER] = {"xid_like_upper_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_TIME_LOWER] = {"xid_time_lower_bound", 2, {TIMESTAMPTZOID, BOOLOID},
	NULL, "timestamp with time zone, boolean"},
	[XID_FN_TIME_UPPER] = {"xid_time_upper_bound", 2, {TIMESTAMPTZOID, BOOLOID},
	NULL, "timestamp with time zone, boolean"},
	[XID_FN_TIME] = {"xid_time", 1, {InvalidOid}, "xid", "xid"},
};

static Oid	plan_funcs_nsp = InvalidOid;	/* schema they were found in */
static Oid	plan_funcs[XID_NUM_PLAN_FUNCS];
static uint32 plan_funcs_generation = 0;
static bool plan_funcs_callback_registered = false;

/* Any change to pg_proc (ALTER, DROP, DROP EXTENSION): look up again */
static void
plan_funcs_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	plan_funcs_nsp = InvalidOid;
	plan_funcs_generation++;
}

/*
 * The OID of one of the extension's plan functions, in schema nsp (the
 * schema of the function being planned, which is the extension's).  A
 * function that is missing or renamed is an error when a clause needs it:
 * without it the planner would quietly fall back to scanning the whole
 * table.
 */
static Oid
plan_func(Oid nsp, XidPlanFunc which)
{
	Oid			found[XID_NUM_PLAN_FUNCS];
	const Oid  *funcs = plan_funcs;

	if (!plan_funcs_callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, plan_funcs_invalidate, (Datum) 0);
		plan_funcs_callback_registered = true;
	}
	if (plan_funcs_nsp != nsp)
	{
		uint32		generation = plan_funcs_generation;
		int			i;

		/*
		 * By name and argument types in the schema's own OID, as the syscache
		 * holds them: no search path and no privilege of the querying role is
		 * involved (a role may read a view over the extension's operators
		 * without USAGE on its schema).
		 */
		for (i = 0; i < XID_NUM_PLAN_FUNCS; i++)
		{
			Oid			argtypes[2];
			Oid			fn = InvalidOid;
			int			j;

			for (j = 0; j < plan_func_sig[i].nargs; j++)
				argtypes[j] = OidIsValid(plan_func_sig[i].argtypes[j]) ?
					plan_func_sig[i].argtypes[j] :
					GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
									CStringGetDatum(plan_func_sig[i].ours),
									ObjectIdGetDatum(nsp));
			if (OidIsValid(argtypes[0]))
				fn = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
									 CStringGetDatum(plan_func_sig[i].name),
									 PointerGetDatum(buildoidvector(argtypes,
																	plan_func_sig[i].nargs)),
									 ObjectIdGetDatum(nsp));
			found[i] = fn;
		}
		funcs = found;

		/*
		 * The lookups may process invalidations: keep the answer for later
		 * calls only if none came meanwhile
		 */
		if (generation == plan_funcs_generation)
		{
			memcpy(plan_funcs, found, sizeof(plan_funcs));
			plan_funcs_nsp = nsp;
		}
	}

	/*
	 * Only the function this clause needs must exist: a database still on an
	 * older version of the extension has no functions for the operators that
	 * came later, and needs none of them.
	 */
	if (!OidIsValid(funcs[which]))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("function %s.%s(%s) of extension \"xid\" does not exist",
						get_namespace_name(nsp), plan_func_sig[which].name,
						plan_func_sig[which].signature),
				 errdetail("The planner needs it for index conditions and partition pruning on parameters."),
				 errhint("Give the function back its name, or drop the extension and create it again.")));
	return funcs[which];
}

/*
 * A call of one of the extension's plan functions, or NULL for none.
 */
static Expr *
plan_func_call(Oid support_of, XidPlanFunc which, List *args, Oid xidtype)
{
	Oid			fn;

	if (args == NIL)
		return NULL;
	fn = plan_func(get_func_namespace(support_of), which);
	return (Expr *) makeFuncExpr(fn, xidtype, args, InvalidOid, InvalidOid,
								 COERCE_EXPLICIT_CALL);
}

/*
 * "elem >= lower_bound(other) AND elem <= upper_bound(other)" with the
 * extension's bound functions and the operators of opfamily, for a range,
 * prefix, pattern or time that is not a constant (a time comparison bounds
 * one end only).  The bound functions return NULL, and so match nothing,
 * when no xid qualifies.  NIL when the family lacks the operators.
 */
static List *
bound_function_clauses(Oid support_of, const XidClause *c, Oid opfamily,
					   Oid collation)
{
	Oid			xidtype = exprType(c->elem);
	Node	   *arg = copyObject(c->other);
	List	   *lower = list_make1(arg);
	List	   *upper = list_make1(copyObject(arg));
	XidPlanFunc lo_fn;

	switch (c->kind)
	{
		case XID_CLAUSE_RANGE:
			lo_fn = XID_FN_RANGE_LOWER;
			break;
		case XID_CLAUSE_PREFIX:
			lo_fn = XID_FN_PREFIX_LOWER;
			break;
		case XID_CLAUSE_LIKE:
			lo_fn = XID_FN_LIKE_LOWER;
			break;
		case XID_CLAUSE_TIME:
			{
				Node	   *incl = (Node *) makeBoolConst(XidTimeOpIsInclusive(c->timeop),
														  false);

				lo_fn = XID_FN_TIME_LOWER;
				if (XidTimeOpIsLower(c->timeop))
				{
					lower = lappend(lower, incl);
					upper = NIL;
				}
				else
				{
					lower = NIL;
					upper = lappend(upper, incl);
				}
				break;
			}
		default:
			return NIL;
	}

	/* each lower bound function is followed by its upper one */
	return range_clauses(c->elem, opfamily,
						 plan_func_call(support_of, lo_fn, lower, xidtype),
						 plan_func_call(support_of, lo_fn + 1, upper, xidtype),
						 collation);
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
	clauses = bound_function_clauses(req->funcid, c, req->opfamily,
									 InvalidOid);
	if (clauses != NIL)
		req->lossy = (c->kind == XID_CLAUSE_LIKE);
	return clauses;
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
	return clause_with_collation(req, c, XID_DONE_COLLATION);
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
		(clauses = const_range_clauses(clause->elem, family, &b, InvalidOid)) != NIL)
		return list_length(clauses) == 1 ? linitial(clauses) :
			(Node *) make_andclause(clauses);
	if (req->fcall->inputcollid != XID_DONE_COLLATION)
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
 * TimescaleDB's chunk constraints are written in (see simplify()).
 */
static Expr *
time_field_clause(Oid support_of, const XidClause *c)
{
	Oid			fn = plan_func(get_func_namespace(support_of), XID_FN_TIME);
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
 * - A constant: the clause as written, marked done (XID_DONE_COLLATION).
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
static Node *
simplify(SupportRequestSimplify *req)
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
	if (req->fcall->inputcollid == XID_DONE_COLLATION)
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
		clauses = const_range_clauses(clause.elem, family, &b,
									  XID_DONE_COLLATION);
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
		clauses = bound_function_clauses(req->fcall->funcid, &clause, family,
										 XID_DONE_COLLATION);
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
	 * A clause marked done beside the comparisons simplify() added for
	 * pruning (an inheritance child, an expression): they are the index
	 * conditions already.  Not beside "xid_time(elem) >= t" alone, which is
	 * what stays in a TimescaleDB chunk, where the comparisons with the bound
	 * functions became "true": the clause gives the index conditions there.
	 */
	if (collid == XID_DONE_COLLATION &&
		xid_has_pruning_clauses(req->index->rel, clause.elem, true))
		return NIL;
	if (req->indexarg != clause.elem_argno)
		return clause.kind == XID_CLAUSE_RANGE ?
			range_column_condition(req, clause.other, clause.elem) : NIL;

	xid_clause_bounds(&clause, clause.other, &b);
	if (b.bounds == XID_BOUNDS_UNKNOWN && !IsA(clause.other, Const))
		return parameter_condition(req, &clause);
	clauses = const_range_clauses(clause.elem, req->opfamily, &b, InvalidOid);
	if (clauses != NIL)
		req->lossy = !b.exact;
	return clauses;
}

/*
 * Planner support function of xid >= xid and xid <= xid.  The comparisons
 * that simplify() adds on a parent for partition pruning (marked by
 * XID_DONE_COLLATION) only repeat the clause kept beside them, whose index
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
	if (req->fcall->inputcollid != XID_DONE_COLLATION ||
		list_length(req->fcall->args) != 2)
		PG_RETURN_POINTER(NULL);
	elem = linitial(req->fcall->args);
	if (keep_for_estimates(req->root, elem) &&
		(!IsA(lsecond(req->fcall->args), Const) ||
		 get_rel_relispartition(column_table(req->root, elem)->relid)))
		PG_RETURN_POINTER(makeBoolConst(true, false));
	PG_RETURN_POINTER(NULL);
}

/*
 * Planner support function of the clause functions (see xid_clause_parse).
 */
PG_FUNCTION_INFO_V1(xid_range_support);
Datum
xid_range_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(simplify((SupportRequestSimplify *) rawreq));

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
