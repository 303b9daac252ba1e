/*-------------------------------------------------------------------------
 *
 * xid_move_trigger.c
 *	  The triggers that keep a move's new columns in step while the
 *	  application writes, built as core's RI triggers are (ri_triggers.c):
 *	  C, prepared statements kept per trigger, every lookup through the
 *	  referenced table's key index and run as that table's owner.
 *
 * One function, xid_move_trigger(), does four jobs, told apart by the row
 * the move recorded for the trigger in its state (xid_move_objects):
 *
 *	key  BEFORE UPDATE on the table whose key moves: a row whose key
 *		 changes gets a new id (xid_new()); a row that has no id yet gets
 *		 the id of its old version (its time and key before the update), the
 *		 one a referencing row written since may already hold.  A time
 *		 column may therefore change during the move.  BEFORE INSERT OR
 *		 DELETE on it: a row deleted and inserted again with the same key
 *		 in one transaction keeps the id its referencing rows hold
 *		 (xid_move_replace.c).
 *	ref  BEFORE INSERT or UPDATE on a referencing table: the new (before
 *		 the swap) or old (after it, for an abort) value of the reference is
 *		 that of the row it references, looked up as the owner of the
 *		 referenced table, so a writer needs no privilege it did not need
 *		 before.  A row not visible yet leaves it empty for "fix".
 *	fix  AFTER INSERT OR UPDATE, deferred to commit: a reference still
 *		 empty is looked up again and filled, or the commit fails (23503):
 *		 never a reference left empty silently.  The fill is an UPDATE run
 *		 with session_replication_role = replica, so that it fires none of
 *		 the application's triggers enabled for origin sessions (the plan
 *		 refuses the ALWAYS and REPLICA ones it would fire).
 *	back BEFORE INSERT on a table whose uuid key was swapped to xid: a row
 *		 written without an old key gets the id's own UUIDv7 there, so that
 *		 an abort finds every row's old key.
 *
 * Nothing is taken from the trigger's arguments, as core's RI triggers
 * take nothing but their pg_constraint row.  The trigger's OID (for a
 * trigger cloned onto a partition, that of the trigger it was cloned
 * from) must be recorded by a move under way: a trigger no move made
 * errors and does nothing else.  The columns come from that record by
 * attribute number (by name on a partition whose numbers differ), the
 * moved table, its key, time column and key type from the move, the
 * schemas of xid and xid_move from pg_extension; every column's type is
 * checked against the catalog, and the value's type against the column's,
 * before a datum is stored.  Every statement goes through the runner
 * (xid_move_run.c).
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
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "xid_move.h"
#include "xid_move_replace.h"

PG_FUNCTION_INFO_V1(xid_move_trigger);

typedef enum MoveKind
{
	MOVE_KEY,
	MOVE_REF,
	MOVE_FIX,
	MOVE_BACK
} MoveKind;

/*
 * One trigger as its move recorded it, resolved for the relation it fires
 * on, with the statements it runs, prepared on its first call.  Kept for
 * the session until the relation's cache entry is invalidated (any DDL on
 * it, its triggers dropped or its columns renamed).
 */
typedef struct MoveTrigger
{
	Oid			tgoid;			/* hash key: the trigger */
	bool		valid;			/* false once its relation changed */
	Oid			relid;			/* the relation it fires on */
	/* from its record in xid_move_objects */
	MoveKind	kind;
	bool		old_mode;		/* "old": the old value, after the swap */
	NameData	src;			/* the column it reads (ref, fix: the
								 * reference; key, back: the key) */
	NameData	target;			/* the column it fills */
	/* from the move (xid_move_moves) */
	Oid			tbl;			/* the table whose key moves */
	Oid			key_type;		/* its old key's type */
	NameData	key_column;		/* its key column */
	NameData	val_column;		/* ref, fix: its column that holds the value
								 * (the new or the old one) */
	NameData	time_column;	/* its time column, "" for none */
	Oid			xid_type;		/* the type xid, in xid's schema */
	/* the statements */
	SPIPlanPtr	lookup;			/* key: the old version's id; ref, fix: the
								 * referenced row's value; back: the uuid */
	SPIPlanPtr	newid;			/* key: xid_new() */
	SPIPlanPtr	live;			/* fix: is this row version still the live one */
	SPIPlanPtr	fill;			/* fix: fill the empty reference */
} MoveTrigger;

