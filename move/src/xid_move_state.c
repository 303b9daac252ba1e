/*-------------------------------------------------------------------------
 *
 * xid_move_state.c
 *	  The only writer of a move's state (the extension's tables
 *	  xid_move_moves, xid_move_parts, xid_move_objects and
 *	  xid_move_decisions), which no role may write or lock.
 *
 * xid_move_state(tbl, op, args) runs one of the fixed statements below for
 * the move of tbl, as the owner of the state tables, through the runner
 * (xid_move_run.c).  The caller must have the privileges of the owner of
 * tbl; every statement writes only rows of tbl's move; after it, every
 * relation and object the rows of that move name must exist with that same
 * owner (a row of a relation dropped since may stay until it is removed),
 * or the statement is undone with an error.  No statement runs code of any
 * role: the state tables' own constraints and casts of text to OIDs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "xid_move.h"

PG_FUNCTION_INFO_V1(xid_move_state);

/*
 * The statements: $1 is the move's table (regclass), $2 the arguments
 * (text[]); @ is the schema of xid_move, quoted.
 */
typedef struct StateOp
{
	const char *name;
	int			nargs;
	const char *sql;
} StateOp;

static const StateOp state_ops[] = {
	/* start: the move (the plan has checked it) */
	{
		"insert_move", 8,
		"INSERT INTO @.xid_move_moves (tbl, constraint_name, key_column, new_column, old_column,"
		" key_type, time_column, fire_triggers, replica)"
		" VALUES ($1, $2[1], $2[2], $2[3], $2[4], $2[5]::pg_catalog.regtype, $2[6],"
		" $2[7]::pg_catalog.bool, $2[8]::pg_catalog.bool)"
	},
	/* start: its relations, as the catalog has them */
	{
		"insert_parts", 0,
		"INSERT INTO @.xid_move_parts (tbl, role, relation, leaf, constraint_name, column_name,"
		" new_column, old_column, not_null, tag)"
		" SELECT $1, x.role, x.relation, x.leaf, x.constraint_name, x.column_name, x.new_column,"
		" x.old_column, x.not_null, x.tag FROM @.xid_move_parts_of($1) x"
	},
	/* start: the blocks to backfill, once the triggers are in place */
	{
		"start_blocks", 0,
		"UPDATE @.xid_move_parts x"
		" SET blocks = pg_catalog.pg_relation_size(x.leaf) / pg_catalog.current_setting('block_size')::pg_catalog.int8,"
		" rows_estimated = GREATEST((SELECT c.reltuples FROM pg_catalog.pg_class c"
		"   WHERE c.oid OPERATOR(pg_catalog.=) x.leaf::pg_catalog.oid), 0)::pg_catalog.int8,"
		" pass_started = pg_catalog.clock_timestamp()"
		" WHERE x.tbl OPERATOR(pg_catalog.=) $1"
	},
	/* backfill: partitions made or attached since the start */
	{
		"add_parts", 0,
		"INSERT INTO @.xid_move_parts (tbl, role, relation, leaf, constraint_name, column_name,"
		" new_column, old_column, not_null, tag, blocks, rows_estimated, pass_started)"
		" SELECT $1, x.role, x.relation, x.leaf, x.constraint_name, x.column_name, x.new_column,"
		" x.old_column, x.not_null, x.tag,"
		" pg_catalog.pg_relation_size(x.leaf) / pg_catalog.current_setting('block_size')::pg_catalog.int8,"
		" GREATEST((SELECT c.reltuples FROM pg_catalog.pg_class c"
		"   WHERE c.oid OPERATOR(pg_catalog.=) x.leaf::pg_catalog.oid), 0)::pg_catalog.int8,"
		" pg_catalog.clock_timestamp()"
		" FROM @.xid_move_parts_of($1) x"
		" WHERE x.role OPERATOR(pg_catalog.=) 'child'"
		" AND EXISTS (SELECT FROM @.xid_move_parts y WHERE y.tbl OPERATOR(pg_catalog.=) $1"
		"   AND y.relation OPERATOR(pg_catalog.=) x.relation AND y.constraint_name OPERATOR(pg_catalog.=) x.constraint_name)"
		" AND NOT EXISTS (SELECT FROM @.xid_move_parts y WHERE y.tbl OPERATOR(pg_catalog.=) $1"
		"   AND y.leaf OPERATOR(pg_catalog.=) x.leaf AND y.constraint_name OPERATOR(pg_catalog.=) x.constraint_name)"
	},
	/* backfill: a relation gone over again (leaf, role, constraint) */
	{
		"sweep_part", 3,
		"UPDATE @.xid_move_parts x"
		" SET blocks = pg_catalog.pg_relation_size(x.leaf) / pg_catalog.current_setting('block_size')::pg_catalog.int8,"
		" blocks_done = 0, pass = x.pass OPERATOR(pg_catalog.+) 1, pass_started = pg_catalog.clock_timestamp(),"
		" updated = pg_catalog.clock_timestamp()"
		" WHERE x.tbl OPERATOR(pg_catalog.=) $1 AND x.leaf OPERATOR(pg_catalog.=) $2[1]::pg_catalog.oid::pg_catalog.regclass"
		" AND x.role OPERATOR(pg_catalog.=) $2[2] AND x.constraint_name OPERATOR(pg_catalog.=) $2[3]::pg_catalog.name"
	},

	/*
	 * backfill: a batch done (leaf, role, constraint, blocks done, rows,
	 * time)
	 */
	{
		"progress", 6,
		"UPDATE @.xid_move_parts x"
		" SET blocks_done = $2[4]::pg_catalog.int8, rows_done = x.rows_done OPERATOR(pg_catalog.+) $2[5]::pg_catalog.int8,"
		" updated = pg_catalog.clock_timestamp(), busy = x.busy OPERATOR(pg_catalog.+) $2[6]::pg_catalog.interval"
		" WHERE x.tbl OPERATOR(pg_catalog.=) $1 AND x.leaf OPERATOR(pg_catalog.=) $2[1]::pg_catalog.oid::pg_catalog.regclass"
		" AND x.role OPERATOR(pg_catalog.=) $2[2] AND x.constraint_name OPERATOR(pg_catalog.=) $2[3]::pg_catalog.name"
	},

	/*
	 * verify: a relation's counts (relation, constraint, role, rows, refs,
	 * bad, sum)
	 */
	{
		"verified", 7,
		"UPDATE @.xid_move_parts x"
		" SET verified_rows = $2[4]::pg_catalog.int8, verified_refs = $2[5]::pg_catalog.int8,"
		" mismatches = $2[6]::pg_catalog.int8, checksum = $2[7]::pg_catalog.int8, verified = pg_catalog.clock_timestamp()"
		" WHERE x.tbl OPERATOR(pg_catalog.=) $1 AND x.relation OPERATOR(pg_catalog.=) $2[1]::pg_catalog.oid::pg_catalog.regclass"
		" AND x.constraint_name OPERATOR(pg_catalog.=) $2[2]::pg_catalog.name AND x.role OPERATOR(pg_catalog.=) $2[3]"
	},
	/* a partition dropped or detached since: its rows go (leaf) */
	{
		"remove_part", 1,
		"DELETE FROM @.xid_move_parts x WHERE x.tbl OPERATOR(pg_catalog.=) $1"
		" AND x.leaf::pg_catalog.oid OPERATOR(pg_catalog.=) $2[1]::pg_catalog.oid"
	},
	{
		"set_step", 1,
		"UPDATE @.xid_move_moves m SET step = $2[1], updated = pg_catalog.clock_timestamp()"
		" WHERE m.tbl OPERATOR(pg_catalog.=) $1"
	},
	/* the end of a move: every row of it goes */
	{
		"delete", 0,
		"DELETE FROM @.xid_move_moves m WHERE m.tbl OPERATOR(pg_catalog.=) $1"
	},

	/*
	 * an object the move made (classid, objid, kind, relation, mode, src,
	 * target, original): it must be on relation
	 */
	{
		"object", 8,
		"INSERT INTO @.xid_move_objects (tbl, classid, objid, kind, relation, mode, src, target, original)"
		" SELECT $1, $2[1]::pg_catalog.oid::pg_catalog.regclass, $2[2]::pg_catalog.oid, $2[3], $2[4]::pg_catalog.oid::pg_catalog.regclass, $2[5],"
		" $2[6]::pg_catalog.int2, $2[7]::pg_catalog.int2, $2[8]::pg_catalog.oid"
		" WHERE CASE $2[1]::pg_catalog.oid::pg_catalog.regclass::pg_catalog.oid"
		"  WHEN 'pg_catalog.pg_trigger'::pg_catalog.regclass::pg_catalog.oid THEN EXISTS (SELECT FROM pg_catalog.pg_trigger t"
		"   WHERE t.oid OPERATOR(pg_catalog.=) $2[2]::pg_catalog.oid AND t.tgrelid OPERATOR(pg_catalog.=) $2[4]::pg_catalog.oid::pg_catalog.regclass::pg_catalog.oid)"
		"  WHEN 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid THEN EXISTS (SELECT FROM pg_catalog.pg_index i"
		"   WHERE i.indexrelid OPERATOR(pg_catalog.=) $2[2]::pg_catalog.oid AND i.indrelid OPERATOR(pg_catalog.=) $2[4]::pg_catalog.oid::pg_catalog.regclass::pg_catalog.oid)"
		"  ELSE EXISTS (SELECT FROM pg_catalog.pg_constraint c"
		"   WHERE c.oid OPERATOR(pg_catalog.=) $2[2]::pg_catalog.oid AND c.conrelid OPERATOR(pg_catalog.=) $2[4]::pg_catalog.oid::pg_catalog.regclass::pg_catalog.oid) END"
	},
	/* an object the move made is gone (classid, objid) */
	{
		"forget_object", 2,
		"DELETE FROM @.xid_move_objects o WHERE o.tbl OPERATOR(pg_catalog.=) $1"
		" AND o.classid OPERATOR(pg_catalog.=) $2[1]::pg_catalog.oid::pg_catalog.regclass AND o.objid OPERATOR(pg_catalog.=) $2[2]::pg_catalog.oid"
		" RETURNING o.relation::pg_catalog.oid"
	},

	/*
	 * a decision of the plan (ord, object_type, object, action, detail,
	 * classid, objid)
	 */
	{
		"decision", 7,
		"INSERT INTO @.xid_move_decisions (tbl, ord, object_type, object, action, detail, classid, objid)"
		" VALUES ($1, $2[1]::pg_catalog.int4, $2[2], $2[3], $2[4], $2[5], $2[6]::pg_catalog.oid::pg_catalog.regclass, $2[7]::pg_catalog.oid)"
	},
};

