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
 * It must never block DDL: the work runs in a subtransaction, and any
 * error in it is swallowed.  xid.warn_core_xid = off turns it off.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include "access/relation.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "nodes/parsenodes.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/resowner.h"

/*
 * Is typid core's xid, or a domain over it, or an array of either?  Types
 * made by initdb need no lookup: none of them is a domain over xid.
 */
static bool
is_core_xid(Oid typid)
{
	Oid			base;
	Oid			elem;

	if (typid < FirstNormalObjectId)
		return typid == XIDOID || typid == XIDARRAYOID;
	base = getBaseType(typid);
	elem = get_element_type(base);
	if (OidIsValid(elem))
		base = getBaseType(elem);
	return base == XIDOID;
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
	Relation	rel = relation_open(relid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (attname == NULL || strcmp(NameStr(att->attname), attname) == 0)
			check_attribute(rel, att, extschema);
	}
	relation_close(rel, AccessShareLock);
}

/*
 * The user table a RangeVar names, or InvalidOid for none or a table in a
 * system schema.
 */
static Oid
user_table(RangeVar *rv)
{
	Oid			relid = RangeVarGetRelid(rv, NoLock, true);
	Oid			nsp;

	if (!OidIsValid(relid))
		return InvalidOid;
	nsp = get_rel_namespace(relid);
	if (IsCatalogNamespace(nsp) || IsToastNamespace(nsp) ||
		strcmp(get_namespace_name(nsp), "information_schema") == 0)
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
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
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

	/* never let the check block the DDL: swallow any error it raises */
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);
	PG_TRY();
	{
		check_command(trigdata->parsetree, extschema ? extschema : "public");
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(oldcontext);
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcontext);
	CurrentResourceOwner = oldowner;
	PG_RETURN_VOID();
}
