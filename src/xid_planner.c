/*-------------------------------------------------------------------------
 *
 * xid_planner.c
 *	  Planner support for the <@, @> and ^@ operators: index range scans,
 *	  partition pruning and row estimates for constant ranges and prefixes.
 *
 * A constant range or prefix stands for the closed bounds [lo, hi], so
 * "id <@ r" is "id >= lo AND id <= hi".  Two ways get that to the planner:
 *
 * - SupportRequestSimplify rewrites the clause into the two comparisons.
 *   Partition pruning and constraint exclusion understand only those, so
 *   this is done wherever the element may belong to a partitioned or
 *   inheritance parent, and wherever it is not a plain column (expression
 *   indexes, outer references, and contexts without a planner).  An empty
 *   range or a prefix no id can have becomes "false".
 *
 * - On a plain table's own column the clause is kept, so that its row
 *   estimate comes from xid_selfuncs.c, which interpolates within the
 *   column's histogram (core's estimate of the two comparisons cannot).
 *   SupportRequestIndexCondition then gives btree and BRIN the same two
 *   comparisons as an exact index condition.
 *
 * A range or prefix that is a parameter (prepared statements, the inner side
 * of a nested loop) gets an index condition too, through the extension's
 * functions that compute its bounds at run time.
 *
 * No OID is fixed: the extension's schema is the user's choice.  The
 * comparison operators come from the index's operator family; the bound
 * functions are looked up once per backend in the extension's own schema
 * (again after any change to pg_proc), and a missing one is an error, not
 * a silently worse plan.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include "access/stratnum.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
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

#include "uid11.h"

#ifndef BTREE_AM_OID
#include "catalog/pg_am.h"
#endif

/*
 * The element and the constant side of a <@, @> or ^@ clause (or of a call
 * of its function), from its two arguments.
 */
static void
split_args(List *args, Node **elem, Node **other, int *elem_argno)
{
	Node	   *a = linitial(args);
	Node	   *b = lsecond(args);

	if (type_is_range(exprType(a)))
	{
		/* xidrange @> xid */
		*elem = b;
		*other = a;
		*elem_argno = 1;
	}
	else
	{
		/* xid <@ xidrange, xid ^@ text */
		*elem = a;
		*other = b;
		*elem_argno = 0;
	}
}

/*
 * Bounds of the xids that a constant range or prefix admits.
 */
XidBounds
xid_const_bounds(Node *other, uint64 *lo, uint64 *hi)
{
	Const	   *c;

	if (!IsA(other, Const))
		return XID_BOUNDS_UNKNOWN;
	c = (Const *) other;
	if (c->constisnull)
		return XID_BOUNDS_NONE;

	if (c->consttype == TEXTOID)
	{
		text	   *prefix = DatumGetTextPP(c->constvalue);
		uint64_t	l,
					h;

		if (!uid11_starts_with_bounds(VARDATA_ANY(prefix),
									  VARSIZE_ANY_EXHDR(prefix), &l, &h))
			return XID_BOUNDS_NONE;
		*lo = l;
		*hi = h;
	}
	else if (type_is_range(c->consttype))
	{
		RangeType  *r = DatumGetRangeTypeP(c->constvalue);
		TypeCacheEntry *typcache = lookup_type_cache(RangeTypeGetOid(r),
													 TYPECACHE_RANGE_INFO);

		if (typcache->rngelemtype == NULL)
			return XID_BOUNDS_UNKNOWN;
		if (!xid_range_bounds(typcache, r, lo, hi))
			return XID_BOUNDS_NONE;
	}
	else
		return XID_BOUNDS_UNKNOWN;	/* the xid side of "range_column @> xid" */
	return (*lo == 0 && *hi == PG_UINT64_MAX) ? XID_BOUNDS_ALL : XID_BOUNDS_SOME;
}

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
 * "elem >= lo" and "elem <= hi" with the operators of a btree-like operator
 * family; a NULL bound is left out.  NIL if the family lacks the operators
 * (hash, BRIN bloom) or both bounds are NULL.
 */
