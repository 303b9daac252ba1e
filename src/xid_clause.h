/*-------------------------------------------------------------------------
 *
 * xid_clause.h
 *	  The clauses the planner support and the estimators understand
 *	  (xid_clause.c): a call taken apart, the closed bounds on the xid
 *	  that it admits, and the comparisons that stand for those bounds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_CLAUSE_H
#define XID_CLAUSE_H

#include "nodes/pg_list.h"
#include "nodes/primnodes.h"

#include "xid_bounds.h"
#include "xid_time.h"

/*
 * The clause kinds the planner support understands (<@, @>, ^@, LIKE, NOT
 * LIKE, and the time comparisons in either argument order), and the
 * comparisons of two xids, which only the estimator reads (their index
 * conditions and pruning are core's)
 */
typedef enum XidClauseKind
{
	XID_CLAUSE_RANGE,			/* xid <@ xidrange, xidrange @> xid */
	XID_CLAUSE_PREFIX,			/* xid ^@ text */
	XID_CLAUSE_LIKE,			/* xid ~~ text */
	XID_CLAUSE_NOT_LIKE,		/* xid !~~ text */
	XID_CLAUSE_TIME,			/* xid OP timestamptz, either order */
	XID_CLAUSE_CMP				/* xid OP xid (< <= > >=), either order */
} XidClauseKind;

/* A clause of one of those kinds, taken apart */
typedef struct XidClause
{
	XidClauseKind kind;
	XidTimeOp	timeop;			/* XID_CLAUSE_TIME: xid_time(elem) OP other;
								 * XID_CLAUSE_CMP: elem OP other */
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
extern void xid_clause_bounds(const XidClause *clause, Node *other,
							  XidClauseBounds *b);

/*
 * The comparisons of elem with constant bounds, or with the bound
 * functions of a clause whose other argument is not a constant, with the
 * operators of opfamily; marked done (xid_done.h) when asked
 */
extern List *xid_const_range_clauses(Node *elem, Oid opfamily,
									 const XidClauseBounds *b, bool done);
extern List *xid_bound_function_clauses(Oid support_of, const XidClause *c,
										Oid opfamily, bool done);

#endif							/* XID_CLAUSE_H */
