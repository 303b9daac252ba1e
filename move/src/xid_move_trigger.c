/*-------------------------------------------------------------------------
 *
 * xid_move_trigger.c
 *	  The triggers that keep a move's new columns in step while the
 *	  application writes, built as core's RI triggers are (ri_triggers.c):
 *	  C, prepared statements kept per trigger, every lookup through the
 *	  referenced table's key index and run as that table's owner.
 *
 * One function, xid_move_trigger(), does three jobs, told apart by the
 * trigger's first argument:
 *
 *	key  BEFORE UPDATE on the table whose key moves: a row whose key
 *		 changes gets a new id (xid_new()); a row that has no id yet gets
 *		 the id of its old version (its time and key before the update), the
 *		 one a referencing row written since may already hold.  A time
 *		 column may therefore change during the move.
 *	ref  BEFORE INSERT or UPDATE on a referencing table: the new (before
 *		 the swap) or old (after it, for an abort) value of the reference is
 *		 that of the row it references, looked up as the owner of the
 *		 referenced table, so a writer needs no privilege it did not need
 *		 before.  A row not visible yet leaves it empty for "fix".
 *	fix  AFTER INSERT OR UPDATE, deferred to commit: a reference still
 *		 empty is looked up again and filled, or the commit fails (23503):
 *		 never a reference left empty silently.
 *	back BEFORE INSERT on a table whose uuid key was swapped to xid: a row
 *		 written without an old key gets the id's own UUIDv7 there, so that
 *		 an abort finds every row's old key.
 *
 * Nothing here can be used to read a table its trigger's owner could not
 * read: a ref or fix trigger looks up only the table that the state of a
 * move under way names for its relation and column (which only the owner
 * of both may write), works only on a table whose owner has the privileges
 * of that table's owner, and errors otherwise.  No argument is ever
 * written into SQL but as a quoted identifier.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "xid_move.h"

PG_FUNCTION_INFO_V1(xid_move_trigger);

/* The statements one trigger runs, prepared on its first call */
typedef struct MovePlans
{
	Oid			tgoid;			/* hash key: the trigger */
	SPIPlanPtr	lookup;			/* key: the old version's id; ref, fix: the
								 * referenced row's value */
	SPIPlanPtr	newid;			/* key: xid_new() */
	SPIPlanPtr	live;			/* fix: is this row version still the live one */
	SPIPlanPtr	fill;			/* fix: fill the empty reference */
	Oid			parent;			/* ref, fix: the table whose key moves */
} MovePlans;

static HTAB *move_plans = NULL;

/* The arguments of a ref or fix trigger */
typedef struct RefArgs
{
	const char *xs;				/* xid's schema */
	const char *ms;				/* xid_move's schema */
	Oid			parent;			/* the table whose key moves, from the state
								 * of the move */
	const char *key;			/* its key column */
	bool		after_swap;		/* "old": the old value, after the swap */
	const char *val;			/* its column that holds the value */
	const char *time;			/* its time column, "" for none */
	bool		uuid_key;		/* its key is a uuid */
	const char *src;			/* the reference */
	const char *target;			/* the column that follows it */
} RefArgs;

static MovePlans *
move_plans_for(Oid tgoid)
{
	bool		found;
	MovePlans  *p;

	if (move_plans == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(MovePlans);
		move_plans = hash_create("xid_move trigger plans", 64, &ctl,
								 HASH_ELEM | HASH_BLOBS);
	}
	p = hash_search(move_plans, &tgoid, HASH_ENTER, &found);
	if (!found)
	{
		p->lookup = NULL;
		p->newid = NULL;
		p->live = NULL;
		p->fill = NULL;
		p->parent = InvalidOid;
	}
	return p;
}

static SPIPlanPtr
move_prepare(const char *sql, int nargs, Oid *argtypes)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, argtypes);

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql,
			 SPI_result_code_string(SPI_result));
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");
	return plan;
}

/*
 * Columns of the trigger's tuples are read with SPI_getbinval(), a function
 * of the server, not with heap_getattr(): that inline function calls
 * heap_datum_check() from 15.20 on, so a library built with a newer minor
 * release's headers would not load into an older server of the same major
 * version.
 */

/* The attribute number of a column of the trigger's table, or an error */
static int
move_attnum(Relation rel, const char *name)
{
	int			attnum = SPI_fnumber(RelationGetDescr(rel), name);

	if (attnum <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						name, RelationGetRelationName(rel))));
	return attnum;
}

