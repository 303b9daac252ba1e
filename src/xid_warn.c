/*-------------------------------------------------------------------------
 *
 * xid_warn.c
 *	  The warning when DDL gives a user table a column of core's
 *	  pg_catalog.xid (32-bit transaction ids) while this extension is
 *	  installed.
 *
 * pg_catalog is searched before every other schema, so "id xid" in CREATE
 * TABLE always means core's type, whatever search_path says.  The check
 * looks at the columns a command creates or retypes, and warns for each of
 * core's type (also in a domain or array).
 *
 * It must never block DDL: DDL that succeeds without the extension
 * succeeds with it.  So it resolves nothing by name (a name can resolve to
 * another object than the command's, a temporary table of the same name,
 * or fail for want of USAGE on a schema the command only needs CREATE on):
 * it gets the OIDs of what the command creates and alters from an object
 * access hook, which PostgreSQL calls with them, and reads their catalog
 * rows by OID.  Those rows are new in the current command, which the
 * syscache cannot see yet: they are read with SnapshotSelf, as sepgsql
 * reads them in the same hook.  Every lookup tolerates a missing row, so
 * there is no error to catch (a subtransaction to catch them would cost
 * about 40 us a command).  The locks are those of any catalog read:
 * AccessShareLock on pg_class and pg_attribute, which the command already
 * holds a stronger lock on (it writes them), and on pg_extension, to find
 * the extension's schema, as core's get_extension_oid() takes it.  That one
 * waits only behind an AccessExclusiveLock on pg_extension (VACUUM FULL of
 * it, LOCK TABLE), as CREATE and ALTER EXTENSION do, and is released as
 * soon as the row is read.  xid.warn_core_xid = off turns the check off.
 *
 * It must also cost nothing that can be measured on DDL that makes no such
 * column.  An event trigger at ddl_command_end that reads
 * pg_event_trigger_ddl_commands() would have the OIDs too, but its mere
 * existence makes PostgreSQL collect every DDL command and every dropped
 * object of the database for it (BENCHMARKS.md).  So the extension's event
 * trigger runs at ddl_command_start, for the commands that can make such
 * a column: calling it loads this library, whose _PG_init installs the
 * hook before the command runs, and it notes the columns an ALTER TABLE
 * retypes (the hook sees that a column was altered, not how).  With the
 * library in shared_preload_libraries the hook is there from the start.
 *
 * The warning is given where a column is defined: not again for the
 * inherited columns of partitions and children (attislocal is false).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/indexing.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "nodes/parsenodes.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "xid_warn.h"

/* xid.warn_core_xid: warn when DDL makes a pg_catalog.xid column */
static bool xid_warn_core_xid_enabled = true;

static object_access_hook_type prev_object_access_hook = NULL;

/*
 * The columns the ALTER TABLE under way retypes, by name, as its
 * ddl_command_start trigger saw them (in TopTransactionContext; NIL at the
 * end of every transaction)
 */
static List *retyped_columns = NIL;

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
 * The schema of the extension in this database, or InvalidOid when it is
 * not installed here (the library may be loaded, or preloaded, in a
 * database without it)
 */
