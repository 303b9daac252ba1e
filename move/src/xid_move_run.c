/*-------------------------------------------------------------------------
 *
 * xid_move_run.c
 *	  Run a statement of a move as the owner of its tables, in a
 *	  security-restricted operation, as VACUUM, CREATE INDEX and REFRESH
 *	  MATERIALIZED VIEW run the code attached to a table.
 *
 * Every statement of a step that can run code attached to the tables (the
 * backfill's updates fire CHECK constraints, triggers, generated columns
 * and index expressions; DDL fires event triggers) goes through
 * xid_move_run().  Whoever calls the step (the owner, a member of the
 * owner's role, a superuser), that code runs with the owner's privileges
 * and no more, and cannot SET ROLE or RESET ROLE its way back to the
 * caller's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "xid_move.h"

PG_FUNCTION_INFO_V1(xid_move_run);

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
 * xid_move_run(rel regclass, statement text) returns bigint: run one
 * statement as the owner of rel, with search_path pg_catalog, pg_temp and
 * row_security off; returns the rows it processed.  The caller must have
 * the privileges of that owner: it can do nothing here it could not do
 * itself, and what it runs has no privilege of the caller beyond the
 * owner's.
 */
Datum
xid_move_run(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	Oid			owner = xid_move_rel_owner(relid);
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
	int			ret;
	uint64		processed;

	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid)),
				 errdetail("A step of a move runs its statements as the owner of the tables.")));

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner,
						   save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	save_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("row_security", "off",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	ret = SPI_execute(sql, false, 0);
	if (ret < 0)
		elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(ret));
	processed = SPI_processed;
	SPI_finish();

	/* an error above is undone by the (sub)transaction's abort */
	AtEOXact_GUC(false, save_nestlevel);
	SetUserIdAndSecContext(save_userid, save_sec_context);

	PG_RETURN_INT64((int64) processed);
}