/* The id expression of a row "r" (an alias, or "$" for parameters $1, $2) */
static void
move_id_expr(StringInfo buf, const char *xs, const char *r, const char *key,
			 const char *time, bool uuid_key)
{
	bool		params = strcmp(r, "$") == 0;

	if (time[0] == '\0')
	{
		if (params)
			appendStringInfo(buf, "%s.xid_from_uuidv7($2)", quote_identifier(xs));
		else
			appendStringInfo(buf, "%s.xid_from_uuidv7(%s.%s)", quote_identifier(xs),
							 r, quote_identifier(key));
	}
	else if (params)
		appendStringInfo(buf, "%s.xid_from_key($1, $2%s)", quote_identifier(xs),
						 uuid_key ? "" : "::pg_catalog.int8");
	else
		appendStringInfo(buf, "%s.xid_from_key(%s.%s, %s.%s%s)", quote_identifier(xs),
						 r, quote_identifier(time), r, quote_identifier(key),
						 uuid_key ? "" : "::pg_catalog.int8");
}

/* Run a prepared statement as role, as RI does its lookups */
static int
move_exec_as(Oid role, SPIPlanPtr plan, Datum *values, char *nulls,
			 bool read_only)
{
	Oid			save_userid;
	int			save_sec_context;
	int			ret;

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(role, save_sec_context |
						   SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
	ret = SPI_execute_plan(plan, values, nulls, read_only, 1);
	SetUserIdAndSecContext(save_userid, save_sec_context);
	if (ret < 0)
		elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(ret));
	return ret;
}

static void
move_bad_trigger(Trigger *tg, Relation rel, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
			 errmsg("trigger \"%s\" on table \"%s\" is not one xid_move made",
					tg->tgname, RelationGetRelationName(rel)),
			 errdetail("%s", why)));
}

/*
 * key: a row whose key changes gets a new id; one without an id gets that
 * of its old version
 */
static HeapTuple
move_key(TriggerData *td)
{
	Trigger    *tg = td->tg_trigger;
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	oldtup = td->tg_trigtuple;
	HeapTuple	newtup = td->tg_newtuple;
	const char *xs,
			   *key,
			   *newcol,
			   *time;
	bool		uuid_key;
	int			keyno,
				newno,
				timeno = 0;
	Datum		oldkey,
				newkey,
				v;
	bool		oldnull,
				newnull,
				isnull;
	Form_pg_attribute keyatt;
	MovePlans  *plans;
	Datum		args[2];
	char		nulls[2] = {' ', ' '};
	bool		changed;

	if (tg->tgnargs != 6 || !TRIGGER_FIRED_BEFORE(td->tg_event) ||
		!TRIGGER_FIRED_BY_UPDATE(td->tg_event))
		move_bad_trigger(tg, rel, "A key trigger of a move is BEFORE UPDATE, with six arguments.");
	xs = tg->tgargs[1];
	key = tg->tgargs[2];
	newcol = tg->tgargs[3];
	time = tg->tgargs[4];
	uuid_key = strcmp(tg->tgargs[5], "uuid") == 0;
	keyno = move_attnum(rel, key);
	newno = move_attnum(rel, newcol);
	if (time[0] != '\0')
		timeno = move_attnum(rel, time);
	keyatt = TupleDescAttr(desc, keyno - 1);

	oldkey = SPI_getbinval(oldtup, desc, keyno, &oldnull);
	newkey = SPI_getbinval(newtup, desc, keyno, &newnull);
	changed = oldnull != newnull ||
		(!oldnull && !datumIsEqual(oldkey, newkey, keyatt->attbyval, keyatt->attlen));
	(void) SPI_getbinval(newtup, desc, newno, &isnull);
	if (!changed && !isnull)
		return newtup;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plans = move_plans_for(tg->tgoid);
	if (changed)
	{
		if (plans->newid == NULL)
		{
			StringInfoData sql;

			initStringInfo(&sql);
			appendStringInfo(&sql, "SELECT %s.xid_new()", quote_identifier(xs));
			plans->newid = move_prepare(sql.data, 0, NULL);
		}
		(void) move_exec_as(rel->rd_rel->relowner, plans->newid, NULL, NULL, false);
	}
	else
	{
		if (plans->lookup == NULL)
		{
			StringInfoData sql;
			Oid			types[2];

			initStringInfo(&sql);
			appendStringInfoString(&sql, "SELECT ");
			move_id_expr(&sql, xs, "$", key, time, uuid_key);
			/* the time ($1) is unused for a UUIDv7 key's own time */
			types[0] = TIMESTAMPTZOID;
			types[1] = keyatt->atttypid;
			plans->lookup = move_prepare(sql.data, 2, types);
		}
		/* the old version's time and key: what a reference already got */
		args[0] = timeno ? SPI_getbinval(oldtup, desc, timeno, &isnull) : (Datum) 0;
		if (!timeno || isnull)
			nulls[0] = 'n';
		args[1] = oldkey;
		nulls[1] = oldnull ? 'n' : ' ';
		(void) move_exec_as(rel->rd_rel->relowner, plans->lookup, args, nulls, false);
	}
	if (SPI_processed != 1)
		elog(ERROR, "the id of a row could not be computed");
	v = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	v = SPI_datumTransfer(v, true, sizeof(int64));
	SPI_finish();

	return heap_modify_tuple_by_cols(newtup, desc, 1, &newno, &v, &isnull);
}