static List *
range_clauses(Node *elem, Oid opfamily, Expr *lo, Expr *hi)
{
	Oid			xidtype = exprType(elem);
	Oid			ge = get_opfamily_member(opfamily, xidtype, xidtype,
										 BTGreaterEqualStrategyNumber);
	Oid			le = get_opfamily_member(opfamily, xidtype, xidtype,
										 BTLessEqualStrategyNumber);
	List	   *clauses = NIL;

	if (!OidIsValid(ge) || !OidIsValid(le))
		return NIL;
	if (lo != NULL)
		clauses = lappend(clauses,
						  make_opclause(ge, BOOLOID, false, (Expr *) elem, lo,
										InvalidOid, InvalidOid));
	if (hi != NULL)
		clauses = lappend(clauses,
						  make_opclause(le, BOOLOID, false,
										(Expr *) (lo != NULL ? copyObject(elem) : elem),
										hi, InvalidOid, InvalidOid));
	return clauses;
}

/*
 * range_clauses for constant bounds; a bound at the end of the xid range
 * says nothing and is left out.
 */
static List *
const_range_clauses(Node *elem, Oid opfamily, uint64 lo, uint64 hi)
{
	Oid			xidtype = exprType(elem);

	return range_clauses(elem, opfamily,
						 lo > 0 ? xid_const(xidtype, lo) : NULL,
						 hi < PG_UINT64_MAX ? xid_const(xidtype, hi) : NULL);
}

/*
 * Keep the clause whole (see the file header)?  Only for a plain column of
 * a plain table without inheritance children, in a planner run.
 */
static bool
keep_for_estimates(PlannerInfo *root, Node *elem)
{
	Var		   *var;
	RangeTblEntry *rte;

	if (root == NULL || root->parse == NULL || !IsA(elem, Var))
		return false;
	var = (Var *) elem;
	if (var->varlevelsup != 0 || var->varno < 1 ||
		var->varno > list_length(root->parse->rtable))
		return false;
	rte = rt_fetch(var->varno, root->parse->rtable);
	if (rte->rtekind != RTE_RELATION ||
		rte->relkind == RELKIND_PARTITIONED_TABLE)
		return false;
	if (rte->inh && has_subclass(rte->relid))
		return false;
	return true;
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

static Node *
simplify(SupportRequestSimplify *req)
{
	Node	   *elem,
			   *other;
	int			elem_argno;
	uint64		lo = 0,
				hi = 0;
	Oid			opclass;
	List	   *clauses;

	if (list_length(req->fcall->args) != 2)
		return NULL;
	split_args(req->fcall->args, &elem, &other, &elem_argno);

	switch (xid_const_bounds(other, &lo, &hi))
	{
		case XID_BOUNDS_NONE:
			return (Node *) makeBoolConst(false, false);
		case XID_BOUNDS_SOME:
			break;
		default:
			return NULL;
	}
	if (keep_for_estimates(req->root, elem) ||
		!cheap_to_repeat(req->root, elem))
		return NULL;

	opclass = GetDefaultOpClass(exprType(elem), BTREE_AM_OID);
	if (!OidIsValid(opclass))
		return NULL;
	clauses = const_range_clauses(elem, get_opclass_family(opclass), lo, hi);
	if (clauses == NIL)
		return NULL;
	return list_length(clauses) == 1 ? linitial(clauses) :
		(Node *) make_andclause(clauses);
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
	XID_FN_PREFIX_LOWER,
	XID_FN_PREFIX_UPPER,
	XID_FN_RANGE_LOWER,
	XID_FN_RANGE_UPPER,
	XID_NUM_PLAN_FUNCS
} XidPlanFunc;

static const struct
{
	const char *name;
	const char *argtype;		/* "text", or a type of the extension */
}			plan_func_sig[XID_NUM_PLAN_FUNCS] = {
	[XID_FN_PREFIX_LOWER] = {"xid_prefix_lower_bound", "text"},
	[XID_FN_PREFIX_UPPER] = {"xid_prefix_upper_bound", "text"},
	[XID_FN_RANGE_LOWER] = {"xid_range_lower_bound", "xidrange"},
	[XID_FN_RANGE_UPPER] = {"xid_range_upper_bound", "xidrange"},
};

static Oid	plan_funcs_nsp = InvalidOid;	/* schema they were found in */
static Oid	plan_funcs[XID_NUM_PLAN_FUNCS];
static bool plan_funcs_callback_registered = false;

/* Any change to pg_proc (ALTER, DROP, DROP EXTENSION): look up again */
static void
plan_funcs_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	plan_funcs_nsp = InvalidOid;
}

/*
 * The OID of one of the extension's plan functions, in schema nsp (the
 * schema of the function being planned, which is the extension's).  A
 * function that is missing or renamed is an error: without it the planner
 * would quietly fall back to scanning the whole table.
 */
