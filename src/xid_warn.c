/*-------------------------------------------------------------------------
 *
 * xid_warn.c
 *	  The event trigger that warns when DDL gives a user table a column of
 *	  core's pg_catalog.xid (32-bit transaction ids) while this extension is
 *	  installed.
 *
 * pg_catalog is searched before every other schema, so "id xid" in CREATE
 * TABLE always means core's type, whatever search_path says.  The trigger
 * fires at ddl_command_end for CREATE TABLE, CREATE TABLE AS, SELECT INTO
 * and ALTER TABLE (the tags are filtered in the CREATE EVENT TRIGGER, so
 * other DDL does not call it), looks at the columns the command created or
 * retyped, and warns for each of core's type (also in a domain or array).
 *
 * It must never block DDL, and it must cost nothing that can be measured
 * on DDL that makes no such column.  A subtransaction around the check
 * would catch errors, but it costs about 40 us per command (more in a long
 * transaction, whose lock table the subtransaction's end walks), which is
 * the whole cost of the trigger.  So the check is written so that it has
 * no error to catch: every lookup tolerates a missing row (a table that is
 * gone, a type that is gone), no lock is taken that the command does not
 * already hold, and nothing is looked up by a name that could be ambiguous.
 * What is left that could fail (running out of memory) would fail the DDL
 * anyway.  xid.warn_core_xid = off turns the check off.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "access/transam.h"
#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "nodes/parsenodes.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

/*
 * Is typid core's xid, or a domain over it, or an array of either (at any
 * depth)?  Types made by initdb need no lookup: none of them is a domain
 * over xid.  Other types are followed through the syscache, and a type that
 * is not found is simply not core's xid (getBaseType would raise an error).
 */
static bool
is_core_xid(Oid typid)
{
	while (typid >= FirstNormalObjectId)
	{
		HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
		Form_pg_type typ;

		if (!HeapTupleIsValid(tup))
			return false;
		typ = (Form_pg_type) GETSTRUCT(tup);
		if (typ->typtype == TYPTYPE_DOMAIN)
			typid = typ->typbasetype;
		else if (IsTrueArrayType(typ))
			typid = typ->typelem;
		else
			typid = InvalidOid;
		ReleaseSysCache(tup);
	}
	return typid == XIDOID || typid == XIDARRAYOID;
}

/*
 * Warn for a column of core's xid.
 */
static void
check_attribute(Relation rel, Form_pg_attribute att, const char *extschema)
{
	if (att->attisdropped || !is_core_xid(att->atttypid))
		return;
	ereport(WARNING,
			(errcode(ERRCODE_WARNING),
			 errmsg("column \"%s\" of table \"%s\" has type pg_catalog.xid",
					NameStr(att->attname), RelationGetRelationName(rel)),
			 errdetail("pg_catalog.xid holds 32-bit transaction ids; an unqualified \"xid\" always means that type."),
			 errhint("For the identifiers of the xid extension write %s.xid.  SET xid.warn_core_xid = off silences this warning.",
					 quote_identifier(extschema))));
}

/*
 * Warn for the column named attname, or for every column when it is NULL.
 * The types come from the relation's descriptor, which the command has
 * just built: no catalog lookup per column.
 */
static void
check_columns(Oid relid, const char *attname, const char *extschema)
{
	/* the command holds a lock on the table: NoLock adds none */
	Relation	rel = try_relation_open(relid, NoLock);
	TupleDesc	desc;
	int			i;

	if (rel == NULL)
		return;
	desc = RelationGetDescr(rel);
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (attname == NULL || strcmp(NameStr(att->attname), attname) == 0)
			check_attribute(rel, att, extschema);
	}
	relation_close(rel, NoLock);
}

/*
 * The user table a RangeVar names, or InvalidOid for none or a table in a
 * system schema.  The command has just resolved the same name the same way
 * (a name with a database in it got past it only if that is this one), and
 * missing_ok makes a name that no longer resolves InvalidOid, not an error.
 */
static Oid
user_table(RangeVar *rv)
{
	Oid			relid = RangeVarGetRelid(rv, NoLock, true);
	Oid			nsp;
	char	   *nspname;

	if (!OidIsValid(relid))
		return InvalidOid;
	nsp = get_rel_namespace(relid);
	if (!OidIsValid(nsp) || IsCatalogNamespace(nsp) || IsToastNamespace(nsp))
		return InvalidOid;
	nspname = get_namespace_name(nsp);
	if (nspname == NULL || strcmp(nspname, "information_schema") == 0)
		return InvalidOid;
	return relid;
}

/*
 * The column an ALTER TABLE subcommand adds or retypes, or NULL for one
 * that makes no column.
 */
static const char *
column_made(AlterTableCmd *cmd)
{
	if (cmd->subtype == AT_AddColumn)
		return castNode(ColumnDef, cmd->def)->colname;
	if (cmd->subtype == AT_AlterColumnType)
		return cmd->name;
	return NULL;
}

/*
 * The columns that a command created or retyped.
 */
static void
check_command(Node *parsetree, const char *extschema)
{
	Oid			relid;
	ListCell   *lc;

	switch (nodeTag(parsetree))
	{
		case T_CreateStmt:
			relid = user_table(((CreateStmt *) parsetree)->relation);
			if (OidIsValid(relid))
				check_columns(relid, NULL, extschema);
			break;
		case T_CreateTableAsStmt:
			relid = user_table(((CreateTableAsStmt *) parsetree)->into->rel);
			if (OidIsValid(relid))
				check_columns(relid, NULL, extschema);
			break;
		case T_AlterTableStmt:
			relid = user_table(((AlterTableStmt *) parsetree)->relation);
			if (!OidIsValid(relid))
				break;
			foreach(lc, ((AlterTableStmt *) parsetree)->cmds)
			{
				const char *column = column_made(lfirst_node(AlterTableCmd, lc));

				if (column != NULL)
					check_columns(relid, column, extschema);
			}
			break;
		default:
			break;
	}
}

/*
 * Would this command be worth a look?  Decided from the parse tree alone,
 * so that ALTER TABLE commands that add or retype no column cost nothing.
 */
static bool
worth_checking(Node *parsetree)
{
	ListCell   *lc;

	if (IsA(parsetree, CreateStmt) || IsA(parsetree, CreateTableAsStmt))
		return true;
	if (!IsA(parsetree, AlterTableStmt))
		return false;
	foreach(lc, ((AlterTableStmt *) parsetree)->cmds)
	{
		if (column_made(lfirst_node(AlterTableCmd, lc)) != NULL)
			return true;
	}
	return false;
}

/*
 * The event trigger function (ddl_command_end).
 */
PG_FUNCTION_INFO_V1(xid_warn_core_xid);
Datum
xid_warn_core_xid(PG_FUNCTION_ARGS)
{
	EventTriggerData *trigdata;
	char	   *extschema;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_EVENT_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("function xid_warn_core_xid() must be called as an event trigger")));
	trigdata = (EventTriggerData *) fcinfo->context;
	if (!xid_warn_core_xid_enabled || trigdata->parsetree == NULL ||
		!worth_checking(trigdata->parsetree))
		PG_RETURN_VOID();

	/* this function lives in the extension's schema */
	extschema = get_namespace_name(get_func_namespace(fcinfo->flinfo->fn_oid));
	check_command(trigdata->parsetree, extschema ? extschema : "public");
	PG_RETURN_VOID();
}
