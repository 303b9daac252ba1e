/*-------------------------------------------------------------------------
 *
 * xid_selfuncs.c
 *	  Row estimates of the clauses the planner support understands (<@, @>,
 *	  ^@, LIKE, NOT LIKE, and the time comparisons < <= > >= with a
 *	  timestamptz): the most common values counted exactly, the rest by
 *	  interpolating within the histogram, and the clauses that bound the
 *	  same column combined into one window.
 *
 * This follows core's scalarineqsel() (selfuncs.c) for one clause and
 * clauselist_selectivity()'s range pairs (clausesel.c) for several, and
 * departs from them where core cannot serve a type it does not know:
 *
 * - Interpolation.  Core's ineq_histogram_selectivity() interpolates within
 *   a bucket only for the types convert_to_scalar() knows; for any other
 *   type it takes the middle of the bucket, and for an operator outside the
 *   column's btree family (the time comparisons) it counts the histogram
 *   entries that pass, which is a whole bucket's resolution.  An xid is an
 *   unsigned 64-bit number, so linear interpolation is exact enough.  Like
 *   core, the MCVs are tested one by one and the histogram covers the rest
 *   of the non-null rows.
 *
 * - Windows.  Core pairs "x > a" and "x < b" only when both operators use
 *   its own scalar estimators, and then computes hi + lo - 1, which for a
 *   window narrower than the histogram's resolution lands at or below zero
 *   and becomes one row.  Here every restriction clause of the relation
 *   that bounds the same expression by a pseudo-constant (a time
 *   comparison, a range, a prefix, a LIKE pattern) is one part of a
 *   window, and the window's selectivity is that of the intersection of
 *   their bounds, computed directly.  A redundant bound (two lower bounds)
 *   is counted once, as core counts the tighter of two.
 *
 *   An estimator sees one clause at a time, and the planner multiplies
 *   the clauses' selectivities.  So the parts of a window share its
 *   selectivity by the chain rule: the k-th part in the relation's list
 *   of restriction clauses returns S(1..k) / S(1..k-1), where S(1..k) is
 *   the selectivity of the first k parts together.  Their product is the
 *   window's, and any leading run of parts alone gets its own window's.
 *   A clause that is not one of the relation's restriction clauses (inside
 *   an OR, a join clause) is estimated alone.
 *
 * - Unknown bounds (a parameter of a generic plan) get core's defaults: a
 *   lone comparison DEFAULT_INEQ_SEL, a window DEFAULT_RANGE_INEQ_SEL.
 *   Core applies the latter even where the known side alone is smaller;
 *   here the smaller one wins.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "pgstat.h"
#include "storage/itemptr.h"
#include "utils/lsyscache.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "compat.h"
#include "xid.h"
#include "xid_actual.h"
#include "xid_analyze.h"
#include "xid_catcache.h"
#include "xid_clause.h"
#include "xid_done.h"
#include "xid_like.h"
#include "xid_prune.h"
#include "xid_range.h"
#include "xid_selfuncs.h"
#include "xid_time.h"

/*
 * Fraction of the histogram's population below x, interpolating linearly
 * between the bounds of the bucket that holds x.
 */
static double
histogram_fraction_below(const uint64 *bounds, int n, uint64 x)
{
	int			lo = 0,
				hi = n - 1;
	uint64		a,
				b;

	if (x <= bounds[0])
		return 0.0;
	if (x > bounds[n - 1])
		return 1.0;

	/* find the bucket [bounds[lo], bounds[lo + 1]) holding x */
	while (hi - lo > 1)
	{
		int			mid = (lo + hi) / 2;

		if (bounds[mid] < x)
			lo = mid;
		else
			hi = mid;
	}
	a = bounds[lo];
	b = bounds[lo + 1];
	return (lo + (b > a ? (double) (x - a) / (double) (b - a) : 0.0)) /
		(double) (n - 1);
}

