/*-------------------------------------------------------------------------
 *
 * xid_catcache.c
 *	  The planner support's catalog caches: what a function is (its C
 *	  entry point, by OID), the >= and <= operators of an operator family,
 *	  and the extension's functions that plans call (looked up in the
 *	  extension's own schema; a missing one is an error, not a silently
 *	  worse plan).  The planner asks several times for every clause of every
 *	  partition, and each answer costs a catalog lookup.
 *
 * One invalidation idiom for all three.  Each catalog read here has a
 * generation, which a syscache callback bumps on any change to it (pg_proc
 * for the functions, pg_amop for the operators).  A cache remembers the
 * generation its contents were read in and is valid only while that is
 * still the catalog's.  Any catalog access can process invalidation
 * messages, and so run a callback, also in the middle of a lookup here and
 * in a caller between two uses of an answer.  So a lookup notes the
 * generation before it reads the catalog and keeps what it read only if
 * the generation is the same afterwards (it might describe the catalog as
 * it was before the change); callers get copies, never a pointer into a
 * cache; and a cache is emptied only at the start of a lookup, where
 * nobody holds anything of it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "xid_catcache.h"

/* A catalog's generation (see the file header) */
typedef struct CatalogGeneration
{
	int			cacheid;		/* the syscache whose changes bump it */
	bool		registered;		/* its callback is registered */
	uint64		generation;		/* from 1; 0 is no cache's */
} CatalogGeneration;

static CatalogGeneration proc_catalog = {PROCOID, false, 1};
static CatalogGeneration amop_catalog = {AMOPSTRATEGY, false, 1};

static void
catalog_changed(Datum arg, int cacheid, uint32 hashvalue)
{
	((CatalogGeneration *) DatumGetPointer(arg))->generation++;
}

/* The catalog's generation now (and its callback, the first time) */
static uint64
catalog_generation(CatalogGeneration *catalog)
{
	if (!catalog->registered)
	{
		CacheRegisterSyscacheCallback(catalog->cacheid, catalog_changed,
									  PointerGetDatum(catalog));
		catalog->registered = true;
	}
	return catalog->generation;
}


/* Functions' C entry points, by OID */
typedef struct EntryPoint
{
	Oid			funcid;			/* the key */
	PGFunction	fn;
} EntryPoint;

static HTAB *entry_points = NULL;
static uint64 entry_points_generation = 0;

PGFunction
xid_func_entry_point(Oid funcid)
{
	uint64		generation = catalog_generation(&proc_catalog);
	EntryPoint *entry;
	FmgrInfo	flinfo;

	if (entry_points != NULL && entry_points_generation != generation)
	{
		hash_destroy(entry_points);
		entry_points = NULL;
	}
	if (entry_points == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(EntryPoint);
		entry_points = hash_create("xid entry points", 64, &ctl,
								   HASH_ELEM | HASH_BLOBS);
		entry_points_generation = generation;
	}
	entry = hash_search(entry_points, &funcid, HASH_FIND, NULL);
	if (entry != NULL)
		return entry->fn;

	/* catalog access: a callback may run here */
	fmgr_info(funcid, &flinfo);
	if (catalog_generation(&proc_catalog) == generation)
	{
		entry = hash_search(entry_points, &funcid, HASH_ENTER, NULL);
		entry->fn = flinfo.fn_addr;
	}
	return flinfo.fn_addr;
}


/*
 * The >= and <= operators of the last operator family and type asked for:
 * each planned clause asks for them once or twice, and nearly always of the
 * same family.
 */
static struct
{
	uint64		generation;
	Oid			opfamily;
	Oid			type;
	Oid			ge;
	Oid			le;
}			ge_le;

void
xid_family_ge_le(Oid opfamily, Oid type, Oid *ge, Oid *le)
{
	uint64		generation = catalog_generation(&amop_catalog);

	if (ge_le.generation == generation && ge_le.opfamily == opfamily &&
		ge_le.type == type)
	{
		*ge = ge_le.ge;
		*le = ge_le.le;
		return;
	}
	*ge = get_opfamily_member(opfamily, type, type,
							  BTGreaterEqualStrategyNumber);
	*le = get_opfamily_member(opfamily, type, type,
							  BTLessEqualStrategyNumber);
	if (catalog_generation(&amop_catalog) == generation)
	{
		ge_le.opfamily = opfamily;
		ge_le.type = type;
		ge_le.ge = *ge;
		ge_le.le = *le;
		ge_le.generation = generation;
	}
}