static HTAB *move_triggers = NULL;

/* The type xid, from the schema pg_extension names for xid */
static Oid
move_xid_type(void)
{
	Oid			nsp = xid_move_extension_schema("xid");
	Oid			typid = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
										CStringGetDatum("xid"),
										ObjectIdGetDatum(nsp));

	if (!OidIsValid(typid))
		elog(ERROR, "type xid of extension xid not found");
	return typid;
}

/* A relation changed: what its triggers resolved is looked up again */
static void
move_rel_changed(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS status;
	MoveTrigger *t;

	if (move_triggers == NULL)
		return;
	hash_seq_init(&status, move_triggers);
	while ((t = hash_seq_search(&status)) != NULL)
		if (relid == InvalidOid || t->relid == relid)
			t->valid = false;
}

/*
 * The record of the trigger (or of the trigger it was cloned from, at any
 * level) and its move, on the relation the record names (a record whose
 * OID a pg_upgrade gave to another trigger is no record of it).
 * Read-only, every operator qualified, every name schema-qualified; @ is
 * the schema of xid_move.  The column names are
 * those of the recorded relation's attribute numbers.
 */
static const char *move_record_sql =
"WITH RECURSIVE up(oid, rel, parent, depth) AS ("
" SELECT t.oid, t.tgrelid, t.tgparentid, 0 FROM pg_catalog.pg_trigger t WHERE t.oid OPERATOR(pg_catalog.=) $1"
" UNION ALL"
" SELECT t.oid, t.tgrelid, t.tgparentid, up.depth OPERATOR(pg_catalog.+) 1 FROM pg_catalog.pg_trigger t, up"
"  WHERE t.oid OPERATOR(pg_catalog.=) up.parent AND up.depth OPERATOR(pg_catalog.<) 64)"
" SELECT o.kind, o.mode,"
" (SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) o.relation::pg_catalog.oid"
"   AND a.attnum OPERATOR(pg_catalog.=) o.src AND NOT a.attisdropped),"
" (SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) o.relation::pg_catalog.oid"
"   AND a.attnum OPERATOR(pg_catalog.=) o.target AND NOT a.attisdropped),"
" m.tbl::pg_catalog.oid, m.key_type::pg_catalog.oid, m.key_column,"
" CASE o.mode WHEN 'old' THEN m.old_column ELSE m.new_column END, m.time_column"
" FROM up JOIN @.xid_move_objects o"
"  ON o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_trigger'::pg_catalog.regclass AND o.objid OPERATOR(pg_catalog.=) up.oid"
"  AND o.relation::pg_catalog.oid OPERATOR(pg_catalog.=) up.rel"
" JOIN @.xid_move_moves m ON m.tbl OPERATOR(pg_catalog.=) o.tbl"
" ORDER BY up.depth LIMIT 1";

static void
move_bad_trigger(TriggerData *td, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
			 errmsg("trigger \"%s\" on table \"%s\" is not one xid_move made",
					td->tg_trigger->tgname, RelationGetRelationName(td->tg_relation)),
			 errdetail("%s", why),
			 errhint("If the database was restored from a dump taken during a move, the owner of the tables runs SELECT xid_move_relink('table') with the table whose key moves; otherwise drop the trigger.")));
}

/* A text column of the record's row, copied into a name */
static void
move_name_col(TriggerData *td, int col, NameData *dst, bool may_be_null)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, col, &isnull);

	memset(dst, 0, sizeof(NameData));
	if (isnull)
	{
		if (!may_be_null)
			move_bad_trigger(td, "The move's record of it names a column that does not exist.");
		return;
	}
	strlcpy(NameStr(*dst), NameStr(*DatumGetName(d)), NAMEDATALEN);
}

/*
 * The trigger as a move under way recorded it, or an error: nothing else
 * is done for a trigger no move made
 */