/*
 * The histograms read so far, per backend.  get_attstatsslot() decompresses
 * and copies a histogram each time it is asked for it; for the finer
 * histograms of xid_analyze.c (1,001 bounds at the default statistics
 * target) that costs as much as the rest of planning a one-row lookup, and
 * a query over a table of 366 partitions reads 366 histograms.
 *
 * An entry belongs to one column's statistics (the key of pg_statistic) and
 * remembers the version of the row it was read from (its ctid and xmin).
 * Any change to pg_statistic seen by this backend (ANALYZE, an import of
 * statistics, VACUUM FULL of pg_statistic, which moves rows and keeps their
 * xmin) empties the cache through a syscache callback; the version is
 * checked besides, so that a row read without an invalidation in between
 * (there is none within a transaction that does not change statistics) is
 * never answered by another's histogram.  An entry is made only once its
 * histogram is read whole, so an error while reading leaves nothing behind.
 * Rows without a ctid (statistics made up by a get_relation_stats_hook) are
 * not kept.  Past HIST_CACHE_MAX_BYTES the whole cache is dropped and starts
 * again.
 */
#define HIST_CACHE_MAX_BYTES (8 * 1024 * 1024)

typedef struct HistCacheKey
{
	Oid			starelid;
	int32		staattnum;
	int32		stainherit;
} HistCacheKey;

typedef struct HistCacheEntry
{
	HistCacheKey key;
	ItemPointerData tid;		/* the version of the row read */
	TransactionId xmin;
	int			n;				/* 0: the row has no usable histogram */
	uint64	   *bounds;			/* in hist_context */
} HistCacheEntry;

static HTAB *hist_cache = NULL;
static MemoryContext hist_context = NULL;
static Size hist_bytes = 0;
static bool hist_callback_registered = false;

static void
hist_cache_reset(void)
{
	if (hist_cache != NULL)
	{
		hash_destroy(hist_cache);
		hist_cache = NULL;
	}
	if (hist_context != NULL)
		MemoryContextReset(hist_context);
	hist_bytes = 0;
}

static void
hist_cache_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	hist_cache_reset();
}

/*
 * Are the finer histogram's ends core's?  Both come from the same sorted
 * sample without the most common values (xid_analyze.c), so they share
 * their first and last bound.  Where core's histogram was replaced without
 * an ANALYZE of ours (pg_restore_attribute_stats() on PostgreSQL 18 keeps
 * the slots it is not given, and so does an upgrade's import of
 * statistics), or is gone, the finer one describes other data and is not
 * used.
 */
static bool
finer_matches_core(HeapTuple tuple, const AttStatsSlot *finer)
{
	AttStatsSlot core;
	bool		match;

	if (!get_attstatsslot(&core, tuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
						  ATTSTATSSLOT_VALUES))
		return false;
	match = core.nvalues >= 2 && finer->nvalues >= 2 &&
		DatumGetXidPayload(core.values[0]) ==
		DatumGetXidPayload(finer->values[0]) &&
		DatumGetXidPayload(core.values[core.nvalues - 1]) ==
		DatumGetXidPayload(finer->values[finer->nvalues - 1]);
	free_attstatsslot(&core);
	return match;
}

/*
 * The histogram of a statistics row as payloads, allocated in cxt: xid's
 * finer one where ANALYZE made it for the statistics in the row, else
 * core's.  Returns the number of bounds, 0 when there are fewer than two.
 */
static int
read_histogram(HeapTuple tuple, uint64 **bounds, MemoryContext cxt)
{
	AttStatsSlot sslot;
	bool		have;
	int			n = 0;
	int			i;

	*bounds = NULL;
	have = get_attstatsslot(&sslot, tuple, XID_STATISTIC_KIND_HISTOGRAM,
							InvalidOid, ATTSTATSSLOT_VALUES);
	if (have && !finer_matches_core(tuple, &sslot))
	{
		free_attstatsslot(&sslot);
		have = false;
	}
	if (!have && !get_attstatsslot(&sslot, tuple, STATISTIC_KIND_HISTOGRAM,
								   InvalidOid, ATTSTATSSLOT_VALUES))
		return 0;
	if (sslot.nvalues >= 2)
	{
		*bounds = MemoryContextAlloc(cxt, sizeof(uint64) * sslot.nvalues);
		for (i = 0; i < sslot.nvalues; i++)
			(*bounds)[i] = DatumGetXidPayload(sslot.values[i]);
		n = sslot.nvalues;
	}
	free_attstatsslot(&sslot);
	return n;
}

/*
 * The histogram of the column's statistics as payloads: returns the number
 * of bounds (0 when there is no histogram of at least two) and points
 * *bounds at them, which stay valid until the next call.
 */
