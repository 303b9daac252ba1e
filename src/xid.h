/*-------------------------------------------------------------------------
 *
 * xid.h
 *	  Shared definitions of the xid extension: the datum representation,
 *	  the layout of the xid profile, and what each file offers the others.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_H
#define XID_H

#include "postgres.h"

#include "fmgr.h"
#include "nodes/nodes.h"
#include "nodes/pathnodes.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "catalog/pg_collation.h"
#include "access/xlogdefs.h"
#include "port/atomics.h"
#include "storage/spin.h"

#include "compat.h"

/*
 * The type is an unsigned 64-bit integer passed by value, which needs a
 * 64-bit Datum: stop here rather than build a library that cannot work.
 */
#if SIZEOF_DATUM < 8
#error "the xid extension needs a 64-bit platform (8-byte Datum)"
#endif

/*
 * An xid is its unsigned 64-bit payload, passed by value.  Order, equality
 * and hashing are those of the unsigned integer.
 */
#define DatumGetXidPayload(X)	DatumGetUInt64(X)
#define XidPayloadGetDatum(X)	UInt64GetDatum(X)
#define PG_GETARG_XIDPAYLOAD(n) DatumGetXidPayload(PG_GETARG_DATUM(n))
#define PG_RETURN_XIDPAYLOAD(x) return XidPayloadGetDatum(x)

/*
 * The xid profile: 42 bits of milliseconds since the epoch, then 22 bits
 * that the generator fills (xid_time.c has the epoch and every conversion).
 */
#define XID_MS_BITS			42
#define XID_RANDOM_BITS		22
#define XID_RANDOM_MASK		((UINT64CONST(1) << XID_RANDOM_BITS) - 1)
#define XID_MAX_MS			((INT64CONST(1) << XID_MS_BITS) - 1)

StaticAssertDecl(XID_MS_BITS + XID_RANDOM_BITS == 64,
				 "the xid fields fill 64 bits");

/* The millisecond field of a payload, and the payload of a millisecond */
#define XidPayloadGetMs(p)		((int64) ((p) >> XID_RANDOM_BITS))
#define XidMsGetPayload(ms, low) \
	(((uint64) (ms) << XID_RANDOM_BITS) | ((uint64) (low) & XID_RANDOM_MASK))

/*
 * Define the SQL-callable function "name" as helper(fcinfo, flag): the
 * lower and upper bound functions the planner puts into plans come in
 * pairs that differ only in the end they return.
 */
#define XID_BOUND_FUNC(name, helper, flag) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	return helper(fcinfo, flag); \
}

/* xid.c */
extern void _PG_init(void);

/* At most 12 of the 22 low bits hold a node number (4,096 nodes) */
#define XID_MAX_NODE_BITS	12

/* xid_warn.c */
extern void xid_warn_init(void);

/* xid_io.c */
extern bool xid_parse_text(const char *str, size_t len, uint64 *result,
						   Node *escontext);
extern void xid_prefix_bounds_or_error(const char *str, size_t len,
									   uint64 *lo, uint64 *hi, bool *empty);

/* xid_time.c */

/* The comparison a time operator makes: xid_time(id) OP t */
typedef enum XidTimeOp
{
	XID_TIME_LT,
	XID_TIME_LE,
	XID_TIME_GT,
	XID_TIME_GE
} XidTimeOp;

/* Does op bound the time from below (> and >=)?  Does it admit t itself? */
#define XidTimeOpIsLower(op)		((op) == XID_TIME_GT || (op) == XID_TIME_GE)
#define XidTimeOpIsInclusive(op)	((op) == XID_TIME_LE || (op) == XID_TIME_GE)
/* The operator that bounds from below or above, admitting t or not */
#define XidTimeOpFor(lower, inclusive) \
	((lower) ? ((inclusive) ? XID_TIME_GE : XID_TIME_GT) : \
	 ((inclusive) ? XID_TIME_LE : XID_TIME_LT))

