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
 *   estimate comes from xid_range_sel below, which interpolates within the
 *   column's histogram.  Core's estimate for the two comparisons cannot: it
 *   interpolates only for built-in types, and treats every other type's
 *   value as the middle of its histogram bucket, which gives one row for
 *   any range narrower than a bucket (a 2-symbol prefix, a minute of ids).
 *   SupportRequestIndexCondition then gives btree and BRIN the same two
 *   comparisons as an exact index condition.
 *
 * A range or prefix that is a parameter (prepared statements, the inner side
 * of a nested loop) gets an index condition too, through functions that
 * compute its bounds at run time.
 *
 * The comparison operators are looked up in the operator families at run
 * time: the extension's schema is the user's choice, so no OID is fixed.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include "access/stratnum.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_statistic.h"
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
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"

#include "uid11.h"

#ifndef BTREE_AM_OID
#include "catalog/pg_am.h"
#endif

typedef enum XidBounds
{
	XID_BOUNDS_NONE,			/* no xid satisfies the clause */
	XID_BOUNDS_SOME,			/* the xids in [lo, hi] */
	XID_BOUNDS_ALL,				/* every xid */
	XID_BOUNDS_UNKNOWN			/* not a constant */
} XidBounds;

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
static XidBounds
const_bounds(Node *other, uint64 *lo, uint64 *hi)
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
		size_t		len = VARSIZE_ANY_EXHDR(prefix);
		bool		empty;

		if (len == 0)
			return XID_BOUNDS_ALL;
		if (uid11_prefix_bounds(VARDATA_ANY(prefix), len, lo, hi, &empty,
								NULL) != UID11_OK || empty)
			return XID_BOUNDS_NONE;
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
 * "elem >= lo" and "elem <= hi" with the operators of opfamily; a bound at
 * the end of the xid range is left out.  NIL if the family lacks them.
 */
