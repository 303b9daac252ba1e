/*-------------------------------------------------------------------------
 *
 * xid_move_run.c
 *	  The one runner of xid_move: every statement a step or a trigger of a
 *	  move runs goes through here, as the role it runs for (the owner of
 *	  the tables, or the owner of the state), in a security-restricted
 *	  operation, with search_path pg_catalog, pg_temp and row_security off,
 *	  as VACUUM, CREATE INDEX and REFRESH MATERIALIZED VIEW run the code
 *	  attached to a table.
 *
 * The statements of a step that can run code attached to the tables (the
 * backfill's updates fire CHECK constraints, triggers, generated columns
 * and index expressions; DDL fires event triggers) reach it through the SQL
 * function xid_move_run(); the writers' triggers (xid_move_trigger.c) and
 * the writes of the state (xid_move_state.c) call it directly.  Whoever
 * calls a step (the owner, a member of the owner's role, a superuser),
 * that code runs with the owner's privileges and no more, and cannot SET
 * ROLE or RESET ROLE its way back to the caller's.  No other file of the
 * library calls SPI to execute anything (move/check_runner.sh).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "xid_move.h"

PG_FUNCTION_INFO_V1(xid_move_run);
PG_FUNCTION_INFO_V1(xid_move_query);

/* The owner of a relation, or an error if there is no such relation */
Oid
xid_move_rel_owner(Oid relid)
{
	HeapTuple	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tp))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	owner = ((Form_pg_class) GETSTRUCT(tp))->relowner;
	ReleaseSysCache(tp);
	return owner;
}

/*
 * The schema of an installed extension, or an error: read from
 * pg_extension by name, as core's get_extension_oid() reads it (its
 * get_extension_schema() is exported only from 16 on)
 */
Oid
xid_move_extension_schema(const char *extname)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			nsp = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum(extname));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		nsp = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (!OidIsValid(nsp))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("extension \"%s\" is not installed", extname)));
	return nsp;
}

/* What a statement runs with, saved to be put back */
typedef struct RunContext
{
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
} RunContext;

static void
run_enter(RunContext *ctx, Oid role)
{
	GetUserIdAndSecContext(&ctx->save_userid, &ctx->save_sec_context);
	SetUserIdAndSecContext(role,
						   ctx->save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION | SECURITY_NOFORCE_RLS);
	ctx->save_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("row_security", "off",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
}

/* an error in between is undone by the (sub)transaction's abort */
static void
run_leave(RunContext *ctx)
{
	AtEOXact_GUC(false, ctx->save_nestlevel);
	SetUserIdAndSecContext(ctx->save_userid, ctx->save_sec_context);
}

int
xid_move_run_plan(Oid role, SPIPlanPtr plan, Datum *values, const char *nulls,
				  bool read_only, long tcount)
{
	RunContext	ctx;
	int			ret;

	run_enter(&ctx, role);
	ret = SPI_execute_plan(plan, values, nulls, read_only, tcount);
	run_leave(&ctx);
	if (ret < 0)
		elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(ret));
	return ret;
}

/*
 * The same, with session_replication_role = replica for the statement: an
 * update the move makes of its own (the deferred fill of a reference) that
 * fires none of the application's triggers enabled for origin sessions,
 * nor the foreign keys' (the move checks what it writes itself).  The
 * setting needs no privilege of the caller: it is the move's, for this
 * fixed statement only, and undone with the rest.
 */
int
xid_move_run_plan_replica(Oid role, SPIPlanPtr plan, Datum *values,
						  const char *nulls, bool read_only, long tcount)
{
	RunContext	ctx;
	int			ret;

	run_enter(&ctx, role);
	(void) set_config_option("session_replication_role", "replica",
							 PGC_SUSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	ret = SPI_execute_plan(plan, values, nulls, read_only, tcount);
	run_leave(&ctx);
	if (ret < 0)
		elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(ret));
	return ret;
}

int
xid_move_run_sql(Oid role, const char *sql, int nargs, Oid *argtypes,
				 Datum *values, const char *nulls, bool read_only, long tcount)
{
	RunContext	ctx;
	int			ret;

	run_enter(&ctx, role);
	ret = SPI_execute_with_args(sql, nargs, argtypes, values, nulls,
								read_only, tcount);
	run_leave(&ctx);
	if (ret < 0)
		elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(ret));
	return ret;
}

/*
 * Prepare a statement and keep it for the session.  Parsing resolves
 * names, so it too happens under the runner's search_path.
 */
SPIPlanPtr
xid_move_prepare(const char *sql, int nargs, Oid *argtypes)
{
	SPIPlanPtr	plan;
	int			save_nestlevel = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	plan = SPI_prepare(sql, nargs, argtypes);
	AtEOXact_GUC(false, save_nestlevel);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql,
			 SPI_result_code_string(SPI_result));
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");
	return plan;
}

/*
 * xid_move_run(rel regclass, statement text) returns bigint: run one
 * statement of a step as the owner of rel; returns the rows it processed.
 * The caller must have the privileges of that owner: it can do nothing
 * here it could not do itself, and what it runs has no privilege of the
 * caller beyond the owner's.
 */
Datum
xid_move_run(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	Oid			owner = xid_move_rel_owner(relid);
	uint64		processed;

	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid))),
				 errdetail("A step of a move runs its statements as the owner of the tables.")));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	(void) xid_move_run_sql(owner, sql, 0, NULL, NULL, NULL, false, 0);
	processed = SPI_processed;
	SPI_finish();

	PG_RETURN_INT64((int64) processed);
}

/*
 * xid_move_query(rel regclass, query text) returns jsonb: the first row of
 * a query, run as the owner of rel as xid_move_run() runs a statement, as
 * a JSON object (NULL when there is no row): what a step reads from the
 * tables goes through the runner too.
 */
Datum
xid_move_query(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	Oid			owner = xid_move_rel_owner(relid);
	char	   *sql;
	Datum		result = (Datum) 0;
	bool		isnull = true;

	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid))),
				 errdetail("A step of a move reads the tables as their owner.")));

	sql = psprintf("SELECT pg_catalog.to_jsonb(q) FROM (%s) AS q", query);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	(void) xid_move_run_sql(owner, sql, 0, NULL, NULL, NULL, true, 1);
	if (SPI_processed > 0)
	{
		result = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		if (!isnull)
			result = SPI_datumTransfer(result, false, -1);
	}
	SPI_finish();
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}