static Oid
plan_func(Oid nsp, XidPlanFunc which)
{
	if (!plan_funcs_callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, plan_funcs_invalidate, (Datum) 0);
		plan_funcs_callback_registered = true;
	}
	if (plan_funcs_nsp != nsp)
	{
		char	   *nspname = get_namespace_name(nsp);
		int			i;

		if (nspname == NULL)
			elog(ERROR, "cache lookup failed for namespace %u", nsp);
		for (i = 0; i < XID_NUM_PLAN_FUNCS; i++)
		{
			Oid			argtype = TEXTOID;
			Oid			fn = InvalidOid;

			if (strcmp(plan_func_sig[i].argtype, "text") != 0)
				argtype = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
										  CStringGetDatum(plan_func_sig[i].argtype),
										  ObjectIdGetDatum(nsp));
			if (OidIsValid(argtype))
				fn = LookupFuncName(list_make2(makeString(nspname),
											   makeString(pstrdup(plan_func_sig[i].name))),
									1, &argtype, true);
			if (!OidIsValid(fn))
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_FUNCTION),
						 errmsg("function %s.%s(%s) of extension \"xid\" does not exist",
								nspname, plan_func_sig[i].name,
								plan_func_sig[i].argtype),
						 errdetail("The planner needs it for index conditions on parameters."),
						 errhint("Give the function back its name, or drop the extension and create it again.")));
			plan_funcs[i] = fn;
		}
		plan_funcs_nsp = nsp;
	}
	return plan_funcs[which];
}

/*
 * A call of one of the extension's plan functions.
 */
static Expr *
plan_func_call(Oid support_of, XidPlanFunc which, Node *arg, Oid xidtype)
{
	Oid			fn = plan_func(get_func_namespace(support_of), which);

	return (Expr *) makeFuncExpr(fn, xidtype, list_make1(copyObject(arg)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * A range or prefix that is not a constant but fixed during an index scan (a
 * parameter of a prepared statement, an outer column in a nested loop):
 * "elem >= lower_bound(arg) AND elem <= upper_bound(arg)", where the bound
 * functions return NULL, and so match nothing, when no xid qualifies.
 * Generic plans of parameterized queries then still scan the index.
 */
static List *
parameter_condition(SupportRequestIndexCondition *req, Node *elem, Node *other)
{
	Oid			xidtype = exprType(elem);
	bool		is_prefix = exprType(other) == TEXTOID;
	List	   *clauses;

	if (contain_volatile_functions(other) ||
		!is_pseudo_constant_for_index(req->root, other, req->index))
		return NIL;
	clauses = range_clauses(elem, req->opfamily,
							plan_func_call(req->funcid,
										   is_prefix ? XID_FN_PREFIX_LOWER : XID_FN_RANGE_LOWER,
										   other, xidtype),
							plan_func_call(req->funcid,
										   is_prefix ? XID_FN_PREFIX_UPPER : XID_FN_RANGE_UPPER,
										   other, xidtype));
	if (clauses != NIL)
		req->lossy = false;
	return clauses;
}

static List *
index_condition(SupportRequestIndexCondition *req)
{
	List	   *args;
	Node	   *elem,
			   *other;
	int			elem_argno;
	uint64		lo = 0,
				hi = 0;
	List	   *clauses;

	if (is_opclause(req->node))
		args = ((OpExpr *) req->node)->args;
	else if (is_funcclause(req->node))
		args = ((FuncExpr *) req->node)->args;
	else
		return NIL;
	if (list_length(args) != 2)
		return NIL;
	split_args(args, &elem, &other, &elem_argno);
	if (req->indexarg != elem_argno)
		return range_column_condition(req, other, elem);
	switch (xid_const_bounds(other, &lo, &hi))
	{
		case XID_BOUNDS_SOME:
			break;
		case XID_BOUNDS_UNKNOWN:
			return parameter_condition(req, elem, other);
		default:
			return NIL;
	}

	/*
	 * Only families with >= and <= (btree, BRIN minmax) qualify; hash and
	 * bloom families have none.
	 */
	clauses = const_range_clauses(elem, req->opfamily, lo, hi);
	if (clauses != NIL)
		req->lossy = false;
	return clauses;
}

/*
 * Planner support function of xid_contained_by, xid_range_contains and
 * xid_starts_with.
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

		if (req->is_join || list_length(req->args) != 2)
			PG_RETURN_POINTER(NULL);
		req->selectivity = xid_clause_selectivity(req->root, req->args,
												  req->varRelid);
		PG_RETURN_POINTER(req);
	}

	PG_RETURN_POINTER(NULL);
}