static List *
bound_clauses(Node *elem, Oid opfamily, uint64 lo, uint64 hi)
{
	Oid			xidtype = exprType(elem);
	Oid			ge = get_opfamily_member(opfamily, xidtype, xidtype,
										 BTGreaterEqualStrategyNumber);
	Oid			le = get_opfamily_member(opfamily, xidtype, xidtype,
										 BTLessEqualStrategyNumber);
	List	   *clauses = NIL;

	if (!OidIsValid(ge) || !OidIsValid(le))
		return NIL;
	if (lo > 0)
		clauses = lappend(clauses,
						  make_opclause(ge, BOOLOID, false, (Expr *) elem,
										(Expr *) makeConst(xidtype, -1, InvalidOid, 8,
														   XidPayloadGetDatum(lo),
														   false, true),
										InvalidOid, InvalidOid));
	if (hi < PG_UINT64_MAX)
		clauses = lappend(clauses,
						  make_opclause(le, BOOLOID, false,
										(Expr *) (lo > 0 ? copyObject(elem) : elem),
										(Expr *) makeConst(xidtype, -1, InvalidOid, 8,
														   XidPayloadGetDatum(hi),
														   false, true),
										InvalidOid, InvalidOid));
	return clauses;
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

	switch (const_bounds(other, &lo, &hi))
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
	clauses = bound_clauses(elem, get_opclass_family(opclass), lo, hi);
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
 * A call of the extension's function fname(arg), found in the schema of the
 * function the planner asked about.
 */
static Expr *
bound_call(Oid support_of, const char *fname, Node *arg, Oid xidtype)
{
	char	   *nspname = get_namespace_name(get_func_namespace(support_of));
	Oid			argtype = exprType(arg);
	Oid			fn;

	if (nspname == NULL)
		return NULL;
	fn = LookupFuncName(list_make2(makeString(nspname), makeString(pstrdup(fname))),
						1, &argtype, true);
	if (!OidIsValid(fn))
		return NULL;
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
	Oid			ge = get_opfamily_member(req->opfamily, xidtype, xidtype,
										 BTGreaterEqualStrategyNumber);
	Oid			le = get_opfamily_member(req->opfamily, xidtype, xidtype,
										 BTLessEqualStrategyNumber);
	Expr	   *lo;
	Expr	   *hi;

	if (!OidIsValid(ge) || !OidIsValid(le) ||
		contain_volatile_functions(other) ||
		!is_pseudo_constant_for_index(req->root, other, req->index))
		return NIL;
	lo = bound_call(req->funcid,
					is_prefix ? "xid_prefix_lower_bound" : "xid_range_lower_bound",
					other, xidtype);
	hi = bound_call(req->funcid,
					is_prefix ? "xid_prefix_upper_bound" : "xid_range_upper_bound",
					other, xidtype);
	if (lo == NULL || hi == NULL)
		return NIL;
	req->lossy = false;
	return list_make2(make_opclause(ge, BOOLOID, false, (Expr *) elem, lo,
									InvalidOid, InvalidOid),
					  make_opclause(le, BOOLOID, false, (Expr *) copyObject(elem), hi,
									InvalidOid, InvalidOid));
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
	switch (const_bounds(other, &lo, &hi))
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
	clauses = bound_clauses(elem, req->opfamily, lo, hi);
	if (clauses != NIL)
		req->lossy = false;
	return clauses;
}

/*
 * Fraction of the histogram's population below x, interpolating linearly
 * between the bounds of the bucket that holds x.
 */
static double
histogram_fraction_below(const Datum *values, int n, uint64 x)
{
	int			lo = 0,
				hi = n - 1;
	uint64		a,
				b;

	if (x <= DatumGetXidPayload(values[0]))
		return 0.0;
	if (x > DatumGetXidPayload(values[n - 1]))
		return 1.0;

	/* find the bucket [values[lo], values[lo + 1]) holding x */
	while (hi - lo > 1)
	{
		int			mid = (lo + hi) / 2;

		if (DatumGetXidPayload(values[mid]) < x)
			lo = mid;
		else
			hi = mid;
	}
	a = DatumGetXidPayload(values[lo]);
	b = DatumGetXidPayload(values[lo + 1]);
	return (lo + (b > a ? (double) (x - a) / (double) (b - a) : 0.0)) /
		(double) (n - 1);
}

/*
 * Selectivity of "var in [lo, hi]" from the column's statistics: the most
 * common values counted exactly, the rest by histogram interpolation.
 */
static Selectivity
bounds_selectivity(VariableStatData *vardata, uint64 lo, uint64 hi)
{
	Form_pg_statistic stats;
	AttStatsSlot sslot;
	double		nullfrac;
	double		mcv_sel = 0.0;
	double		mcv_total = 0.0;
	double		hist_sel;
	bool		have_hist = false;
	Selectivity sel;

	if (!HeapTupleIsValid(vardata->statsTuple))
		return DEFAULT_RANGE_INEQ_SEL;
	stats = (Form_pg_statistic) GETSTRUCT(vardata->statsTuple);
	nullfrac = stats->stanullfrac;

	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_MCV,
						 InvalidOid, ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		int			i;

		for (i = 0; i < sslot.nvalues; i++)
		{
			uint64		v = DatumGetXidPayload(sslot.values[i]);

			mcv_total += sslot.numbers[i];
			if (v >= lo && v <= hi)
				mcv_sel += sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}

	hist_sel = 0.0;
	if (get_attstatsslot(&sslot, vardata->statsTuple,
						 STATISTIC_KIND_HISTOGRAM, InvalidOid,
						 ATTSTATSSLOT_VALUES))
	{
		if (sslot.nvalues >= 2)
		{
			double		below_hi = hi == PG_UINT64_MAX ? 1.0 :
				histogram_fraction_below(sslot.values, sslot.nvalues, hi + 1);
			double		below_lo = histogram_fraction_below(sslot.values,
															sslot.nvalues, lo);

			hist_sel = Max(below_hi - below_lo, 0.0);
			have_hist = true;
		}
		free_attstatsslot(&sslot);
	}

	if (have_hist)
		sel = mcv_sel + hist_sel * Max(1.0 - nullfrac - mcv_total, 0.0);
	else if (mcv_total > 0.0)
		sel = mcv_sel;			/* every non-null value is a common one */
	else
		sel = DEFAULT_RANGE_INEQ_SEL;
	CLAMP_PROBABILITY(sel);
	return sel;
}

static Selectivity
clause_selectivity_for(PlannerInfo *root, List *args, int varRelid)
{
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	uint64		lo = 0,
				hi = 0;
	Selectivity sel;

	if (!get_restriction_variable(root, args, varRelid,
								  &vardata, &other, &varonleft))
		return DEFAULT_RANGE_INEQ_SEL;
	if (type_is_range(vardata.vartype))
	{
		/* "range_column @> xid": nothing to say beyond the default */
		ReleaseVariableStats(vardata);
		return DEFAULT_RANGE_INEQ_SEL;
	}

	switch (const_bounds(other, &lo, &hi))
	{
		case XID_BOUNDS_NONE:
			sel = 0.0;
			break;
		case XID_BOUNDS_ALL:
			lo = 0;
			hi = PG_UINT64_MAX;
			/* FALLTHROUGH */
		case XID_BOUNDS_SOME:
			sel = bounds_selectivity(&vardata, lo, hi);
			break;
		default:
			sel = DEFAULT_RANGE_INEQ_SEL;
			break;
	}
	ReleaseVariableStats(vardata);
	return sel;
}

/*
 * Restriction estimator of <@, @> and ^@.
 */
PG_FUNCTION_INFO_V1(xid_range_sel);
Datum
xid_range_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);

	PG_RETURN_FLOAT8(clause_selectivity_for(root, args, varRelid));
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
		req->selectivity = clause_selectivity_for(req->root, req->args,
												  req->varRelid);
		PG_RETURN_POINTER(req);
	}

	PG_RETURN_POINTER(NULL);
}