static MoveTrigger *
move_trigger_for(TriggerData *td)
{
	Oid			tgoid = td->tg_trigger->tgoid;
	MoveTrigger *t;
	MoveTrigger r;
	bool		found;
	Oid			nsp;
	Oid			state_owner;
	StringInfoData sql;
	const char *p;
	Oid			types[1] = {OIDOID};
	Datum		args[1];
	bool		isnull;
	char	   *kind;
	Datum		d;

	if (move_triggers == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(MoveTrigger);
		move_triggers = hash_create("xid_move triggers", 64, &ctl,
									HASH_ELEM | HASH_BLOBS);
		CacheRegisterRelcacheCallback(move_rel_changed, (Datum) 0);
	}
	t = hash_search(move_triggers, &tgoid, HASH_FIND, NULL);
	if (t != NULL && t->valid && t->relid == RelationGetRelid(td->tg_relation))
		return t;

	/* the state, read as its owner through the runner */
	nsp = xid_move_extension_schema("xid_move");
	state_owner = xid_move_rel_owner(get_relname_relid("xid_move_moves", nsp));
	initStringInfo(&sql);
	for (p = move_record_sql; *p; p++)
	{
		if (*p == '@')
			appendStringInfoString(&sql, quote_identifier(get_namespace_name(nsp)));
		else
			appendStringInfoChar(&sql, *p);
	}
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	args[0] = ObjectIdGetDatum(tgoid);
	(void) xid_move_run_sql(state_owner, sql.data, 1, types, args, NULL, true, 1);
	if (SPI_processed != 1)
		move_bad_trigger(td, "No move under way recorded it.");

	memset(&r, 0, sizeof(r));
	r.tgoid = tgoid;
	r.relid = RelationGetRelid(td->tg_relation);
	kind = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	if (kind != NULL && strcmp(kind, "key") == 0)
		r.kind = MOVE_KEY;
	else if (kind != NULL && strcmp(kind, "ref") == 0)
		r.kind = MOVE_REF;
	else if (kind != NULL && strcmp(kind, "fix") == 0)
		r.kind = MOVE_FIX;
	else if (kind != NULL && strcmp(kind, "back") == 0)
		r.kind = MOVE_BACK;
	else
		move_bad_trigger(td, "The move's record of it is not that of a trigger.");
	p = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
	r.old_mode = p != NULL && strcmp(p, "old") == 0;
	move_name_col(td, 3, &r.src, false);
	move_name_col(td, 4, &r.target, false);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 5, &isnull);
	r.tbl = DatumGetObjectId(d);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 6, &isnull);
	r.key_type = DatumGetObjectId(d);
	move_name_col(td, 7, &r.key_column, false);
	move_name_col(td, 8, &r.val_column, false);
	move_name_col(td, 9, &r.time_column, true);
	SPI_finish();
	r.xid_type = move_xid_type();

	/* what was prepared for the trigger before its relation changed goes */
	if (t != NULL)
	{
		if (t->lookup)
			SPI_freeplan(t->lookup);
		if (t->newid)
			SPI_freeplan(t->newid);
		if (t->live)
			SPI_freeplan(t->live);
		if (t->fill)
			SPI_freeplan(t->fill);
	}
	t = hash_search(move_triggers, &tgoid, HASH_ENTER, &found);
	*t = r;
	t->valid = true;
	return t;
}

/*
 * Columns of the trigger's tuples are read with SPI_getbinval(), a function
 * of the server, not with heap_getattr(): that inline function calls
 * heap_datum_check() from 15.20 on, so a library built with a newer minor
 * release's headers would not load into an older server of the same major
 * version.
 */

/*
 * The attribute number of a column of the trigger's table, which must be
 * of type typid (InvalidOid: any type), or an error
 */
static int
move_attnum(TriggerData *td, const NameData *name, Oid typid)
{
	Relation	rel = td->tg_relation;
	int			attnum = SPI_fnumber(RelationGetDescr(rel), NameStr(*name));
	Oid			atttype;

	if (attnum <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						NameStr(*name), RelationGetRelationName(rel)),
				 errdetail("The move recorded the trigger \"%s\" for that column.",
						   td->tg_trigger->tgname)));
	atttype = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid;
	if (OidIsValid(typid) && atttype != typid)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("column \"%s\" of relation \"%s\" is of type %s, not %s",
						NameStr(*name), RelationGetRelationName(rel),
						format_type_be(atttype), format_type_be(typid)),
				 errdetail("The trigger \"%s\" of a move stores only values of the column's type.",
						   td->tg_trigger->tgname)));
	return attnum;
}