extern int64 xid_now_ms(void);
extern int64 xid_timestamp_floor_ms(TimestampTz ts);
extern int64 xid_timestamp_ceil_ms(TimestampTz ts);
extern int64 xid_timestamp_to_ms_checked(TimestampTz ts);
extern TimestampTz xid_ms_timestamp(int64 ms);
extern void xid_time_out_of_range(void);
extern int64 xid_ms_from_unix_ms(int64 unix_ms);
extern int64 xid_ms_to_unix_ms(int64 ms);

/*
 * Check that a millisecond since the epoch fits the 42-bit field; inline,
 * since xid_new() checks every id.
 */
static inline void
xid_check_ms(int64 ms)
{
	if (unlikely(ms < 0 || ms > XID_MAX_MS))
		xid_time_out_of_range();
}

extern bool xid_time_op_ms(XidTimeOp op, TimestampTz t, uint64 *ms);
extern bool xid_time_op_bounds(XidTimeOp op, TimestampTz t,
							   uint64 *lo, uint64 *hi);

/* xid_generate.c */
extern void xid_generate_init(void);

/*
 * What the sessions of one database share: the last id issued there
 * (xid_generate.c) and its durable mark as this server run knows it
 * (xid_mark.c).  Each database has its own, so nothing done in one
 * database moves the ids of another: ids are unique and strictly
 * increasing within each database.  It lives in a shared hash table keyed
 * by the database's OID (XidDbEntry), made at the database's first id and
 * kept while the database exists, so a session may keep a pointer to it.
 */
typedef struct XidDbState
{
	pg_atomic_uint64 last;		/* last value issued in the database */
	pg_atomic_uint64 warned_ms; /* clock of its last run-ahead warning */
	/* under mutex: */
	slock_t		mutex;
	Oid			relid;			/* the mark's sequence, InvalidOid: not read */
	int64		page_ms;		/* the value on its page, as last seen */
	int64		mark_ms;		/* no id of it is beyond this millisecond */
	uint64		floor;			/* ids issued since reading it are above */
	int64		pending_ms;		/* the next mark, written but maybe not */
	XLogRecPtr	pending_lsn;	/* flushed yet (Invalid: none) */
} XidDbState;

/*
 * xid_mark.c.  A lease moves the durable mark this far past the id that
 * needs it; a time field further than XID_AHEAD_WARN_MS ahead of the clock
 * is worth a warning.  A restart within a lease puts new ids at most a
 * lease ahead of the clock, which is not.
 */
#define XID_LEASE_MS		1000
#define XID_AHEAD_WARN_MS	1000

/*
 * A mark read from a database's sequence (after a restart, or set with
 * setval() by a restore or by its owner) is trusted up to this far ahead
 * of the clock while xid.max_ahead is 0; beyond it xid_new() refuses to
 * make ids in that database (with xid.max_ahead set, that bound refuses
 * them).  A day is far more than a clock that steps back (NTP, a lagging
 * standby, a VM moved) puts between them, and far less than the 2151 of a
 * mark set to its maximum.
 */
#define XID_MARK_HORIZON_MS	(INT64CONST(24) * 60 * 60 * 1000)

extern void xid_mark_init(void);
extern int64 xid_mark_covered_ms;
extern bool xid_mark_cover(XidDbState *db, uint64 next);
extern void xid_check_ahead(XidDbState *db, uint64 next, int64 now_ms);
extern Oid	xid_mark_relid(void);
extern bool xid_mark_read(Oid relid, int64 *mark);

/* What a clause admits, as closed bounds on the xid */
typedef enum XidBounds
{
	XID_BOUNDS_NONE,			/* no xid satisfies the clause */
	XID_BOUNDS_SOME,			/* the xids in [lo, hi] */
	XID_BOUNDS_ALL,				/* every xid */
	XID_BOUNDS_UNKNOWN			/* not known at plan time */
} XidBounds;

/*
 * The clause kinds the planner support understands (<@, @>, ^@, LIKE, NOT
 * LIKE, and the time comparisons in either argument order)
 */