static void
move_ref_args(TriggerData *td, RefArgs *a)
{
	Trigger    *tg = td->tg_trigger;

	if (tg->tgnargs != 10 || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		TRIGGER_FIRED_BY_DELETE(td->tg_event) ||
		TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		move_bad_trigger(tg, td->tg_relation,
						 "A reference trigger of a move is a row trigger on INSERT or UPDATE, with ten arguments.");
	a->xs = tg->tgargs[1];
	a->ms = tg->tgargs[2];
	a->parent = InvalidOid;
	a->key = tg->tgargs[3];
	a->after_swap = strcmp(tg->tgargs[4], "old") == 0;
	a->val = tg->tgargs[5];
	a->time = tg->tgargs[6];
	a->uuid_key = strcmp(tg->tgargs[7], "uuid") == 0;
	a->src = tg->tgargs[8];
	a->target = tg->tgargs[9];
}

/*
 * The owner of the referenced table, once the trigger's table is known to
 * be one whose owner may read it: the owner of the trigger's table has the
 * privileges of the referenced table's owner
 */
static Oid
move_ref_owner(TriggerData *td, RefArgs *a, MovePlans *plans)
{
	Oid			powner;

	/*
	 * The table whose key moves is the one the state of a move under way
	 * names for this relation (or the partitioned table it is a partition of,
	 * at any level: a partition made during the move has the trigger too) and
	 * column: no OID in the trigger's arguments, which a dump and restore
	 * would not carry over (the state's regclass columns are restored by
	 * name).  Looked up once per trigger and session; a trigger that no move
	 * under way made errors.
	 */
	if (!OidIsValid(plans->parent))
	{
		StringInfoData sql;
		Oid			types[2] = {REGCLASSOID, NAMEOID};
		Datum		args[2];
		bool		isnull;

		initStringInfo(&sql);
		appendStringInfo(&sql,
						 "SELECT p.tbl::pg_catalog.oid FROM %s.xid_move_parts p"
						 " WHERE (p.leaf OPERATOR(pg_catalog.=) $1"
						 " OR p.relation::pg_catalog.oid IN (SELECT a::pg_catalog.oid FROM pg_catalog.pg_partition_ancestors($1) a))"
						 " AND p.column_name OPERATOR(pg_catalog.=) $2 AND p.role OPERATOR(pg_catalog.=) 'child'"
						 " LIMIT 1",
						 quote_identifier(a->ms));
		args[0] = ObjectIdGetDatum(RelationGetRelid(td->tg_relation));
		args[1] = DirectFunctionCall1(namein, CStringGetDatum(a->src));
		if (SPI_execute_with_args(sql.data, 2, types, args, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "SPI_execute_with_args failed");
		if (SPI_processed == 1)
			plans->parent = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
														   SPI_tuptable->tupdesc, 1, &isnull));
		if (!OidIsValid(plans->parent))
			move_bad_trigger(td->tg_trigger, td->tg_relation,
							 "No move under way changes this column of this table.");
	}
	a->parent = plans->parent;
	powner = xid_move_rel_owner(a->parent);

	if (!has_privs_of_role(td->tg_relation->rd_rel->relowner, powner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("trigger \"%s\" on table \"%s\" may not look up rows of table \"%s\"",
						td->tg_trigger->tgname, RelationGetRelationName(td->tg_relation),
						get_rel_name(a->parent)),
				 errdetail("A trigger of a move runs only on a table whose owner has the privileges of the owner of the table it looks up.")));
	return powner;
}