static Oid
extension_schema(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			nsp = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("xid"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		nsp = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return nsp;
}

/*
 * The name of relid if it is a user table (an ordinary or partitioned
 * table outside the system schemas), else NULL; read with SnapshotSelf,
 * since the command may have made the row just now.
 */
static char *
user_table_name(Oid relid)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *name = NULL;

	rel = table_open(RelationRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_class_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(rel, ClassOidIndexId, true, SnapshotSelf, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);

		if ((form->relkind == RELKIND_RELATION ||
			 form->relkind == RELKIND_PARTITIONED_TABLE) &&
			!IsCatalogNamespace(form->relnamespace) &&
			!IsToastNamespace(form->relnamespace))
		{
			char	   *nspname = get_namespace_name(form->relnamespace);

			if (nspname == NULL || strcmp(nspname, "information_schema") != 0)
				name = pstrdup(NameStr(form->relname));
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return name;
}

/*
 * Warn for the columns of relid that are of core's xid and defined by it:
 * attnum, or every column when attnum is 0; with retyped, only those the
 * ALTER TABLE under way retypes.
 */
static void
check_columns(Oid relid, AttrNumber attnum, bool retyped)
{
	char	   *relname = user_table_name(relid);
	Relation	rel;
	ScanKeyData key[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *found = NIL;
	ListCell   *lc;
	Oid			extnsp;
	char	   *extschema;

	if (relname == NULL)
		return;
	rel = table_open(AttributeRelationId, AccessShareLock);
	ScanKeyInit(&key[0], Anum_pg_attribute_attrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	if (attnum > 0)
		ScanKeyInit(&key[1], Anum_pg_attribute_attnum, BTEqualStrategyNumber,
					F_INT2EQ, Int16GetDatum(attnum));
	else
		ScanKeyInit(&key[1], Anum_pg_attribute_attnum, BTGreaterStrategyNumber,
					F_INT2GT, Int16GetDatum(0));
	scan = systable_beginscan(rel, AttributeRelidNumIndexId, true,
							  SnapshotSelf, 2, key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_attribute att = (Form_pg_attribute) GETSTRUCT(tuple);

		if (att->attnum <= 0 || att->attisdropped || !att->attislocal)
			continue;
		if (retyped)
		{
			bool		listed = false;

			foreach(lc, retyped_columns)
			{
				if (strcmp(NameStr(att->attname), (char *) lfirst(lc)) == 0)
					listed = true;
			}
			if (!listed)
				continue;
		}
		if (is_core_xid(att->atttypid))
			found = lappend(found, pstrdup(NameStr(att->attname)));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);

	if (found == NIL || !OidIsValid(extnsp = extension_schema()))
		return;
	extschema = get_namespace_name(extnsp);
	foreach(lc, found)
	{
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("column \"%s\" of table \"%s\" has type pg_catalog.xid",
						(char *) lfirst(lc), relname),
				 errdetail("pg_catalog.xid holds 32-bit transaction ids; an unqualified \"xid\" always means that type."),
				 errhint("For the identifiers of the xid extension write %s.xid.  SET xid.warn_core_xid = off silences this warning.",
						 quote_identifier(extschema ? extschema : "public"))));
	}
}

/*
 * The object access hook: a table created (subId 0) or a column added
 * (subId its number), not internally (the transient tables of a rewrite
 * are); a column altered, when the ALTER TABLE under way retypes one of
 * that name.
 */
static void
xid_object_access(ObjectAccessType access, Oid classId, Oid objectId,
				  int subId, void *arg)
{
	if (prev_object_access_hook)
		prev_object_access_hook(access, classId, objectId, subId, arg);
	if (classId != RelationRelationId || !xid_warn_core_xid_enabled)
		return;
	if (access == OAT_POST_CREATE && subId >= 0 &&
		!((ObjectAccessPostCreate *) arg)->is_internal)
		check_columns(objectId, (AttrNumber) subId, false);
	else if (access == OAT_POST_ALTER && subId > 0 && retyped_columns != NIL &&
			 !((ObjectAccessPostAlter *) arg)->is_internal)
		check_columns(objectId, (AttrNumber) subId, true);
}

/* The notes of a transaction go with it */
static void
xid_warn_xact_callback(XactEvent event, void *arg)
{
	retyped_columns = NIL;
}

/* From _PG_init: the setting, and the hook in this session */
void
xid_warn_init(void)
{
	DefineCustomBoolVariable("xid.warn_core_xid",
							 "Warns when DDL gives a table a column of core's pg_catalog.xid type.",
							 "An unqualified \"xid\" in DDL is always core's 32-bit transaction id type, not the xid extension's.",
							 &xid_warn_core_xid_enabled,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	prev_object_access_hook = object_access_hook;
	object_access_hook = xid_object_access;
	RegisterXactCallback(xid_warn_xact_callback, NULL);
}

/*
 * The event trigger function (ddl_command_start): by being called it has
 * loaded the library, and so the hook; it notes the columns an ALTER TABLE
 * retypes, from the parse tree, by name within the table the command
 * alters (nothing is looked up).
 */
PG_FUNCTION_INFO_V1(xid_warn_core_xid);
Datum
xid_warn_core_xid(PG_FUNCTION_ARGS)
{
	EventTriggerData *trigdata;
	ListCell   *lc;
	MemoryContext oldcxt;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_EVENT_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("function xid_warn_core_xid() must be called as an event trigger")));
	trigdata = (EventTriggerData *) fcinfo->context;
	retyped_columns = NIL;
	if (!xid_warn_core_xid_enabled || trigdata->parsetree == NULL ||
		!IsA(trigdata->parsetree, AlterTableStmt))
		PG_RETURN_VOID();
	oldcxt = MemoryContextSwitchTo(TopTransactionContext);
	foreach(lc, ((AlterTableStmt *) trigdata->parsetree)->cmds)
	{
		AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

		if (cmd->subtype == AT_AlterColumnType && cmd->name != NULL)
			retyped_columns = lappend(retyped_columns, pstrdup(cmd->name));
	}
	MemoryContextSwitchTo(oldcxt);
	PG_RETURN_VOID();
}