static int
histogram_bounds(VariableStatData *vardata, const uint64 **bounds)
{
	static uint64 *uncached = NULL;
	HeapTuple	tuple = vardata->statsTuple;
	Form_pg_statistic stats = (Form_pg_statistic) GETSTRUCT(tuple);
	HistCacheKey key;
	HistCacheEntry *e;
	ItemPointerData tid = tuple->t_self;
	TransactionId xmin = HeapTupleHeaderGetRawXmin(tuple->t_data);
	uint64	   *read;
	uint64	   *copy;
	bool		found;
	int			n;

	if (!ItemPointerIsValid(&tid) || !TransactionIdIsNormal(xmin))
	{
		if (uncached != NULL)
			pfree(uncached);
		uncached = NULL;
		n = read_histogram(tuple, &read, TopMemoryContext);
		uncached = read;
		*bounds = read;
		return n;
	}

	if (!hist_callback_registered)
	{
		CacheRegisterSyscacheCallback(STATRELATTINH, hist_cache_invalidate,
									  (Datum) 0);
		hist_callback_registered = true;
	}
	memset(&key, 0, sizeof(key));
	key.starelid = stats->starelid;
	key.staattnum = stats->staattnum;
	key.stainherit = stats->stainherit;
	if (hist_cache != NULL)
	{
		e = hash_search(hist_cache, &key, HASH_FIND, NULL);
		if (e != NULL && ItemPointerEquals(&e->tid, &tid) && e->xmin == xmin)
		{
			*bounds = e->bounds;
			return e->n;
		}
	}

	/*
	 * Read it whole first, in the caller's context: reading can take a lock
	 * on a TOAST table and so accept invalidations, which empty the cache. An
	 * error here leaves the cache as it was.
	 */
	n = read_histogram(tuple, &read, CurrentMemoryContext);

	if (hist_cache != NULL && hist_bytes > HIST_CACHE_MAX_BYTES)
		hist_cache_reset();
	if (hist_context == NULL)
		hist_context = AllocSetContextCreate(TopMemoryContext,
											 "xid histograms",
											 ALLOCSET_DEFAULT_SIZES);
	if (hist_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(HistCacheKey);
		ctl.entrysize = sizeof(HistCacheEntry);
		ctl.hcxt = hist_context;
		hist_cache = hash_create("xid histograms", 64, &ctl,
								 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	copy = NULL;
	if (n > 0)
	{
		copy = MemoryContextAlloc(hist_context, sizeof(uint64) * n);
		memcpy(copy, read, sizeof(uint64) * n);
		pfree(read);
	}

	/* nothing after this can fail: the entry is made whole or not at all */
	e = hash_search(hist_cache, &key, HASH_ENTER, &found);
	if (found && e->bounds != NULL)
		pfree(e->bounds);
	e->tid = tid;
	e->xmin = xmin;
	e->n = n;
	e->bounds = copy;
	hist_bytes += sizeof(HistCacheEntry) + sizeof(uint64) * n;
	*bounds = e->bounds;
	return e->n;
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
 * Selectivity of "var in [lo, hi]" among the rows the column's statistics
 * describe, as core's scalarineqsel() combines them: the MCVs in the range,
 * plus the histogram's fraction of the rows that are neither NULL nor an
 * MCV.  -1 when the column has no statistics.
 */
static Selectivity
stats_selectivity(VariableStatData *vardata, uint64 lo, uint64 hi)
{
	AttStatsSlot sslot;
	double		nullfrac;
	double		mcv_sel = 0.0;
	double		mcv_total = 0.0;
	double		hist_sel;
	bool		have_hist = false;
	const uint64 *bounds;
	int			nbounds;
	Selectivity sel;

	if (!HeapTupleIsValid(vardata->statsTuple))
		return -1.0;
	nullfrac = null_fraction(vardata);
	if (lo == 0 && hi == PG_UINT64_MAX)
		return 1.0 - nullfrac;	/* every xid: exactly the non-null rows */

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
	nbounds = histogram_bounds(vardata, &bounds);
	if (nbounds >= 2)
	{
		double		below_hi = hi == PG_UINT64_MAX ? 1.0 :
			histogram_fraction_below(bounds, nbounds, hi + 1);
		double		below_lo = histogram_fraction_below(bounds, nbounds, lo);

		hist_sel = Max(below_hi - below_lo, 0.0);
		have_hist = true;
	}

	if (have_hist)
		sel = mcv_sel + hist_sel * Max(1.0 - nullfrac - mcv_total, 0.0);
	else if (mcv_total > 0.0)
		sel = mcv_sel;			/* every non-null value is a common one */
	else
		return -1.0;
	CLAMP_PROBABILITY(sel);
	return sel;
}

/*
 * The largest value the statistics know of: the histogram's upper end, or
 * a larger common value; and how far past it the table's end may have
 * been when they were taken, *margin: a sample of fewer rows than the
 * table's misses its last ones, and the rows past the histogram's end are
 * not all new.  Three sample rows' worth of the last bucket's width is
 * past what a sample misses but well short of an hour of new rows.  False
 * when the statistics know no value.
 */
static bool
stats_end(VariableStatData *vardata, double analyzed, double sampled,
		  uint64 *end, uint64 *margin)
{
	AttStatsSlot sslot;
	const uint64 *bounds;
	int			nbounds;
	bool		have = false;

	*end = 0;
	*margin = 0;
	nbounds = histogram_bounds(vardata, &bounds);
	if (nbounds >= 2)
	{
		*end = bounds[nbounds - 1];
		have = true;
		if (sampled > 0.0 && sampled < analyzed)
			*margin = (uint64) Min(3.0 * (nbounds - 1) / sampled *
								   (double) (bounds[nbounds - 1] -
											 bounds[nbounds - 2]),
								   (double) (PG_UINT64_MAX / 2));
	}
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_MCV,
						 InvalidOid, ATTSTATSSLOT_VALUES))
	{
		int			i;

		for (i = 0; i < sslot.nvalues; i++)
		{
			uint64		v = DatumGetXidPayload(sslot.values[i]);

			if (!have || v > *end)
				*end = v;
			have = true;
		}
		free_attstatsslot(&sslot);
	}
	return have;
}

/*
 * The rows of the table when the statistics were taken, and of the sample
 * they were taken from (0 when unknown): what xid's ANALYZE recorded
 * (xid_analyze.c), or for statistics without it (taken before 1.3's
 * library) pg_class.reltuples of a table without children, which says the
 * same until the next VACUUM.  0 when unknown.  *vacuumed: pg_class says
 * otherwise, so a VACUUM has counted the table since (and freed the space
 * of the rows deleted before it); *since_vacuum is then the rows the
 * table holds by that count and the rows the cumulative statistics say
 * were inserted since (which may fill that freed space, so that the
 * table's pages, from which the planner counts its rows, do not grow).
 */
static double
analyzed_rows(PlannerInfo *root, VariableStatData *vardata, double *sampled,
			  bool *vacuumed, double *since_vacuum)
{
	AttStatsSlot sslot;
	double		rows = -1.0,
				reltuples = -1.0;
	RangeTblEntry *rte = NULL;
	HeapTuple	tuple;

	*sampled = 0.0;
	*vacuumed = false;
	*since_vacuum = 0.0;
	if (get_attstatsslot(&sslot, vardata->statsTuple, XID_STATISTIC_KIND_ROWS,
						 InvalidOid, ATTSTATSSLOT_NUMBERS))
	{
		if (sslot.nnumbers >= 1)
			rows = sslot.numbers[0];
		if (sslot.nnumbers >= 2)
			*sampled = sslot.numbers[1];
		free_attstatsslot(&sslot);
	}
	if (vardata->rel != NULL && vardata->rel->relid > 0 &&
		(int) vardata->rel->relid < root->simple_rel_array_size)
		rte = planner_rt_fetch(vardata->rel->relid, root);
	if (rte != NULL && rte->rtekind == RTE_RELATION && !rte->inh)
	{
		tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
		if (HeapTupleIsValid(tuple))
		{
			reltuples = ((Form_pg_class) GETSTRUCT(tuple))->reltuples;
			ReleaseSysCache(tuple);
		}
	}
	if (rows < 0.0)
		return Max(reltuples, 0.0);
	*vacuumed = reltuples >= 0.0 && (float4) reltuples != (float4) rows;
	if (*vacuumed)
	{
		PgStat_StatTabEntry *tabentry = pgstat_fetch_stat_tabentry(rte->relid);

		*since_vacuum = reltuples;
		if (tabentry != NULL && XID_INS_SINCE_VACUUM(tabentry) > 0)
			*since_vacuum += (double) XID_INS_SINCE_VACUUM(tabentry);
	}
	return rows;
}

/* The share of the values [a, b] that lie in [lo, hi], spread evenly */
static double
span_fraction(uint64 a, uint64 b, uint64 lo, uint64 hi)
{
	uint64		from = Max(a, lo),
				to = Min(b, hi);

	if (from > to)
		return 0.0;
	return ((double) (to - from) + 1.0) / ((double) (b - a) + 1.0);
}

/*
 * Selectivity of "var in [lo, hi]" among the relation's rows now: those
 * the statistics describe, and those added since the last ANALYZE.
 *
 * The table's size now (rel->tuples, which the planner scales from the
 * pages it has now) against its size when the statistics were taken
 * (analyzed_rows()) says how many rows came since; the column's btree
 * index (xid_actual.c) says where they are: from the first value past the
 * statistics' end to the actual end, spread evenly over that time (an
 * id's payload is its time).  Rows below the index's actual start are
 * gone (retention deletes): they do not count in the window, and once a
 * VACUUM has freed their space they do not hide the rows that replaced
 * them.  A table without statistics is read as the
 * index's range spread evenly.  Without an index, the rows added are
 * placed from the statistics' end to now; without either, or where the
 * index ends inside the statistics (rows added with old times), they
 * follow the statistics, as core's estimates assume.  -1 when nothing is
 * known.
 */
static Selectivity
bounds_selectivity(PlannerInfo *root, VariableStatData *vardata, uint64 lo,
				   uint64 hi)
{
	RelOptInfo *rel = vardata->rel;
	XidActualRange range;
	Selectivity old,
				gone = 0.0,
				sel;
	double		analyzed,
				sampled,
				since_vacuum,
				nullfrac,
				added,
				spread;
	uint64		end,
				margin,
				from = lo;
	bool		have_range,
				vacuumed;

	if (!HeapTupleIsValid(vardata->statsTuple))
	{
		if (!xid_actual_range(root, vardata, PG_UINT64_MAX, &range))
			return -1.0;
		return span_fraction(range.min, range.max, lo, hi);
	}
	old = stats_selectivity(vardata, lo, hi);
	if (old < 0.0 || rel == NULL || rel->tuples <= 0.0)
		return old;
	analyzed = analyzed_rows(root, vardata, &sampled, &vacuumed, &since_vacuum);
	if (analyzed <= 0.0 || !stats_end(vardata, analyzed, sampled, &end, &margin))
		return old;
	nullfrac = null_fraction(vardata);

	have_range = xid_actual_range(root, vardata,
								  end <= PG_UINT64_MAX - margin ?
								  end + margin : PG_UINT64_MAX,
								  &range);
	if (have_range && range.min > 0)
	{
		gone = stats_selectivity(vardata, 0, range.min - 1);
		gone = Max(gone, 0.0);
		from = Max(lo, range.min);
		old = from > hi ? 0.0 : Max(stats_selectivity(vardata, from, hi), 0.0);
	}

	/*
	 * Until a VACUUM, the rows deleted since ANALYZE still fill their pages,
	 * and the table's size counts them; after it, their space holds new rows,
	 * which the table's size misses and the rows inserted since the VACUUM
	 * count
	 */
	added = (vacuumed ? Max(rel->tuples, since_vacuum) : rel->tuples)
		- analyzed * (1.0 - (vacuumed ? gone : 0.0));
	if (added <= 0.0)
		return old;

	/* where the rows added are, as a share of them in [lo, hi] */
	if (have_range && range.have_after && range.after > end)
		spread = span_fraction(range.after, range.max, lo, hi);
	else if (!have_range)
	{
		uint64		first,
					now;

		/* the largest id of the transaction's start */
		if (xid_time_op_bounds(XID_TIME_LE,
							   GetCurrentTransactionStartTimestamp(),
							   &first, &now) && now > end)
			spread = span_fraction(end + 1, now, lo, hi);
		else
			spread = nullfrac < 1.0 ? old / (1.0 - nullfrac) : 0.0;
	}
	else
		spread = nullfrac < 1.0 ? old / (1.0 - nullfrac) : 0.0;

	sel = (analyzed * old + added * (1.0 - nullfrac) * spread) / rel->tuples;
	CLAMP_PROBABILITY(sel);
	return sel;
}

/*
 * What one clause says about the window: its bounds when its other argument
 * is known at plan time (a constant, or a stable expression such as now() -
 * interval '1 day' evaluated for the estimate), and which ends it bounds.
 */
typedef struct WindowPart
{
	XidClauseBounds b;
	bool		below;			/* bounds the xid from below */
	bool		above;			/* bounds the xid from above */
} WindowPart;

static void
window_part(PlannerInfo *root, const XidClause *clause, Node *other,
			WindowPart *part)
{
	xid_clause_bounds(clause, other, &part->b);
	if (clause->kind == XID_CLAUSE_TIME || clause->kind == XID_CLAUSE_CMP)
	{
		part->below = XidTimeOpIsLower(clause->timeop);
		part->above = !part->below;
	}
	else
		part->below = part->above = true;
}

/*
 * Selectivity of the first n parts of a window together: the intersection
 * of their bounds, times the share of a LIKE pattern's rest that its bounds
 * do not decide.  A part whose bounds are unknown caps it at core's default
 * for a comparison or, once the parts bound both ends, for a window.
 */
static Selectivity
window_selectivity(PlannerInfo *root, VariableStatData *vardata,
				   const WindowPart *parts, int n)
{
	uint64		lo = 0,
				hi = PG_UINT64_MAX;
	double		residual = 1.0;
	bool		unknown = false,
				below = false,
				above = false;
	Selectivity sel,
				dflt;
	int			i;

	for (i = 0; i < n; i++)
	{
		const XidClauseBounds *b = &parts[i].b;

		below |= parts[i].below;
		above |= parts[i].above;
		switch (b->bounds)
		{
			case XID_BOUNDS_NONE:
				return 0.0;
			case XID_BOUNDS_UNKNOWN:
				unknown = true;
				break;
			case XID_BOUNDS_SOME:
			case XID_BOUNDS_ALL:
				lo = Max(lo, b->lo);
				hi = Min(hi, b->hi);
				if (!b->exact)
					residual *= b->residual;
				break;
		}
	}
	if (lo > hi)
		return 0.0;

	dflt = (below && above) ? DEFAULT_RANGE_INEQ_SEL : DEFAULT_INEQ_SEL;
	sel = bounds_selectivity(root, vardata, lo, hi);
	if (sel < 0.0)
		sel = dflt;
	else
		sel *= residual;
	if (unknown)
		sel = Min(sel, dflt);
	return sel;
}

/*
 * The clause function, arguments and input collation of a restriction
 * clause, if it is a call with two arguments.
 */
static bool
call_parts(Node *node, Oid *funcid, List **args, Oid *collid)
{
	if (IsA(node, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) node;

		set_opfuncid(op);
		*funcid = op->opfuncid;
		*args = op->args;
		*collid = op->inputcollid;
	}
	else if (IsA(node, FuncExpr))
	{
		*funcid = ((FuncExpr *) node)->funcid;
		*args = ((FuncExpr *) node)->args;
		*collid = ((FuncExpr *) node)->inputcollid;
	}
	else
		return false;
	return list_length(*args) == 2;
}

/*
 * Is clause one that xid_simplify() kept beside the comparisons it added
 * for partition pruning (see xid_clause_selectivity())?  Those comparisons
 * are the window then, and the clause is no part of it.
 */
static bool
kept_beside_pruning(RelOptInfo *rel, Oid collid, const XidClause *clause)
{
	return clause->kind != XID_CLAUSE_CMP &&
		xid_is_done(collid, clause->other) &&
		xid_has_pruning_clauses(rel, clause->elem, false);
}

/* Can a clause of this kind be part of a window? */
static bool
window_kind(const XidClause *clause)
{
	return clause->kind != XID_CLAUSE_NOT_LIKE &&
		is_pseudo_constant_clause(clause->other);
}

/*
 * The window of the clause "self" (whose argument list is args): its parts,
 * in the order of the relation's restriction clauses, into *parts; returns
 * how many there are and sets *selfpos to self's place.  0 when self is not
 * one of rel's restriction clauses, or cannot be part of a window.
 */
static int
window_parts(PlannerInfo *root, RelOptInfo *rel, List *args,
			 const XidClause *self, Node *self_other, WindowPart **parts,
			 int *selfpos)
{
	ListCell   *lc;
	int			n = 0;
	bool		found = false;

	if (rel == NULL || !window_kind(self))
		return 0;
	*parts = palloc(sizeof(WindowPart) * list_length(rel->baserestrictinfo));
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Oid			funcid;
		List	   *cargs;
		Oid			collid;
		XidClause	clause;

		if (!call_parts((Node *) rinfo->clause, &funcid, &cargs, &collid))
			continue;
		if (cargs == args)
		{
			window_part(root, self, self_other, &(*parts)[n]);
			*selfpos = n++;
			found = true;
			continue;
		}
		/* cheap tests first: is either argument our expression? */
		if (!equal(linitial(cargs), self->elem) &&
			!equal(lsecond(cargs), self->elem))
			continue;
		if (!xid_clause_parse(funcid, cargs, collid, &clause) ||
			!equal(clause.elem, self->elem) || !window_kind(&clause) ||
			kept_beside_pruning(rel, collid, &clause))
			continue;
		window_part(root, &clause,
					estimate_expression_value(root, clause.other),
					&(*parts)[n++]);
	}
	if (!found)
	{
		pfree(*parts);
		return 0;
	}
	return n;
}