/*
 * The value of the row that src references, as powner; false when no row
 * is visible (*isnull then true)
 */
static bool
move_lookup(TriggerData *td, RefArgs *a, MovePlans *plans, Oid powner,
			Datum srcval, Datum *v, bool *isnull)
{
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	int			srcno = move_attnum(rel, a->src);
	int			targetno = move_attnum(rel, a->target);
	Datum		args[1];
	Form_pg_attribute tatt = TupleDescAttr(desc, targetno - 1);

	if (plans->lookup == NULL)
	{
		StringInfoData sql;
		Oid			types[1];
		char	   *nsp = get_namespace_name(get_rel_namespace(a->parent));
		char	   *relname = get_rel_name(a->parent);

		if (nsp == NULL || relname == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", a->parent)));
		initStringInfo(&sql);
		appendStringInfoString(&sql, "SELECT ");
		if (a->after_swap)
			appendStringInfo(&sql, "p.%s::%s", quote_identifier(a->val),
							 format_type_with_typemod(tatt->atttypid, tatt->atttypmod));
		else
		{
			appendStringInfo(&sql, "COALESCE(p.%s, ", quote_identifier(a->val));
			move_id_expr(&sql, a->xs, "p", a->key, a->time, a->uuid_key);
			appendStringInfoChar(&sql, ')');
		}
		appendStringInfo(&sql, " FROM ONLY %s AS p WHERE p.%s OPERATOR(%s.=) $1",
						 quote_qualified_identifier(nsp, relname), quote_identifier(a->key),
						 a->after_swap ? quote_identifier(a->xs) : "pg_catalog");
		types[0] = getBaseType(TupleDescAttr(desc, srcno - 1)->atttypid);
		plans->lookup = move_prepare(sql.data, 1, types);
	}
	args[0] = srcval;
	(void) move_exec_as(powner, plans->lookup, args, NULL, false);
	if (SPI_processed == 0)
	{
		*isnull = true;
		return false;
	}
	*v = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);
	*v = SPI_datumTransfer(*v, tatt->attbyval, tatt->attlen);
	return true;
}

/* ref: the reference's new (or old) value, from the row it references */
static HeapTuple
move_ref(TriggerData *td)
{
	RefArgs		a;
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	tup;
	int			srcno,
				targetno;
	Datum		srcval,
				v = (Datum) 0;
	bool		srcnull,
				isnull = true;
	Oid			powner;

	move_ref_args(td, &a);
	if (!TRIGGER_FIRED_BEFORE(td->tg_event))
		move_bad_trigger(td->tg_trigger, rel, "A reference trigger of a move fires BEFORE.");
	tup = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple : td->tg_trigtuple;
	srcno = move_attnum(rel, a.src);
	targetno = move_attnum(rel, a.target);
	srcval = SPI_getbinval(tup, desc, srcno, &srcnull);
	if (!srcnull)
	{
		MovePlans  *plans;

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		plans = move_plans_for(td->tg_trigger->tgoid);
		powner = move_ref_owner(td, &a, plans);
		(void) move_lookup(td, &a, plans, powner, srcval, &v, &isnull);
		SPI_finish();
	}
	return heap_modify_tuple_by_cols(tup, desc, 1, &targetno, &v, &isnull);
}

