/*-------------------------------------------------------------------------
 *
 * xid_selfuncs.c
 *	  Row estimates of the clauses the planner support understands (<@, @>,
 *	  ^@, LIKE, NOT LIKE): the most common values counted exactly, the rest
 *	  by interpolating within the histogram.  The time comparisons use
 *	  core's scalarltsel family instead (see the install script): the
 *	  planner pairs those into one window, and nothing else can be paired.
 *
 * Core's estimate for the two comparisons "id >= lo AND id <= hi" cannot do
 * this for a type it does not know: it treats every value as the middle of
 * its histogram bucket, which gives one row for any range narrower than a
 * bucket (a 2-symbol prefix, a minute of ids).  An xid is an unsigned
 * 64-bit number, so linear interpolation is exact enough.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"

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

/* The fraction of the column's rows that are NULL */
static double
null_fraction(VariableStatData *vardata)
{
	if (!HeapTupleIsValid(vardata->statsTuple))
		return 0.0;
	return ((Form_pg_statistic) GETSTRUCT(vardata->statsTuple))->stanullfrac;
}

/*
 * Selectivity of "var in [lo, hi]" from the column's statistics.
 */
static Selectivity
bounds_selectivity(VariableStatData *vardata, uint64 lo, uint64 hi)
{
	AttStatsSlot sslot;
	double		nullfrac;
	double		mcv_sel = 0.0;
	double		mcv_total = 0.0;
	double		hist_sel;
	bool		have_hist = false;
	Selectivity sel;

	if (!HeapTupleIsValid(vardata->statsTuple))
		return DEFAULT_RANGE_INEQ_SEL;
	nullfrac = null_fraction(vardata);

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

/*
 * Selectivity of a clause whose other argument has been reduced to a
 * constant where possible.
 */
static Selectivity
bounds_clause_selectivity(VariableStatData *vardata, const XidClause *clause,
						  Node *other)
{
	XidClauseBounds b;

	xid_clause_bounds(clause, other, &b);
	switch (b.bounds)
	{
		case XID_BOUNDS_NONE:
			return 0.0;
		case XID_BOUNDS_ALL:
		case XID_BOUNDS_SOME:
			return bounds_selectivity(vardata, b.lo, b.hi) *
				(b.exact ? 1.0 : b.residual);
		default:
			return DEFAULT_RANGE_INEQ_SEL;
	}
}

/*
 * Selectivity of a call of clause function funcid with these arguments.
 */
double
xid_clause_selectivity(PlannerInfo *root, Oid funcid, List *args,
					   int varRelid)
{
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	XidClause	clause;
	Selectivity sel;

	if (!xid_clause_parse(funcid, args, &clause))
		return DEFAULT_RANGE_INEQ_SEL;
	if (!get_restriction_variable(root, args, varRelid,
								  &vardata, &other, &varonleft))
		return DEFAULT_RANGE_INEQ_SEL;
	if (type_is_range(vardata.vartype))
	{
		/* "range_column @> xid": nothing to say beyond the default */
		ReleaseVariableStats(vardata);
		return DEFAULT_RANGE_INEQ_SEL;
	}

	if (clause.kind == XID_CLAUSE_NOT_LIKE)
	{
		/* the rows that are not NULL and do not match */
		clause.kind = XID_CLAUSE_LIKE;
		sel = 1.0 - null_fraction(&vardata) -
			bounds_clause_selectivity(&vardata, &clause, other);
	}
	else
		sel = bounds_clause_selectivity(&vardata, &clause, other);
	ReleaseVariableStats(vardata);
	CLAMP_PROBABILITY(sel);
	return sel;
}

/*
 * Restriction estimator of the clause operators.
 */
PG_FUNCTION_INFO_V1(xid_range_sel);
Datum
xid_range_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);

	PG_RETURN_FLOAT8(xid_clause_selectivity(root, get_opcode(operator), args,
											varRelid));
}