/*
 * After a statement: every relation the rows of the move name that still
 * exists has the owner of its table, and every object it names is on one
 * of them.  The count of those that do not.
 */
static const char *state_check =
"SELECT pg_catalog.count(*) FROM ("
" SELECT p.relation::pg_catalog.oid AS r FROM @.xid_move_parts p WHERE p.tbl OPERATOR(pg_catalog.=) $1"
" UNION ALL SELECT p.leaf::pg_catalog.oid FROM @.xid_move_parts p WHERE p.tbl OPERATOR(pg_catalog.=) $1"
" UNION ALL SELECT o.relation::pg_catalog.oid FROM @.xid_move_objects o WHERE o.tbl OPERATOR(pg_catalog.=) $1) x"
" JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) x.r"
" WHERE c.relowner OPERATOR(pg_catalog.<>) $2";

/* sql with each @ replaced by the quoted schema */
static char *
state_sql(const char *sql, const char *schema)
{
	StringInfoData buf;
	const char *p;

	initStringInfo(&buf);
	for (p = sql; *p; p++)
	{
		if (*p == '@')
			appendStringInfoString(&buf, schema);
		else
			appendStringInfoChar(&buf, *p);
	}
	return buf.data;
}

/*
 * xid_move_state(tbl regclass, op text, args text[]) returns bigint: run
 * one of the statements above for the move of tbl; returns the rows it
 * wrote.
 */
