/*-------------------------------------------------------------------------
 *
 * xid_clause.c
 *	  The clauses the planner support and the estimators understand (<@,
 *	  @>, ^@, LIKE, NOT LIKE, and the time comparisons): taking a call
 *	  apart, the closed bounds on the xid that it admits when its other
 *	  argument is a constant, and the comparisons that stand for those
 *	  bounds.
 *
 * xid_support.c (index conditions), xid_prune.c (the rewrite for pruning)
 * and xid_selfuncs.c (row estimates) start from here; this file calls
 * none of them.  The clause functions are known by their C entry points
 * (so neither a rename nor the schema matters), which the files that
 * define them declare; those files know nothing of the planner.  The
 * catalog lookups behind this are cached in xid_catcache.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/stratnum.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "compat.h"
#include "uid11.h"
#include "xid.h"
#include "xid_catcache.h"
#include "xid_clause.h"
#include "xid_done.h"
#include "xid_like.h"
#include "xid_ops.h"
#include "xid_range.h"
#include "xid_time.h"

/*
 * Is fn the function of <@, @> or ^@?  Then its clause kind, and which
 * argument is the xid.
 */
static bool
range_clause(PGFunction fn, XidClauseKind *kind, int *elem_argno)
{
	*elem_argno = (fn == xid_range_contains) ? 1 : 0;
	if (fn == xid_contained_by || fn == xid_range_contains)
		*kind = XID_CLAUSE_RANGE;
	else if (fn == xid_starts_with)
		*kind = XID_CLAUSE_PREFIX;
	else
		return false;
	return true;
}

/*
 * Is fn the function of LIKE or NOT LIKE?  Then its clause kind; the xid is
 * the first argument.
 */
static bool
like_clause(PGFunction fn, XidClauseKind *kind, int *elem_argno)
{
	*elem_argno = 0;
	if (fn == xid_like)
		*kind = XID_CLAUSE_LIKE;
	else if (fn == xid_not_like)
		*kind = XID_CLAUSE_NOT_LIKE;
	else
		return false;
	return true;
}

/*
 * Is fn one of the time comparisons?  Then the comparison it makes with the
 * xid on the left ("t < id" is "id > t"), and which argument is the xid.
 */
static bool
time_clause(PGFunction fn, XidTimeOp *op, int *elem_argno)
{
	/* each comparison with the xid on the left, and the same on the right */
	static const PGFunction funcs[4][2] = {
		[XID_TIME_LT] = {xid_lt_time, xid_time_gt},
		[XID_TIME_LE] = {xid_le_time, xid_time_ge},
		[XID_TIME_GT] = {xid_gt_time, xid_time_lt},
		[XID_TIME_GE] = {xid_ge_time, xid_time_le},
	};
	int			i,
				j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 2; j++)
			if (funcs[i][j] == fn)
			{
				*op = (XidTimeOp) i;
				*elem_argno = j;
				return true;
			}
	return false;
}

/*
 * Is fn one of the comparisons of two xids (< <= > >=)?  Then the
 * comparison with the xid that refers to a relation on the left ("c < id"
 * is "id > c"), and which argument that is: the first, unless only the
 * second has a column.
 */
static bool
cmp_clause(PGFunction fn, List *args, XidTimeOp *op, int *elem_argno)
{
	static const XidTimeOp flipped[4] = {
		[XID_TIME_LT] = XID_TIME_GT,[XID_TIME_LE] = XID_TIME_GE,
		[XID_TIME_GT] = XID_TIME_LT,[XID_TIME_GE] = XID_TIME_LE,
	};

	if (fn == xid_lt)
		*op = XID_TIME_LT;
	else if (fn == xid_le)
		*op = XID_TIME_LE;
	else if (fn == xid_gt)
		*op = XID_TIME_GT;
	else if (fn == xid_ge)
		*op = XID_TIME_GE;
	else
		return false;
	*elem_argno = 0;
	if (!contain_var_clause(linitial(args)) &&
		contain_var_clause(lsecond(args)))
	{
		*elem_argno = 1;
		*op = flipped[*op];
	}
	return true;
}

static bool xid_collation_matches_bytes(Oid collid);

/*
 * Take apart a call of funcid with two arguments and input collation
 * collid; false when funcid is not one of the clause functions, or when the
 * clause is one whose bounds cannot honour its collation.
 *
 * LIKE and NOT LIKE pass their collation on to core's matcher.  Under a
 * deterministic collation that matches bytes, and an id's text is ASCII, so
 * the bounds of a pattern's fixed prefix are exact; a nondeterministic one
 * (PostgreSQL 18 matches LIKE under them; earlier versions raise an error)
 * can match other bytes ('5cn%' matches 5CN... case-insensitively), so no
 * bounds, no index condition, no rewrite and no estimate are derived from
 * the pattern: such a clause is only ever evaluated row by row.  ^@ ignores
 * collations, as the time and range clauses have none.
 */
