/*-------------------------------------------------------------------------
 *
 * xid_move.h
 *	  What the files of xid_move's library share: the one runner every
 *	  statement of a move goes through (xid_move_run.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_MOVE_H
#define XID_MOVE_H

#include "executor/spi.h"

/* The owner of a relation, or an error if there is no such relation */
extern Oid	xid_move_rel_owner(Oid relid);

/* The schema of an installed extension, or an error */
extern Oid	xid_move_extension_schema(const char *extname);

/*
 * Run a statement (a prepared plan, or SQL text with parameters) as role,
 * in a security-restricted operation, with search_path pg_catalog, pg_temp
 * and row_security off; the caller has called SPI_connect().  Returns
 * SPI_execute's code; SPI_processed and SPI_tuptable hold the result.
 * xid_move_run_plan_replica() runs it with session_replication_role =
 * replica too (a fill of the move's own that fires no application trigger).
 */
extern int	xid_move_run_plan(Oid role, SPIPlanPtr plan, Datum *values,
							  const char *nulls, bool read_only, long tcount);
extern int	xid_move_run_plan_replica(Oid role, SPIPlanPtr plan,
									  Datum *values, const char *nulls,
									  bool read_only, long tcount);
extern int	xid_move_run_sql(Oid role, const char *sql, int nargs,
							 Oid *argtypes, Datum *values, const char *nulls,
							 bool read_only, long tcount);

/* Prepare a statement and keep it for the session */
extern SPIPlanPtr xid_move_prepare(const char *sql, int nargs, Oid *argtypes);

#endif							/* XID_MOVE_H */