/* fix: at commit, a reference still empty is filled, or the commit fails */
static void
move_fix(TriggerData *td)
{
	RefArgs		a;
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	tup;
	int			srcno,
				targetno;
	Datum		srcval,
				v;
	bool		srcnull,
				isnull;
	Oid			powner;
	MovePlans  *plans;
	Datum		args[2];
	char		nulls[2] = {' ', ' '};
	ItemPointerData ctid;

	move_ref_args(td, &a);
	if (!TRIGGER_FIRED_AFTER(td->tg_event))
		move_bad_trigger(td->tg_trigger, rel, "A check trigger of a move fires AFTER.");
	tup = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple : td->tg_trigtuple;
	srcno = move_attnum(rel, a.src);
	targetno = move_attnum(rel, a.target);
	srcval = SPI_getbinval(tup, desc, srcno, &srcnull);
	(void) SPI_getbinval(tup, desc, targetno, &isnull);
	if (srcnull || !isnull)
		return;
	ctid = tup->t_self;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plans = move_plans_for(td->tg_trigger->tgoid);
	powner = move_ref_owner(td, &a, plans);
	if (plans->live == NULL)
	{
		StringInfoData sql;
		Oid			types[2];
		Form_pg_attribute tatt = TupleDescAttr(desc, targetno - 1);
		char	   *qrel = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
													  RelationGetRelationName(rel));

		initStringInfo(&sql);
		appendStringInfo(&sql, "SELECT FROM ONLY %s WHERE ctid OPERATOR(pg_catalog.=) $1", qrel);
		types[0] = TIDOID;
		plans->live = move_prepare(sql.data, 1, types);
		resetStringInfo(&sql);
		appendStringInfo(&sql, "UPDATE ONLY %s SET %s = $1 WHERE ctid OPERATOR(pg_catalog.=) $2 AND %s IS NULL",
						 qrel, quote_identifier(a.target), quote_identifier(a.target));
		types[0] = tatt->atttypid;
		types[1] = TIDOID;
		plans->fill = move_prepare(sql.data, 2, types);
	}
	/* a later version of the row has an event of its own */
	args[0] = PointerGetDatum(&ctid);
	(void) move_exec_as(rel->rd_rel->relowner, plans->live, args, NULL, false);
	if (SPI_processed == 0)
	{
		SPI_finish();
		return;
	}
	if (!move_lookup(td, &a, plans, powner, srcval, &v, &isnull))
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("a row of table \"%s\" references a row of table \"%s\" that cannot be found",
						RelationGetRelationName(rel), get_rel_name(a.parent)),
				 errdetail("The move of the table to xid could not give the row its new reference.")));
	if (!isnull)
	{
		args[0] = v;
		args[1] = PointerGetDatum(&ctid);
		(void) move_exec_as(rel->rd_rel->relowner, plans->fill, args, nulls, false);
	}
	SPI_finish();
}

/* back: an old uuid key from the id, for a row written without one */
static HeapTuple
move_back(TriggerData *td)
{
	Trigger    *tg = td->tg_trigger;
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	tup = td->tg_trigtuple;
	int			keyno,
				oldno;
	Datum		v;
	bool		isnull;
	Oid			types[1];
	MovePlans  *plans;

	if (tg->tgnargs != 4 || !TRIGGER_FIRED_BEFORE(td->tg_event) ||
		!TRIGGER_FIRED_BY_INSERT(td->tg_event))
		move_bad_trigger(tg, rel, "A back trigger of a move is BEFORE INSERT, with four arguments.");
	keyno = move_attnum(rel, tg->tgargs[2]);
	oldno = move_attnum(rel, tg->tgargs[3]);
	(void) SPI_getbinval(tup, desc, oldno, &isnull);
	if (!isnull)
		return tup;
	v = SPI_getbinval(tup, desc, keyno, &isnull);
	if (isnull)
		return tup;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plans = move_plans_for(tg->tgoid);
	if (plans->lookup == NULL)
	{
		types[0] = TupleDescAttr(desc, keyno - 1)->atttypid;
		plans->lookup = move_prepare("SELECT $1::pg_catalog.uuid", 1, types);
	}
	(void) move_exec_as(rel->rd_rel->relowner, plans->lookup, &v, NULL, false);
	if (SPI_processed != 1)
		elog(ERROR, "the old key of a row could not be computed");
	v = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	v = SPI_datumTransfer(v, false, 16);
	SPI_finish();
	return heap_modify_tuple_by_cols(tup, desc, 1, &oldno, &v, &isnull);
}

/*
 * xid_move_trigger(): the trigger function of every trigger a move puts on
 * its tables (see the top of this file)
 */
Datum
xid_move_trigger(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	const char *kind;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("function xid_move_trigger() was not called by the trigger manager")));
	if (td->tg_trigger->tgnargs < 1 || !TRIGGER_FIRED_FOR_ROW(td->tg_event))
		move_bad_trigger(td->tg_trigger, td->tg_relation,
						 "A trigger of a move is a row trigger with arguments.");
	kind = td->tg_trigger->tgargs[0];
	if (strcmp(kind, "key") == 0)
		return PointerGetDatum(move_key(td));
	if (strcmp(kind, "ref") == 0)
		return PointerGetDatum(move_ref(td));
	if (strcmp(kind, "back") == 0)
		return PointerGetDatum(move_back(td));
	if (strcmp(kind, "fix") == 0)
	{
		move_fix(td);
		return PointerGetDatum(NULL);
	}
	move_bad_trigger(td->tg_trigger, td->tg_relation,
					 "Its first argument is not key, ref, fix or back.");
	return PointerGetDatum(NULL);
}