typedef enum XidClauseKind
{
	XID_CLAUSE_RANGE,			/* xid <@ xidrange, xidrange @> xid */
	XID_CLAUSE_PREFIX,			/* xid ^@ text */
	XID_CLAUSE_LIKE,			/* xid ~~ text */
	XID_CLAUSE_NOT_LIKE,		/* xid !~~ text */
	XID_CLAUSE_TIME				/* xid OP timestamptz, either order */
} XidClauseKind;

/* The clause functions, which xid_clause.c knows by their C entry points */
extern PGDLLEXPORT Datum xid_contained_by(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_range_contains(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_starts_with(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_like(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_not_like(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_lt_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_le_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_gt_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_ge_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_lt(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_le(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_gt(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_ge(PG_FUNCTION_ARGS);

/*
 * The functions of the clauses simplify() adds for partition pruning
 * (xid_planner.c), which the estimator recognises (xid_selfuncs.c)
 */
extern PGDLLEXPORT Datum xid_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_time_upper_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_range_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_range_upper_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_prefix_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_prefix_upper_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_like_lower_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_like_upper_bound(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_le(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum xid_ge(PG_FUNCTION_ARGS);

/* xid_like.c */
extern XidBounds xid_like_bounds(const char *pattern, size_t len,
								 uint64 *lo, uint64 *hi, bool *exact,
								 int *rest_literals);

/* xid_clause.c */

/* A clause of one of those kinds, taken apart */
typedef struct XidClause
{
	XidClauseKind kind;
	XidTimeOp	timeop;			/* XID_CLAUSE_TIME: xid_time(elem) OP other */
	int			elem_argno;		/* which argument is the xid */
	Node	   *elem;			/* the xid argument */
	Node	   *other;			/* the range, text or timestamptz */
} XidClause;

/* What the clause admits when "other" is a constant */
typedef struct XidClauseBounds
{
	XidBounds	bounds;
	uint64		lo;
	uint64		hi;
	bool		exact;			/* [lo, hi] is the whole truth (no recheck) */
	double		residual;		/* selectivity of the rest, when not exact */
} XidClauseBounds;

extern bool xid_clause_parse(Oid funcid, List *args, Oid collid,
							 XidClause *clause);
extern bool xid_collation_matches_bytes(Oid collid);
extern bool xid_pruning_clause(Node *clause, Node *elem,
							   bool comparisons_only);
extern bool xid_has_pruning_clauses(RelOptInfo *rel, Node *elem,
									bool comparisons_only);

/*
 * The input collation that marks the clauses xid_planner.c's simplify()
 * returns for partition pruning: the clause it kept, and the bound function
 * clauses it added.  Core simplifies the arguments of an AND that a support
 * function returns once more, and the mark tells simplify() that the kept
 * clause is done; xid_cmp_support() drops the added ones in each partition,
 * and the estimator counts the kept one as 1 where they stand beside it.
 * The clauses' functions ignore the collation but for LIKE, where every
 * deterministic collation matches an id's ASCII text alike; EXPLAIN does
 * not show it.  A user's own LIKE or ^@ with COLLATE "C" is taken as done
 * too, and so only misses the pruning clauses.
 */
#define XID_DONE_COLLATION C_COLLATION_OID
extern void xid_clause_bounds(const XidClause *clause, Node *other,
							  XidClauseBounds *b);

/*
 * The kind of the finer histogram that xid_analyze.c keeps beside core's
 * (pg_statistic.h leaves 10000-30000 to private use; only xid's type
 * analyze function writes statistics of xid columns)
 */
#define XID_STATISTIC_KIND_HISTOGRAM 10581

/* xid_selfuncs.c */
extern double xid_clause_selectivity(PlannerInfo *root, Oid funcid,
									 List *args, int varRelid,
									 Oid collation);

/* xid_range.c */
extern bool xid_range_bounds(TypeCacheEntry *typcache, const RangeType *r,
							 uint64 *lo, uint64 *hi);
extern bool xid_tstzrange_ms(TypeCacheEntry *typcache, const RangeType *r,
							 uint64 *lo_ms, uint64 *hi_ms);

#endif							/* XID_H */