/* The schema of xid, quoted */
static const char *
move_xs(void)
{
	return quote_identifier(get_namespace_name(xid_move_extension_schema("xid")));
}

/*
 * The first column of the statement's only row, which must be of the type
 * of column attnum of the trigger's table, copied out of SPI's memory
 */
static Datum
move_result(TriggerData *td, int attnum, bool *isnull)
{
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(td->tg_relation), attnum - 1);
	Oid			restype = SPI_gettypeid(SPI_tuptable->tupdesc, 1);
	Datum		v;

	if (restype != att->atttypid)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("a value of type %s cannot be stored into column \"%s\" of type %s",
						format_type_be(restype), NameStr(att->attname),
						format_type_be(att->atttypid))));
	v = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);
	if (*isnull)
		return (Datum) 0;
	return SPI_datumTransfer(v, att->attbyval, att->attlen);
}

/* The id expression of a row "r" (an alias, or "$" for parameters $1, $2) */
static void
move_id_expr(StringInfo buf, MoveTrigger *t, const char *r)
{
	const char *xs = move_xs();
	bool		params = strcmp(r, "$") == 0;
	bool		uuid_key = t->key_type == UUIDOID;
	const char *key = quote_identifier(NameStr(t->key_column));
	const char *time = NameStr(t->time_column);

	if (time[0] == '\0')
	{
		if (params)
			appendStringInfo(buf, "%s.xid_from_uuidv7($2)", xs);
		else
			appendStringInfo(buf, "%s.xid_from_uuidv7(%s.%s)", xs, r, key);
	}
	else if (params)
		appendStringInfo(buf, "%s.xid_from_key($1, $2%s)", xs,
						 uuid_key ? "" : "::pg_catalog.int8");
	else
		appendStringInfo(buf, "%s.xid_from_key(%s.%s, %s.%s%s)", xs,
						 r, quote_identifier(time), r, key,
						 uuid_key ? "" : "::pg_catalog.int8");
}

/*
 * Run the id a row version that has none was given: from its time and key
 * (xid_from_key()), or a UUIDv7 key's own time.  The caller has called
 * SPI_connect(); the id is SPI's only row.
 */
static void
move_run_formula(TriggerData *td, MoveTrigger *t, HeapTuple tup, Datum key,
				 bool keynull)
{
	TupleDesc	desc = RelationGetDescr(td->tg_relation);
	int			timeno = 0;
	Datum		args[2];
	char		nulls[2] = {' ', ' '};
	bool		isnull;

	if (NameStr(t->time_column)[0] != '\0')
		timeno = move_attnum(td, &t->time_column, TIMESTAMPTZOID);
	if (t->lookup == NULL)
	{
		StringInfoData sql;
		Oid			types[2];

		initStringInfo(&sql);
		appendStringInfoString(&sql, "SELECT ");
		move_id_expr(&sql, t, "$");
		/* the time ($1) is unused for a UUIDv7 key's own time */
		types[0] = TIMESTAMPTZOID;
		types[1] = t->key_type;
		t->lookup = xid_move_prepare(sql.data, 2, types);
	}
	/* the version's time and key: what a reference already got */
	args[0] = timeno ? SPI_getbinval(tup, desc, timeno, &isnull) : (Datum) 0;
	if (!timeno || isnull)
		nulls[0] = 'n';
	args[1] = key;
	nulls[1] = keynull ? 'n' : ' ';
	(void) xid_move_run_plan(td->tg_relation->rd_rel->relowner, t->lookup,
							 args, nulls, false, 1);
}

/*
 * key: a row whose key changes gets a new id; one without an id gets that
 * of its old version
 */
