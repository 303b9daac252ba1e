/*-------------------------------------------------------------------------
 *
 * xid_analyze.h
 *	  The statistics that xid_analyze.c keeps beside core's, as the
 *	  estimators (xid_selfuncs.c) read them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_ANALYZE_H
#define XID_ANALYZE_H

/*
 * The kind of the finer histogram that xid_analyze.c keeps beside core's
 * (pg_statistic.h leaves 10000-30000 to private use; only xid's type
 * analyze function writes statistics of xid columns)
 */
#define XID_STATISTIC_KIND_HISTOGRAM 10581

/*
 * The rows of the table when ANALYZE took the statistics (stanumbers[0]),
 * which the estimators compare with its current size to count the rows
 * added since, and the rows of its sample (stanumbers[1]), which say how
 * far the table's end may lie past the histogram's
 */
#define XID_STATISTIC_KIND_ROWS 10582

#endif							/* XID_ANALYZE_H */
