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
 * for this.  The clause functions are known by their C entry points (so
 * neither a rename nor the schema matters), which the files that define
 * them declare; those files know nothing of the planner.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/syscache.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "compat.h"
#include "uid11.h"
#include "xid.h"
#include "xid_clause.h"
#include "xid_like.h"
#include "xid_ops.h"
#include "xid_planner.h"
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
 * What each function is (its C entry point, and which clause it makes), by
 * OID, once per backend: the planner asks
 * several times for every clause of every partition, and looking up a C
 * function's entry point costs a catalog lookup each time.  Any change to
 * pg_proc empties the table.
 *
 * Any catalog access can process invalidation messages, and so run the
 * callback, also inside clause_func() itself (fmgr_info()) and in its
 * callers between two uses of an entry.  So the callback only marks the
 * table stale, an entry is computed before it is stored, and callers get a
 * copy: no pointer into the table lives past clause_func(), and the table
 * is emptied the next time clause_func() starts, where nobody holds one.
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

static bool xid_collation_matches_bytes(Oid collid);

static HTAB *clause_funcs = NULL;
static bool clause_funcs_stale = false;

static void
clause_funcs_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	clause_funcs_stale = true;
}

static ClauseFuncEntry
clause_func(Oid funcid)
{
	static bool callback_registered = false;
	ClauseFuncEntry e;
	ClauseFuncEntry *entry;
	FmgrInfo	flinfo;

	if (!callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, clause_funcs_invalidate,
									  (Datum) 0);
		callback_registered = true;
	}
	if (clause_funcs_stale && clause_funcs != NULL)
	{
		hash_destroy(clause_funcs);
		clause_funcs = NULL;
	}
	clause_funcs_stale = false;
	if (clause_funcs == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(ClauseFuncEntry);
		clause_funcs = hash_create("xid clause functions", 64, &ctl,
								   HASH_ELEM | HASH_BLOBS);
	}
	entry = hash_search(clause_funcs, &funcid, HASH_FIND, NULL);
	if (entry != NULL)
		return *entry;

	/* catalog access: the callback may run here */
	fmgr_info(funcid, &flinfo);
	e.funcid = funcid;
	e.fn = flinfo.fn_addr;
	e.timeop = XID_TIME_LT;
	e.ours = true;
	if (time_clause(e.fn, &e.timeop, &e.elem_argno))
		e.kind = XID_CLAUSE_TIME;
	else if (!range_clause(e.fn, &e.kind, &e.elem_argno) &&
			 !like_clause(e.fn, &e.kind, &e.elem_argno))
		e.ours = false;

	/*
	 * Store it unless the table went stale meanwhile: the entry might then
	 * describe a function as it was before the change.  The next call empties
	 * the table and looks again.
	 */
	if (!clause_funcs_stale)
	{
		entry = hash_search(clause_funcs, &funcid, HASH_ENTER, NULL);
		*entry = e;
	}
	return e;
}

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
	ClauseFuncEntry e;

	if (list_length(args) != 2)
		return false;
	e = clause_func(funcid);	/* a copy: the catalog access below may empty
								 * the cache */
	if (!e.ours)
		return false;
	if ((e.kind == XID_CLAUSE_LIKE || e.kind == XID_CLAUSE_NOT_LIKE) &&
		!xid_collation_matches_bytes(collid))
		return false;
	clause->kind = e.kind;
	clause->timeop = e.timeop;
	clause->elem_argno = e.elem_argno;
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
	return clause_func(funcid).fn;
}

/*
 * Is clause one that xid_planner.c's simplify() adds beside a clause on
 * elem for partition pruning: "elem >= bound_function(...)" (either
 * operator, either order), "xid_time(elem) OP t" (unless comparisons_only:
 * it is no index condition on elem), or a comparison of elem with a
 * constant marked by XID_DONE_COLLATION (no query can write that collation
 * on an xid comparison: the type has none)?
 */
bool
xid_pruning_clause(Node *clause, Node *elem, bool comparisons_only)
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
	if (((OpExpr *) clause)->inputcollid == XID_DONE_COLLATION &&
		equal(linitial(args), elem) && IsA(lsecond(args), Const))
	{
		fn = entry_point(get_opcode(((OpExpr *) clause)->opno));
		return fn == xid_ge || fn == xid_le;
	}

	/* xid_time(elem) OP t */
	if (!comparisons_only && IsA(linitial(args), FuncExpr))
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