static HeapTuple
move_key(TriggerData *td, MoveTrigger *t)
{
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	oldtup = td->tg_trigtuple;
	HeapTuple	newtup = td->tg_newtuple;
	int			keyno,
				newno;
	Datum		oldkey,
				newkey,
				v;
	bool		oldnull,
				newnull,
				isnull;
	Form_pg_attribute keyatt;
	bool		changed;
	Oid			owner = rel->rd_rel->relowner;

	keyno = move_attnum(td, &t->src, t->key_type);
	newno = move_attnum(td, &t->target, t->xid_type);
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
	if (changed)
	{
		if (t->newid == NULL)
		{
			StringInfoData sql;

			initStringInfo(&sql);
			appendStringInfo(&sql, "SELECT %s.xid_new()", move_xs());
			t->newid = xid_move_prepare(sql.data, 0, NULL);
		}
		(void) xid_move_run_plan(owner, t->newid, NULL, NULL, false, 1);
	}
	else
		move_run_formula(td, t, oldtup, oldkey, oldnull);
	if (SPI_processed != 1)
		elog(ERROR, "the id of a row could not be computed");
	v = move_result(td, newno, &isnull);
	SPI_finish();

	return heap_modify_tuple_by_cols(newtup, desc, 1, &newno, &v, &isnull);
}

/*
 * key, on INSERT or DELETE: a row deleted and inserted again with the same
 * key in one transaction (WITH d AS (DELETE ... RETURNING ...) INSERT ...,
 * which a NO ACTION foreign key accepts at the statement's end, or a
 * DELETE and an INSERT under a deferred one) keeps the id its referencing
 * rows hold, instead of its new column's default
 */
static HeapTuple
move_replace(TriggerData *td, MoveTrigger *t)
{
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	tup = td->tg_trigtuple;
	int			keyno,
				newno;
	Form_pg_attribute keyatt;
	Datum		key,
				id;
	bool		keynull,
				isnull = false;

	/* every insert comes here: nothing to look up before such a delete */
	if (TRIGGER_FIRED_BY_INSERT(td->tg_event) && !xid_move_replace_pending())
		return tup;
	keyno = move_attnum(td, &t->src, t->key_type);
	newno = move_attnum(td, &t->target, t->xid_type);
	keyatt = TupleDescAttr(desc, keyno - 1);
	key = SPI_getbinval(tup, desc, keyno, &keynull);
	if (keynull)
		return tup;
	if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
	{
		id = SPI_getbinval(tup, desc, newno, &isnull);
		if (isnull)
		{
			/* not backfilled yet: the id its references were given */
			if (SPI_connect() != SPI_OK_CONNECT)
				elog(ERROR, "SPI_connect failed");
			move_run_formula(td, t, tup, key, false);
			if (SPI_processed != 1)
				elog(ERROR, "the id of a row could not be computed");
			id = move_result(td, newno, &isnull);
			SPI_finish();
		}
		if (!isnull)
			xid_move_replace_remember(t->tbl, key, keyatt->attlen,
									  keyatt->attbyval, id);
		return tup;
	}
	if (!xid_move_replace_find(t->tbl, key, keyatt->attlen, keyatt->attbyval, &id))
		return tup;
	return heap_modify_tuple_by_cols(tup, desc, 1, &newno, &id, &isnull);
}

/*
 * ref, fix: the owner of the table whose key moves, once the trigger's
 * table is known to be one whose owner may read it
 */