/*
 * Is the comparison cmp ("elem >= x" or "elem <= x") one of the index
 * conditions that xid_support.c made of the restriction clause src, whose
 * bounds are b: x its bound, or the bound function of its other argument?
 */
static bool
derived_from(const XidClause *cmp, const XidClause *src,
			 const XidClauseBounds *b, Node *cmp_other)
{
	static const PGFunction lower_funcs[] = {
		xid_time_lower_bound, xid_range_lower_bound,
		xid_prefix_lower_bound, xid_like_lower_bound,
	};
	static const PGFunction upper_funcs[] = {
		xid_time_upper_bound, xid_range_upper_bound,
		xid_prefix_upper_bound, xid_like_upper_bound,
	};
	bool		lower = cmp->timeop == XID_TIME_GE;
	int			i;

	if (cmp->timeop != XID_TIME_GE && cmp->timeop != XID_TIME_LE)
		return false;
	if (IsA(cmp->other, FuncExpr))
	{
		FuncExpr   *f = (FuncExpr *) cmp->other;
		PGFunction	fn;

		if (f->args == NIL || !equal(linitial(f->args), src->other))
			return false;
		fn = xid_func_entry_point(f->funcid);
		for (i = 0; i < (int) lengthof(lower_funcs); i++)
			if (fn == (lower ? lower_funcs : upper_funcs)[i])
				return true;
		return false;
	}
	if (cmp_other == NULL || !IsA(cmp_other, Const) ||
		((Const *) cmp_other)->constisnull || b->bounds != XID_BOUNDS_SOME)
		return false;
	return lower ?
		b->lo == DatumGetXidPayload(((Const *) cmp_other)->constvalue) :
		b->hi == DatumGetXidPayload(((Const *) cmp_other)->constvalue);
}