bool
xid_clause_parse(Oid funcid, List *args, Oid collid, XidClause *clause)
{
	PGFunction	fn;

	if (list_length(args) != 2)
		return false;
	fn = xid_func_entry_point(funcid);
	clause->timeop = XID_TIME_LT;
	if (time_clause(fn, &clause->timeop, &clause->elem_argno))
		clause->kind = XID_CLAUSE_TIME;
	else if (cmp_clause(fn, args, &clause->timeop, &clause->elem_argno))
		clause->kind = XID_CLAUSE_CMP;
	else if (!range_clause(fn, &clause->kind, &clause->elem_argno) &&
			 !like_clause(fn, &clause->kind, &clause->elem_argno))
		return false;
	if ((clause->kind == XID_CLAUSE_LIKE ||
		 clause->kind == XID_CLAUSE_NOT_LIKE) &&
		!xid_collation_matches_bytes(collid))
		return false;
	clause->elem = list_nth(args, clause->elem_argno);
	clause->other = list_nth(args, 1 - clause->elem_argno);
	return true;
}

/*
 * Does LIKE under collation collid compare bytes, as the bounds of a
 * pattern assume?  Every deterministic collation does; InvalidOid is the
 * default collation, which xid_like() uses then.
 */
static bool
xid_collation_matches_bytes(Oid collid)
{
	if (!OidIsValid(collid) || collid == C_COLLATION_OID ||
		collid == DEFAULT_COLLATION_OID)
		return true;
	return get_collation_isdeterministic(collid);
}

/*
 * Is a constant of type typid one that a clause of this kind reads as its
 * other argument (text for a prefix or a pattern, a range of the element's
 * type, a timestamptz)?  A support function or estimator can be handed
 * another: the estimator's "other side" is whichever argument is not the
 * column, and a query can put the column on either side.
 */
static bool
const_type_fits(const XidClause *clause, Oid typid)
{
	Oid			base = typid;

	switch (clause->kind)
	{
		case XID_CLAUSE_PREFIX:
		case XID_CLAUSE_LIKE:
		case XID_CLAUSE_NOT_LIKE:
			if (typid != TEXTOID)
				base = getBaseType(typid);
			return base == TEXTOID || base == VARCHAROID;
		case XID_CLAUSE_TIME:
			if (typid != TIMESTAMPTZOID)
				base = getBaseType(typid);
			return base == TIMESTAMPTZOID;
		case XID_CLAUSE_RANGE:
			return true;		/* xid_clause_bounds() checks it */
		case XID_CLAUSE_CMP:
			{
				Oid			elemtype = exprType(clause->elem);

				return typid == elemtype ||
					getBaseType(typid) == getBaseType(elemtype);
			}
	}
	return false;
}

/*
 * What a clause admits when its other argument is the constant "other"
 * (normally clause->other, or its estimated value); UNKNOWN when it is not
 * a constant of the type the clause reads there.
 */
void
xid_clause_bounds(const XidClause *clause, Node *other, XidClauseBounds *b)
{
	Const	   *c = (Const *) other;
	bool		some = false;

	b->bounds = XID_BOUNDS_UNKNOWN;
	b->lo = 0;
	b->hi = PG_UINT64_MAX;
	b->exact = true;
	b->residual = 1.0;
	if (other == NULL || !IsA(other, Const) ||
		!const_type_fits(clause, c->consttype))
		return;
	if (c->constisnull)
	{
		b->bounds = XID_BOUNDS_NONE;
		return;
	}

	switch (clause->kind)
	{
		case XID_CLAUSE_RANGE:
			{
				TypeCacheEntry *typcache;
				Oid			elemtype;

				/*
				 * A range of the element's type: the type cache answers
				 * without a catalog lookup, once per backend (this runs for
				 * every clause of every query)
				 */
				typcache = lookup_type_cache(c->consttype, TYPECACHE_RANGE_INFO);
				if (typcache->typtype == TYPTYPE_DOMAIN)
					typcache = lookup_type_cache(getBaseType(c->consttype),
												 TYPECACHE_RANGE_INFO);
				elemtype = exprType(clause->elem);
				if (typcache->rngelemtype == NULL ||
					(typcache->rngelemtype->type_id != elemtype &&
					 typcache->rngelemtype->type_id != getBaseType(elemtype)))
				{
					b->bounds = XID_BOUNDS_UNKNOWN;
					return;
				}
				some = xid_range_bounds(typcache,
										DatumGetRangeTypeP(c->constvalue),
										&b->lo, &b->hi);
				break;
			}
		case XID_CLAUSE_PREFIX:
			{
				text	   *prefix = DatumGetTextPP(c->constvalue);
				uint64_t	lo,
							hi;

				some = uid11_starts_with_bounds(VARDATA_ANY(prefix),
												VARSIZE_ANY_EXHDR(prefix),
												&lo, &hi);
				b->lo = lo;
				b->hi = hi;
				break;
			}
		case XID_CLAUSE_LIKE:
			{
				text	   *pattern = DatumGetTextPP(c->constvalue);
				int			rest_literals;

				b->bounds = xid_like_bounds(VARDATA_ANY(pattern),
											VARSIZE_ANY_EXHDR(pattern),
											&b->lo, &b->hi, &b->exact,
											&rest_literals);
				/* as core estimates the rest of a text pattern */
				b->residual = pow(0.2, rest_literals);
				return;
			}
		case XID_CLAUSE_NOT_LIKE:
			return;				/* no bounds; estimated from LIKE's */
		case XID_CLAUSE_TIME:
			some = xid_time_op_bounds(clause->timeop,
									  DatumGetTimestampTz(c->constvalue),
									  &b->lo, &b->hi);
			break;
		case XID_CLAUSE_CMP:
			{
				uint64		v = DatumGetXidPayload(c->constvalue);

				some = true;
				switch (clause->timeop)
				{
					case XID_TIME_LT:
						some = v > 0;
						b->hi = v - 1;
						break;
					case XID_TIME_LE:
						b->hi = v;
						break;
					case XID_TIME_GT:
						some = v < PG_UINT64_MAX;
						b->lo = v + 1;
						break;
					case XID_TIME_GE:
						b->lo = v;
						break;
				}
				break;
			}
	}
	if (!some)
		b->bounds = XID_BOUNDS_NONE;
	else if (b->lo == 0 && b->hi == PG_UINT64_MAX)
		b->bounds = XID_BOUNDS_ALL;
	else
		b->bounds = XID_BOUNDS_SOME;
}