/* An argument type of InvalidOid is the extension's type named in "ours" */
static const struct
{
	const char *name;
	int			nargs;
	Oid			argtypes[2];
	const char *ours;
	const char *signature;		/* for messages */
}			plan_func_sig[XID_NUM_PLAN_FUNCS] = {
	[XID_FN_RANGE_LOWER] = {"xid_range_lower_bound", 1, {InvalidOid}, "xidrange", "xidrange"},
	[XID_FN_RANGE_UPPER] = {"xid_range_upper_bound", 1, {InvalidOid}, "xidrange", "xidrange"},
	[XID_FN_PREFIX_LOWER] = {"xid_prefix_lower_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_PREFIX_UPPER] = {"xid_prefix_upper_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_LIKE_LOWER] = {"xid_like_lower_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_LIKE_UPPER] = {"xid_like_upper_bound", 1, {TEXTOID}, NULL, "text"},
	[XID_FN_TIME_LOWER] = {"xid_time_lower_bound", 2, {TIMESTAMPTZOID, BOOLOID},
	NULL, "timestamp with time zone, boolean"},
	[XID_FN_TIME_UPPER] = {"xid_time_upper_bound", 2, {TIMESTAMPTZOID, BOOLOID},
	NULL, "timestamp with time zone, boolean"},
	[XID_FN_TIME] = {"xid_time", 1, {InvalidOid}, "xid", "xid"},
};

/* The plan functions of the last schema asked for */
static uint64 plan_funcs_generation = 0;
static Oid	plan_funcs_nsp = InvalidOid;
static Oid	plan_funcs[XID_NUM_PLAN_FUNCS];

/*
 * The OID of one of the extension's plan functions, in schema nsp (the
 * schema of the function being planned, which is the extension's).  A
 * function that is missing or renamed is an error when a clause needs it:
 * without it the planner would quietly fall back to scanning the whole
 * table.
 */
Oid
xid_plan_func(Oid nsp, XidPlanFunc which)
{
	uint64		generation = catalog_generation(&proc_catalog);
	Oid			found[XID_NUM_PLAN_FUNCS];
	const Oid  *funcs = plan_funcs;

	if (plan_funcs_generation != generation || plan_funcs_nsp != nsp)
	{
		int			i;

		/*
		 * By name and argument types in the schema's own OID, as the syscache
		 * holds them: no search path and no privilege of the querying role is
		 * involved (a role may read a view over the extension's operators
		 * without USAGE on its schema).
		 */
		for (i = 0; i < XID_NUM_PLAN_FUNCS; i++)
		{
			Oid			argtypes[2];
			Oid			fn = InvalidOid;
			int			j;

			for (j = 0; j < plan_func_sig[i].nargs; j++)
				argtypes[j] = OidIsValid(plan_func_sig[i].argtypes[j]) ?
					plan_func_sig[i].argtypes[j] :
					GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
									CStringGetDatum(plan_func_sig[i].ours),
									ObjectIdGetDatum(nsp));
			if (OidIsValid(argtypes[0]))
				fn = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
									 CStringGetDatum(plan_func_sig[i].name),
									 PointerGetDatum(buildoidvector(argtypes,
																	plan_func_sig[i].nargs)),
									 ObjectIdGetDatum(nsp));
			found[i] = fn;
		}
		funcs = found;
		if (catalog_generation(&proc_catalog) == generation)
		{
			memcpy(plan_funcs, found, sizeof(plan_funcs));
			plan_funcs_nsp = nsp;
			plan_funcs_generation = generation;
		}
	}

	/*
	 * Only the function this clause needs must exist: a database still on an
	 * older version of the extension has no functions for the operators that
	 * came later, and needs none of them.
	 */
	if (!OidIsValid(funcs[which]))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("function %s.%s(%s) of extension \"xid\" does not exist",
						get_namespace_name(nsp), plan_func_sig[which].name,
						plan_func_sig[which].signature),
				 errdetail("The planner needs it for index conditions and partition pruning on parameters."),
				 errhint("Give the function back its name, or drop the extension and create it again.")));
	return funcs[which];
}