/*
 * Selectivity of a comparison that is not a restriction clause of the
 * relation but an index condition made of one (xid_support.c): "elem >=
 * lo AND elem <= hi" for a range, prefix, pattern or time.  The planner
 * multiplies the two, so the lower one gets the share of [lo, the end]
 * and the upper one the rest of the window's, as parts of a window do
 * (see the file header); the window is the bounds alone, without what a
 * pattern's recheck removes, since the index returns all of it.  -1 when
 * cmp is no such condition.
 */
static Selectivity
index_condition_share(PlannerInfo *root, VariableStatData *vardata,
					  const XidClause *cmp, Node *cmp_other)
{
	ListCell   *lc;

	if (vardata->rel == NULL || cmp->kind != XID_CLAUSE_CMP)
		return -1.0;
	foreach(lc, vardata->rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Oid			funcid;
		List	   *cargs;
		Oid			collid;
		XidClause	src;
		WindowPart	whole,
					lower;
		Selectivity s_whole,
					s_lower;
		bool		has_lower;

		if (!call_parts((Node *) rinfo->clause, &funcid, &cargs, &collid))
			continue;
		if (!equal(linitial(cargs), cmp->elem) &&
			!equal(lsecond(cargs), cmp->elem))
			continue;
		if (!xid_clause_parse(funcid, cargs, collid, &src) ||
			src.kind == XID_CLAUSE_CMP || !equal(src.elem, cmp->elem) ||
			!window_kind(&src))
			continue;
		window_part(root, &src, estimate_expression_value(root, src.other),
					&whole);
		if (!derived_from(cmp, &src, &whole.b, cmp_other))
			continue;

		whole.b.exact = true;
		whole.b.residual = 1.0;
		s_whole = window_selectivity(root, vardata, &whole, 1);
		has_lower = whole.b.bounds == XID_BOUNDS_UNKNOWN ? whole.below :
			whole.b.lo > 0;
		if (!has_lower)
			return s_whole;
		lower = whole;
		lower.above = false;
		lower.b.hi = PG_UINT64_MAX;
		s_lower = window_selectivity(root, vardata, &lower, 1);
		if (cmp->timeop == XID_TIME_GE)
			return s_lower;
		return s_lower > 0.0 ? Min(s_whole / s_lower, 1.0) : 0.0;
	}
	return -1.0;
}

