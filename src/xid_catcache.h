/*-------------------------------------------------------------------------
 *
 * xid_catcache.h
 *	  The planner support's catalog caches (xid_catcache.c): a function's
 *	  C entry point by OID, the >= and <= operators of an operator family,
 *	  and the extension's functions that plans call.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_CATCACHE_H
#define XID_CATCACHE_H

#include "fmgr.h"

/* The C entry point of a function (fmgr_info()'s fn_addr) */
extern PGFunction xid_func_entry_point(Oid funcid);

/* The >= and <= operators of a btree-like operator family for a type */
extern void xid_family_ge_le(Oid opfamily, Oid type, Oid *ge, Oid *le);

/*
 * The extension's functions that the planner puts into plans, looked up in
 * the extension's schema.
 */
typedef enum XidPlanFunc
{
	XID_FN_RANGE_LOWER,
	XID_FN_RANGE_UPPER,
	XID_FN_PREFIX_LOWER,
	XID_FN_PREFIX_UPPER,
	XID_FN_LIKE_LOWER,
	XID_FN_LIKE_UPPER,
	XID_FN_TIME_LOWER,
	XID_FN_TIME_UPPER,
	XID_FN_TIME,
	XID_NUM_PLAN_FUNCS
} XidPlanFunc;

extern Oid	xid_plan_func(Oid nsp, XidPlanFunc which);

#endif							/* XID_CATCACHE_H */