static Oid
move_ref_owner(TriggerData *td, MoveTrigger *t)
{
	Oid			powner = xid_move_rel_owner(t->tbl);

	if (!TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		TRIGGER_FIRED_BY_DELETE(td->tg_event) ||
		TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		move_bad_trigger(td, "A reference trigger of a move is a row trigger on INSERT or UPDATE.");
	if (!has_privs_of_role(td->tg_relation->rd_rel->relowner, powner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("trigger \"%s\" on table \"%s\" may not look up rows of table \"%s\"",
						td->tg_trigger->tgname, RelationGetRelationName(td->tg_relation),
						get_rel_name(t->tbl)),
				 errdetail("A trigger of a move runs only on a table whose owner has the privileges of the owner of the table it looks up.")));
	return powner;
}

/*
 * The target column of a ref or fix trigger, of the type its value has:
 * an xid before the swap; after it, the old column keeps its own type
 * (the statement casts the value to it, and move_result() checks it)
 */
static int
move_ref_target(TriggerData *td, MoveTrigger *t)
{
	return move_attnum(td, &t->target, t->old_mode ? InvalidOid : t->xid_type);
}

/*
 * The value of the row that the reference srcval references, as powner;
 * false when no row is visible (*isnull then true).  SPI is connected.
 */
static bool
move_lookup(TriggerData *td, MoveTrigger *t, Oid powner, int srcno,
			int targetno, Datum srcval, Datum *v, bool *isnull)
{
	TupleDesc	desc = RelationGetDescr(td->tg_relation);
	Datum		args[1];

	if (t->lookup == NULL)
	{
		StringInfoData sql;
		Oid			types[1];
		char	   *nsp = get_namespace_name(get_rel_namespace(t->tbl));
		char	   *relname = get_rel_name(t->tbl);
		Form_pg_attribute tatt = TupleDescAttr(desc, targetno - 1);

		if (nsp == NULL || relname == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", t->tbl)));
		initStringInfo(&sql);
		appendStringInfoString(&sql, "SELECT ");
		if (t->old_mode)
		{
			/*
			 * the type schema-qualified: under the runner's search_path an
			 * unqualified name would also be looked up in the writer's
			 * pg_temp
			 */
			appendStringInfo(&sql, "p.%s::%s", quote_identifier(NameStr(t->val_column)),
							 format_type_extended(tatt->atttypid, tatt->atttypmod,
												  FORMAT_TYPE_TYPEMOD_GIVEN |
												  FORMAT_TYPE_FORCE_QUALIFY));
		}
		else
		{
			appendStringInfo(&sql, "COALESCE(p.%s, ", quote_identifier(NameStr(t->val_column)));
			move_id_expr(&sql, t, "p");
			appendStringInfoChar(&sql, ')');
		}
		appendStringInfo(&sql, " FROM ONLY %s AS p WHERE p.%s OPERATOR(%s.=) $1",
						 quote_qualified_identifier(nsp, relname),
						 quote_identifier(NameStr(t->key_column)),
						 t->old_mode ? move_xs() : "pg_catalog");
		types[0] = getBaseType(TupleDescAttr(desc, srcno - 1)->atttypid);
		t->lookup = xid_move_prepare(sql.data, 1, types);
	}
	args[0] = srcval;
	(void) xid_move_run_plan(powner, t->lookup, args, NULL, false, 1);
	if (SPI_processed == 0)
	{
		*isnull = true;
		return false;
	}
	*v = move_result(td, targetno, isnull);
	return true;
}

/* ref: the reference's new (or old) value, from the row it references */
static HeapTuple
move_ref(TriggerData *td, MoveTrigger *t)
{
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

	if (!TRIGGER_FIRED_BEFORE(td->tg_event))
		move_bad_trigger(td, "A reference trigger of a move fires BEFORE.");
	powner = move_ref_owner(td, t);
	tup = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple : td->tg_trigtuple;
	srcno = move_attnum(td, &t->src, InvalidOid);
	targetno = move_ref_target(td, t);
	srcval = SPI_getbinval(tup, desc, srcno, &srcnull);
	if (!srcnull)
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		(void) move_lookup(td, t, powner, srcno, targetno, srcval, &v, &isnull);
		SPI_finish();
	}
	return heap_modify_tuple_by_cols(tup, desc, 1, &targetno, &v, &isnull);
}

/* fix: at commit, a reference still empty is filled, or the commit fails */
static void
move_fix(TriggerData *td, MoveTrigger *t)
{
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
	Datum		args[2];
	char		nulls[2] = {' ', ' '};
	ItemPointerData ctid;

	if (!TRIGGER_FIRED_AFTER(td->tg_event))
		move_bad_trigger(td, "A check trigger of a move fires AFTER.");
	powner = move_ref_owner(td, t);
	tup = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple : td->tg_trigtuple;
	srcno = move_attnum(td, &t->src, InvalidOid);
	targetno = move_ref_target(td, t);
	srcval = SPI_getbinval(tup, desc, srcno, &srcnull);
	(void) SPI_getbinval(tup, desc, targetno, &isnull);
	if (srcnull || !isnull)
		return;
	ctid = tup->t_self;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (t->live == NULL)
	{
		StringInfoData sql;
		Oid			types[2];
		char	   *qrel = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
													  RelationGetRelationName(rel));
		const char *qtarget = quote_identifier(NameStr(t->target));

		initStringInfo(&sql);
		appendStringInfo(&sql, "SELECT FROM ONLY %s WHERE ctid OPERATOR(pg_catalog.=) $1", qrel);
		types[0] = TIDOID;
		t->live = xid_move_prepare(sql.data, 1, types);
		resetStringInfo(&sql);
		appendStringInfo(&sql, "UPDATE ONLY %s SET %s = $1 WHERE ctid OPERATOR(pg_catalog.=) $2 AND %s IS NULL",
						 qrel, qtarget, qtarget);
		types[0] = TupleDescAttr(desc, targetno - 1)->atttypid;
		types[1] = TIDOID;
		t->fill = xid_move_prepare(sql.data, 2, types);
	}
	/* a later version of the row has an event of its own */
	args[0] = PointerGetDatum(&ctid);
	(void) xid_move_run_plan(rel->rd_rel->relowner, t->live, args, NULL, false, 1);
	if (SPI_processed == 0)
	{
		SPI_finish();
		return;
	}
	if (!move_lookup(td, t, powner, srcno, targetno, srcval, &v, &isnull))
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("a row of table \"%s\" references a row of table \"%s\" that cannot be found",
						RelationGetRelationName(rel), get_rel_name(t->tbl)),
				 errdetail("The move of the table to xid could not give the row its new reference.")));
	if (!isnull)
	{
		/*
		 * The fill is no update of the application's: in replica mode, so
		 * that it fires none of its triggers (nor the move's own)
		 */
		args[0] = v;
		args[1] = PointerGetDatum(&ctid);
		(void) xid_move_run_plan_replica(rel->rd_rel->relowner, t->fill, args,
										 nulls, false, 0);
	}
	SPI_finish();
}