/*
 * Selectivity of one clause, estimated alone or as its share of its window
 * (see the file header).
 */
static Selectivity
clause_share(PlannerInfo *root, VariableStatData *vardata, List *args,
			 const XidClause *clause, Node *other)
{
	WindowPart *parts;
	WindowPart	alone;
	int			n,
				k = 0;
	Selectivity upto_k,
				before_k;

	n = window_parts(root, vardata->rel, args, clause, other, &parts, &k);
	if (n == 0)
	{
		Selectivity derived = index_condition_share(root, vardata, clause,
													other);

		if (derived >= 0.0)
			return derived;
		window_part(root, clause, other, &alone);
		return window_selectivity(root, vardata, &alone, 1);
	}
	upto_k = window_selectivity(root, vardata, parts, k + 1);
	before_k = k == 0 ? 1.0 : window_selectivity(root, vardata, parts, k);
	pfree(parts);
	if (before_k <= 0.0)
		return 0.0;
	return Min(upto_k / before_k, 1.0);
}

/*
 * Selectivity of a call of clause function funcid with these arguments and
 * input collation.
 *
 * A clause that xid_simplify() kept beside the clauses it added for partition
 * pruning (xid_prune.c) is 1 where those clauses are there too: they bound
 * the id exactly as it does, and core estimates them, so the window counts
 * once.  In a partition they are gone (xid_cmp_support), and the clause is
 * estimated as any other.
 */