/*
 * From bounds back to clauses: the comparisons "elem >= lo AND elem <= hi"
 * with the operators of an operator family, which are both the index
 * conditions of a clause (xid_support.c) and what partition pruning reads
 * (xid_prune.c).
 */

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
 * family, marked done (xid_done.h) when asked; a NULL bound is left out.
 * NIL if the family lacks the operators (hash, BRIN bloom) or both bounds
 * are NULL.
 */
static List *
range_clauses(Node *elem, Oid opfamily, Expr *lo, Expr *hi, bool done)
{
	Oid			xidtype = exprType(elem);
	Oid			ge,
				le;
	List	   *clauses = NIL;

	xid_family_ge_le(opfamily, xidtype, &ge, &le);

	if (!OidIsValid(ge) || !OidIsValid(le))
		return NIL;
	if (lo != NULL)
		clauses = lappend(clauses,
						  make_opclause(ge, BOOLOID, false, (Expr *) elem, lo,
										InvalidOid,
										done ? xid_done_collation((Node *) lo) : InvalidOid));
	if (hi != NULL)
		clauses = lappend(clauses,
						  make_opclause(le, BOOLOID, false,
										(Expr *) (lo != NULL ? copyObject(elem) : elem),
										hi, InvalidOid,
										done ? xid_done_collation((Node *) hi) : InvalidOid));
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
List *
xid_const_range_clauses(Node *elem, Oid opfamily, const XidClauseBounds *b,
						bool done)
{
	Oid			xidtype = exprType(elem);
	Oid			gt;

	if (b->bounds == XID_BOUNDS_SOME)
		return range_clauses(elem, opfamily,
							 b->lo > 0 ? xid_const(xidtype, b->lo) : NULL,
							 b->hi < PG_UINT64_MAX ? xid_const(xidtype, b->hi) : NULL,
							 done);
	if (b->bounds != XID_BOUNDS_NONE)
		return NIL;
	gt = get_opfamily_member(opfamily, xidtype, xidtype,
							 BTGreaterStrategyNumber);
	if (!OidIsValid(gt))
		return NIL;

	/*
	 * Never marked: under NOT it becomes "elem <= <the largest xid>", which
	 * xid_cmp_support (xid_prune.c) would turn into "true" in a partition
	 */
	return list_make1(make_opclause(gt, BOOLOID, false, (Expr *) elem,
									xid_const(xidtype, PG_UINT64_MAX),
									InvalidOid, InvalidOid));
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
	fn = xid_plan_func(get_func_namespace(support_of), which);
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
List *
xid_bound_function_clauses(Oid support_of, const XidClause *c,
						   Oid opfamily, bool done)
{
	Oid			xidtype = exprType(c->elem);
	Node	   *arg = copyObject(c->other);
	List	   *lower = list_make1(arg);
	List	   *upper = list_make1(copyObject(arg));
	XidPlanFunc lo_fn,
				hi_fn;

	switch (c->kind)
	{
		case XID_CLAUSE_RANGE:
			lo_fn = XID_FN_RANGE_LOWER;
			hi_fn = XID_FN_RANGE_UPPER;
			break;
		case XID_CLAUSE_PREFIX:
			lo_fn = XID_FN_PREFIX_LOWER;
			hi_fn = XID_FN_PREFIX_UPPER;
			break;
		case XID_CLAUSE_LIKE:
			lo_fn = XID_FN_LIKE_LOWER;
			hi_fn = XID_FN_LIKE_UPPER;
			break;
		case XID_CLAUSE_TIME:
			{
				Node	   *incl = (Node *) makeBoolConst(XidTimeOpIsInclusive(c->timeop),
														  false);

				lo_fn = XID_FN_TIME_LOWER;
				hi_fn = XID_FN_TIME_UPPER;
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

	return range_clauses(c->elem, opfamily,
						 plan_func_call(support_of, lo_fn, lower, xidtype),
						 plan_func_call(support_of, hi_fn, upper, xidtype),
						 done);
}