Datum
xid_move_state(PG_FUNCTION_ARGS)
{
	Oid			tbl;
	char	   *opname;
	ArrayType  *args;
	const StateOp *op = NULL;
	Oid			owner;
	Oid			state_owner;
	Oid			nsp;
	const char *schema;
	Oid			types[2];
	Datum		values[2];
	uint64		processed;
	int64		bad;
	bool		isnull;
	int			i;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the table, the operation and the arguments of a write of the state must not be null")));
	tbl = PG_GETARG_OID(0);
	opname = text_to_cstring(PG_GETARG_TEXT_PP(1));
	args = PG_GETARG_ARRAYTYPE_P(2);

	for (i = 0; i < (int) lengthof(state_ops); i++)
		if (strcmp(state_ops[i].name, opname) == 0)
			op = &state_ops[i];
	if (op == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a write of the state of a move", opname)));
	if (ARR_NDIM(args) > 1 || ARR_ELEMTYPE(args) != TEXTOID ||
		(ARR_NDIM(args) == 1 ? ARR_DIMS(args)[0] : 0) != op->nargs ||
		(ARR_NDIM(args) == 1 && ARR_LBOUND(args)[0] != 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_plural("the write \"%s\" of the state of a move takes %d argument",
							   "the write \"%s\" of the state of a move takes %d arguments",
							   op->nargs, opname, op->nargs)));

	/*
	 * The move of a table dropped since may be forgotten by anyone: no row of
	 * it can name a relation that still exists with an owner to check.
	 */
	if (strcmp(op->name, "delete") == 0 && !SearchSysCacheExists1(RELOID, ObjectIdGetDatum(tbl)))
		owner = InvalidOid;
	else
		owner = xid_move_rel_owner(tbl);
	if (OidIsValid(owner) && !has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(tbl)), get_rel_name(tbl))),
				 errdetail("Only the owner of a table writes the state of its move.")));

	nsp = xid_move_extension_schema("xid_move");
	schema = quote_identifier(get_namespace_name(nsp));
	state_owner = xid_move_rel_owner(get_relname_relid("xid_move_moves", nsp));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	types[0] = REGCLASSOID;
	types[1] = TEXTARRAYOID;
	values[0] = ObjectIdGetDatum(tbl);
	values[1] = PointerGetDatum(args);
	(void) xid_move_run_sql(state_owner, state_sql(op->sql, schema), 2, types,
							values, NULL, false, 0);
	processed = SPI_processed;

	/*
	 * A trigger forgotten stops working at once, in every session, even one
	 * that keeps what it resolved for it (xid_move_trigger.c): its relation's
	 * cache entry goes at commit
	 */
	if (strcmp(op->name, "forget_object") == 0)
	{
		uint64		k;

		for (k = 0; k < processed; k++)
			CacheInvalidateRelcacheByRelid(DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[k],
																		  SPI_tuptable->tupdesc, 1, &isnull)));
	}
	if (strcmp(op->name, "object") == 0 && processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the move of table %s cannot record an object that is not on the relation named",
						get_rel_name(tbl))));

	types[1] = OIDOID;
	values[1] = ObjectIdGetDatum(owner);
	/* not read-only: it must see what the statement wrote */
	(void) xid_move_run_sql(state_owner, state_sql(state_check, schema), 2, types,
							values, NULL, false, 0);
	bad = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	if (OidIsValid(owner) && bad > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("the state of the move of table %s would name a relation of another owner", get_rel_name(tbl)),
				 errdetail("Every table of a move has the owner of the table whose key moves.")));

	PG_RETURN_INT64((int64) processed);
}
