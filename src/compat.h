/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between the PostgreSQL major versions the extension
 *	  builds on (15 to 19; 16 is built but not tested here, see
 *	  DEVELOPING.md) that its C code depends on, in one place.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_COMPAT_H
#define XID_COMPAT_H

#include "utils/rangetypes.h"

/* The varlena macros moved out of postgres.h in 16. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * Soft input errors (pg_input_is_valid, COPY ... ON_ERROR) arrived in 16.
 * Before that, ereturn() is an ordinary error.
 */
#if PG_VERSION_NUM < 160000
#define ereturn(context, dummy_value, ...) \
	do { \
		(void) (context); \
		ereport(ERROR, __VA_ARGS__); \
		return dummy_value; \
	} while (0)
#define XID_MAKE_RANGE(typcache, lower, upper) \
	make_range((typcache), (lower), (upper), false)
#else
#define XID_MAKE_RANGE(typcache, lower, upper) \
	make_range((typcache), (lower), (upper), false, NULL)
#endif

/*
 * DecodeDateTime() takes a DateTimeErrorExtra from 16 on.
 */
#if PG_VERSION_NUM >= 160000
#define XID_DECODE_DATETIME(field, ftype, nf, dtype, tm, fsec, tzp) \
	DecodeDateTime((field), (ftype), (nf), (dtype), (tm), (fsec), (tzp), \
				   &(DateTimeErrorExtra) {0})
#else
#define XID_DECODE_DATETIME(field, ftype, nf, dtype, tm, fsec, tzp) \
	DecodeDateTime((field), (ftype), (nf), (dtype), (tm), (fsec), (tzp))
#endif

/*
 * The cumulative statistics' count of rows inserted since the table's last
 * VACUUM: renamed in 16.
 */
#if PG_VERSION_NUM >= 160000
#define XID_INS_SINCE_VACUUM(tabentry) ((tabentry)->ins_since_vacuum)
#else
#define XID_INS_SINCE_VACUUM(tabentry) ((tabentry)->inserts_since_vacuum)
#endif

/*
 * The DSM registry (17+) gives shared state without shared_preload_libraries.
 */
#if PG_VERSION_NUM >= 170000
#define XID_HAVE_DSM_REGISTRY 1
#endif

/*
 * 19's GetNamedDSMSegment passes an argument through to the callback that
 * initializes the segment.
 */
#if PG_VERSION_NUM >= 190000
#define XID_DSM_INIT_PARAMS void *ptr, void *arg
#define XID_GET_NAMED_DSM_SEGMENT(name, size, init, found) \
	GetNamedDSMSegment((name), (size), (init), (found), NULL)
#else
#define XID_DSM_INIT_PARAMS void *ptr
#define XID_GET_NAMED_DSM_SEGMENT(name, size, init, found) \
	GetNamedDSMSegment((name), (size), (init), (found))
#endif

/*
 * LWLock tranches: 19 names a tranche when it hands out its id, in shared
 * memory; before, each process that wants the name registers it itself.
 */
#if PG_VERSION_NUM >= 190000
#define XID_NEW_TRANCHE_ID(name) LWLockNewTrancheId(name)
#define XID_REGISTER_TRANCHE(id, name) ((void) 0)
#else
#define XID_NEW_TRANCHE_ID(name) LWLockNewTrancheId()
#define XID_REGISTER_TRANCHE(id, name) LWLockRegisterTranche((id), (name))
#endif

/*
 * dshash tables take a function that copies keys from 17 on.
 */
#if PG_VERSION_NUM >= 170000
#define XID_DSHASH_SET_COPY(params) ((params).copy_function = dshash_memcpy)
#else
#define XID_DSHASH_SET_COPY(params) ((void) (params))
#endif

/*
 * ANALYZE's statistics target for a column moved from the copy of its
 * pg_attribute row into VacAttrStats itself in 17.
 */
#if PG_VERSION_NUM >= 170000
#define XID_STATS_TARGET(stats) ((stats)->attstattarget)
#else
#define XID_STATS_TARGET(stats) ((stats)->attr->attstattarget)
#endif

/*
 * vacuum_delay_point() says whether it is called from ANALYZE from 18 on.
 */
#if PG_VERSION_NUM >= 180000
#define XID_ANALYZE_DELAY_POINT() vacuum_delay_point(true)
#else
#define XID_ANALYZE_DELAY_POINT() vacuum_delay_point()
#endif

/*
 * index_beginscan() takes the scan's instrumentation (EXPLAIN ANALYZE's
 * index searches) from 18 on, and scan option flags from 19; the
 * estimators' reads have neither.
 */
#if PG_VERSION_NUM >= 190000
#define XID_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), (norderbys), 0)
#elif PG_VERSION_NUM >= 180000
#define XID_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), (norderbys))
#else
#define XID_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), (nkeys), (norderbys))
#endif

/*
 * Module magic: 18 can record the name and version of the library.
 */
#if PG_VERSION_NUM >= 180000
#define XID_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "xid", .version = "1.3")
#else
#define XID_MODULE_MAGIC PG_MODULE_MAGIC
#endif

#endif							/* XID_COMPAT_H */