/* back: an old uuid key from the id, for a row written without one */
static HeapTuple
move_back(TriggerData *td, MoveTrigger *t)
{
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	tup = td->tg_trigtuple;
	int			keyno,
				oldno;
	Datum		v;
	bool		isnull;
	Oid			types[1];

	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_BY_INSERT(td->tg_event))
		move_bad_trigger(td, "A back trigger of a move fires BEFORE INSERT.");
	if (RelationGetRelid(rel) != t->tbl && !get_rel_relispartition(RelationGetRelid(rel)))
		move_bad_trigger(td, "A back trigger of a move is on the table whose key moves.");
	keyno = move_attnum(td, &t->src, t->xid_type);
	oldno = move_attnum(td, &t->target, UUIDOID);
	(void) SPI_getbinval(tup, desc, oldno, &isnull);
	if (!isnull)
		return tup;
	v = SPI_getbinval(tup, desc, keyno, &isnull);
	if (isnull)
		return tup;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (t->lookup == NULL)
	{
		types[0] = TupleDescAttr(desc, keyno - 1)->atttypid;
		t->lookup = xid_move_prepare("SELECT $1::pg_catalog.uuid", 1, types);
	}
	(void) xid_move_run_plan(rel->rd_rel->relowner, t->lookup, &v, NULL, false, 1);
	if (SPI_processed != 1)
		elog(ERROR, "the old key of a row could not be computed");
	v = move_result(td, oldno, &isnull);
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
	MoveTrigger *t;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("function xid_move_trigger() was not called by the trigger manager")));
	if (!TRIGGER_FIRED_FOR_ROW(td->tg_event))
		move_bad_trigger(td, "A trigger of a move is a row trigger.");
	t = move_trigger_for(td);
	switch (t->kind)
	{
		case MOVE_KEY:
			if (!TRIGGER_FIRED_BEFORE(td->tg_event))
				move_bad_trigger(td, "A key trigger of a move fires BEFORE INSERT, UPDATE or DELETE.");
			if (RelationGetRelid(td->tg_relation) != t->tbl &&
				!get_rel_relispartition(RelationGetRelid(td->tg_relation)))
				move_bad_trigger(td, "A key trigger of a move is on the table whose key moves.");
			if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
				return PointerGetDatum(move_key(td, t));
			return PointerGetDatum(move_replace(td, t));
		case MOVE_REF:
			return PointerGetDatum(move_ref(td, t));
		case MOVE_BACK:
			return PointerGetDatum(move_back(td, t));
		case MOVE_FIX:
			move_fix(td, t);
			break;
	}
	return PointerGetDatum(NULL);
}