double
xid_clause_selectivity(PlannerInfo *root, Oid funcid, List *args,
					   int varRelid, Oid collation)
{
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	XidClause	clause;
	Selectivity sel;

	if (!xid_clause_parse(funcid, args, collation, &clause))
		return DEFAULT_RANGE_INEQ_SEL;
	if (!get_restriction_variable(root, args, varRelid,
								  &vardata, &other, &varonleft))
		return (clause.kind == XID_CLAUSE_TIME ||
				clause.kind == XID_CLAUSE_CMP) ?
			DEFAULT_INEQ_SEL : DEFAULT_RANGE_INEQ_SEL;

	/*
	 * The statistics are those of the xid argument, and the rest reads the
	 * other one as a range, text or time.  get_restriction_variable() takes
	 * whichever side refers to the relation as the variable, which a query
	 * may put in the other argument ("'...'::xid ^@ relname::text"): then
	 * there is nothing to say beyond the default.
	 */
	if ((varonleft ? 0 : 1) != clause.elem_argno)
	{
		ReleaseVariableStats(vardata);
		return (clause.kind == XID_CLAUSE_TIME ||
				clause.kind == XID_CLAUSE_CMP) ?
			DEFAULT_INEQ_SEL : DEFAULT_RANGE_INEQ_SEL;
	}
	if (kept_beside_pruning(vardata.rel, collation, &clause))
		sel = 1.0;
	else if (clause.kind == XID_CLAUSE_NOT_LIKE)
	{
		WindowPart	like;

		/* the rows that are not NULL and do not match */
		clause.kind = XID_CLAUSE_LIKE;
		window_part(root, &clause, other, &like);
		sel = 1.0 - null_fraction(&vardata) -
			window_selectivity(root, &vardata, &like, 1);
	}
	else
		sel = clause_share(root, &vardata, args, &clause, other);
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
											varRelid, PG_GET_COLLATION()));
}
