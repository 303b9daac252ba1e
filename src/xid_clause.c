/*-------------------------------------------------------------------------
 *
 * xid_clause.c
 *	  The clauses the planner support and the estimators understand (<@,
 *	  @>, ^@, LIKE, NOT LIKE, and the time comparisons): taking a call
 *	  apart, and the closed bounds on the xid that it admits when its other
 *	  argument is a constant.
 *
 * Both xid_planner.c (index conditions, rewrites for pruning) and
 * xid_selfuncs.c (row estimates) start from here; neither calls the other
 * for this.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include <math.h>

#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/syscache.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/typcache.h"

#include "uid11.h"

/*
 * What each function is (its C entry point, and which clause it makes), by
 * OID, once per backend: the planner asks
 * several times for every clause of every partition, and looking up a C
 * function's entry point costs a catalog lookup each time.  Any change to
 * pg_proc empties the table.
 */
typedef struct ClauseFuncEntry
{
	Oid			funcid;			/* the key */
	PGFunction	fn;				/* its C entry point */
	bool		ours;			/* one of the clause functions? */
	XidClauseKind kind;
	XidTimeOp	timeop;
	int			elem_argno;
} ClauseFuncEntry;

static HTAB *clause_funcs = NULL;

static void
clause_funcs_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	if (clause_funcs != NULL)
	{
		hash_destroy(clause_funcs);
		clause_funcs = NULL;
	}
}

static const ClauseFuncEntry *
clause_func(Oid funcid)
{
	static bool callback_registered = false;
	ClauseFuncEntry *e;
	bool		found;

	if (clause_funcs == NULL)
	{
		HASHCTL		ctl;

		if (!callback_registered)
		{
			CacheRegisterSyscacheCallback(PROCOID, clause_funcs_invalidate,
										  (Datum) 0);
			callback_registered = true;
		}
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(ClauseFuncEntry);
		clause_funcs = hash_create("xid clause functions", 64, &ctl,
								   HASH_ELEM | HASH_BLOBS);
	}
	e = hash_search(clause_funcs, &funcid, HASH_ENTER, &found);
	if (!found)
	{
		FmgrInfo	flinfo;

		fmgr_info(funcid, &flinfo);
		e->fn = flinfo.fn_addr;
		e->timeop = XID_TIME_LT;
		e->ours = true;
		if (xid_time_clause(e->fn, &e->timeop, &e->elem_argno))
			e->kind = XID_CLAUSE_TIME;
		else if (!xid_range_clause(e->fn, &e->kind, &e->elem_argno) &&
				 !xid_like_clause(e->fn, &e->kind, &e->elem_argno))
			e->ours = false;
	}
	return e;
}

/*
 * Take apart a call of funcid with two arguments; false when funcid is not
 * one of the clause functions.
 */
bool
xid_clause_parse(Oid funcid, List *args, XidClause *clause)
{
	const ClauseFuncEntry *e;

	if (list_length(args) != 2)
		return false;
	e = clause_func(funcid);
	if (!e->ours)
		return false;
	clause->kind = e->kind;
	clause->timeop = e->timeop;
	clause->elem_argno = e->elem_argno;
	clause->elem = list_nth(args, clause->elem_argno);
	clause->other = list_nth(args, 1 - clause->elem_argno);
	return true;
}

/*
 * What a clause admits when its other argument is the constant "other"
 * (normally clause->other, or its estimated value); UNKNOWN when it is not
 * a constant of the clause's kind.
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
	if (!IsA(other, Const))
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
				RangeType  *r;
				TypeCacheEntry *typcache;

				/* the xid side of "range_column @> xid" says nothing */
				if (!type_is_range(c->consttype))
					return;
				r = DatumGetRangeTypeP(c->constvalue);
				typcache = lookup_type_cache(RangeTypeGetOid(r),
											 TYPECACHE_RANGE_INFO);
				some = xid_range_bounds(typcache, r, &b->lo, &b->hi);
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
	}
	if (!some)
		b->bounds = XID_BOUNDS_NONE;
	else if (b->lo == 0 && b->hi == PG_UINT64_MAX)
		b->bounds = XID_BOUNDS_ALL;
	else
		b->bounds = XID_BOUNDS_SOME;
}

/* The C entry point of a function */
static PGFunction
entry_point(Oid funcid)
{
	return clause_func(funcid)->fn;
}

/*
 * Is clause one that xid_planner.c's simplify() adds beside a clause on
 * elem for partition pruning: "elem >= bound_function(...)" (either
 * operator, either order) or "xid_time(elem) OP t"?
 */
bool
xid_pruning_clause(Node *clause, Node *elem)
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

	/* xid_time(elem) OP t */
	if (IsA(linitial(args), FuncExpr))
	{
		f = linitial(args);
		if (list_length(f->args) == 1 && equal(linitial(f->args), elem) &&
			entry_point(f->funcid) == xid_time)
			return true;
	}

	/* elem OP bound_function(...), or the other way round */
	if (equal(linitial(args), elem) && IsA(lsecond(args), FuncExpr))
		f = lsecond(args);
	else if (equal(lsecond(args), elem) && IsA(linitial(args), FuncExpr))
		f = linitial(args);
	else
		return false;
	fn = entry_point(f->funcid);
	for (i = 0; i < (int) lengthof(bound_funcs); i++)
		if (fn == bound_funcs[i])
			return true;
	return false;
}
