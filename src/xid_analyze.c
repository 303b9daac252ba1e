/*-------------------------------------------------------------------------
 *
 * xid_analyze.c
 *	  ANALYZE of xid columns: core's statistics, and a histogram ten times
 *	  finer than the statistics target asks of other types.
 *
 * An xid column is usually a primary key whose values follow the time the
 * rows were made, and the queries that matter ask for a window of that time
 * (a day, an hour, the last minute).  Core's histogram has as many buckets
 * as the statistics target (100 by default): over a year of ids a bucket is
 * three and a half days, and any estimate inside it assumes the rows are
 * spread evenly over those days.  Where they are not (busy hours, bursts)
 * an hour or a day can be off by several times, for a timestamptz column
 * as much as for an xid.
 *
 * The sample ANALYZE reads is 300 rows per unit of the target, so it can
 * carry a finer histogram than core builds from it.  This one keeps every
 * 30th sample value (ten buckets per unit of the target, at most core's own
 * maximum of 10,001 bounds), taken from the same sorted sample as core's
 * and, as core's, without the most common values.  A bucket of fewer
 * sample values would be noise, so a small table (a partition of a few
 * thousand rows) gets none.  It goes into a slot of its own kind
 * (XID_STATISTIC_KIND_HISTOGRAM), which only xid_selfuncs.c reads: core's
 * estimators for the xid comparisons keep core's histogram, which they
 * copy each time they read it, and the planning time of a lookup stays
 * what it was.
 *
 * A second slot of its own (XID_STATISTIC_KIND_ROWS) keeps the rows the
 * table had when the statistics were taken: pg_class.reltuples says the
 * same only until the next VACUUM, and the estimators need it to count the
 * rows added since (xid_selfuncs.c).  Everything else is core's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_statistic.h"
#include "commands/vacuum.h"
#include "miscadmin.h"

#include "compat.h"
#include "xid.h"
#include "xid_analyze.h"

/*
 * Buckets per unit of the statistics target, sample values per bucket at
 * the least, and the most bounds in all
 */
#define XID_HIST_BUCKETS_PER_TARGET 10
#define XID_HIST_ROWS_PER_BUCKET	30
#define XID_HIST_MAX_BOUNDS			10001

/* core's compute_stats for scalar types, chosen by std_typanalyze() */
static AnalyzeAttrComputeStatsFunc std_compute_stats = NULL;

static int
payload_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/* The slot of core's statistics of this kind, or -1 */
static int
stats_slot(VacAttrStats *stats, int16 kind)
{
	int			i;

	for (i = 0; i < STATISTIC_NUM_SLOTS; i++)
		if (stats->stakind[i] == kind)
			return i;
	return -1;
}

/*
 * The rows of the table now and the rows of the sample, in a slot of its
 * own (when one is free).
 */
static void
store_rows(VacAttrStats *stats, int samplerows, double totalrows)
{
	int			slot = stats_slot(stats, 0);
	float4	   *numbers;
	MemoryContext old;

	if (slot < 0)
		return;
	old = MemoryContextSwitchTo(stats->anl_context);
	numbers = palloc(sizeof(float4) * 2);
	MemoryContextSwitchTo(old);
	numbers[0] = (float4) totalrows;
	numbers[1] = (float4) samplerows;
	stats->stakind[slot] = XID_STATISTIC_KIND_ROWS;
	stats->staop[slot] = InvalidOid;
	stats->stacoll[slot] = InvalidOid;
	stats->stanumbers[slot] = numbers;
	stats->numnumbers[slot] = 2;
}

/*
 * Core's statistics and the table's rows, then a finer histogram in a slot
 * of its own.
 */
static void
xid_compute_stats(VacAttrStats *stats, AnalyzeAttrFetchFunc fetchfunc,
				  int samplerows, double totalrows)
{
	int			hist,
				mcv,
				slot;
	uint64	   *common = NULL;
	int			ncommon = 0;
	uint64	   *values;
	int			nvalues = 0;
	int			nbounds;
	Datum	   *bounds;
	MemoryContext old;
	int			i;

	std_compute_stats(stats, fetchfunc, samplerows, totalrows);
	if (!stats->stats_valid)
		return;
	store_rows(stats, samplerows, totalrows);
	hist = stats_slot(stats, STATISTIC_KIND_HISTOGRAM);
	slot = stats_slot(stats, 0);
	if (hist < 0 || slot < 0)
		return;					/* all values common, or too few: as core */

	/* the most common values, which the histogram leaves out */
	mcv = stats_slot(stats, STATISTIC_KIND_MCV);
	if (mcv >= 0)
	{
		ncommon = stats->numvalues[mcv];
		common = palloc(sizeof(uint64) * ncommon);
		for (i = 0; i < ncommon; i++)
			common[i] = DatumGetXidPayload(stats->stavalues[mcv][i]);
		qsort(common, ncommon, sizeof(uint64), payload_cmp);
	}

	values = palloc(sizeof(uint64) * samplerows);
	for (i = 0; i < samplerows; i++)
	{
		bool		isnull;
		uint64		v;

		XID_ANALYZE_DELAY_POINT();
		v = DatumGetXidPayload(fetchfunc(stats, i, &isnull));
		if (isnull)
			continue;
		if (ncommon > 0 &&
			bsearch(&v, common, ncommon, sizeof(uint64), payload_cmp) != NULL)
			continue;
		values[nvalues++] = v;
	}
	qsort(values, nvalues, sizeof(uint64), payload_cmp);

	/* as core: bounds at equal steps through the sorted values */
	nbounds = Min(XID_STATS_TARGET(stats) * XID_HIST_BUCKETS_PER_TARGET + 1,
				  XID_HIST_MAX_BOUNDS);
	nbounds = Min(nbounds, nvalues / XID_HIST_ROWS_PER_BUCKET + 1);
	if (nbounds > stats->numvalues[hist])
	{
		old = MemoryContextSwitchTo(stats->anl_context);
		bounds = palloc(sizeof(Datum) * nbounds);
		MemoryContextSwitchTo(old);
		for (i = 0; i < nbounds; i++)
			bounds[i] = XidPayloadGetDatum(values[(int64) i * (nvalues - 1) /
												  (nbounds - 1)]);
		stats->stakind[slot] = XID_STATISTIC_KIND_HISTOGRAM;
		stats->staop[slot] = stats->staop[hist];
		stats->stacoll[slot] = stats->stacoll[hist];
		stats->stavalues[slot] = bounds;
		stats->numvalues[slot] = nbounds;
	}
	pfree(values);
	if (common != NULL)
		pfree(common);
}

/*
 * Type analyze function of xid: core's, with xid_compute_stats.
 */
PG_FUNCTION_INFO_V1(xid_typanalyze);
Datum
xid_typanalyze(PG_FUNCTION_ARGS)
{
	VacAttrStats *stats = (VacAttrStats *) PG_GETARG_POINTER(0);

	if (!std_typanalyze(stats))
		PG_RETURN_BOOL(false);
	std_compute_stats = stats->compute_stats;
	stats->compute_stats = xid_compute_stats;
	PG_RETURN_BOOL(true);
}
