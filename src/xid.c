/*-------------------------------------------------------------------------
 *
 * xid.c
 *	  Module setup of the xid extension: the magic block, _PG_init and
 *	  every configuration parameter.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include "miscadmin.h"
#include "utils/guc.h"

XID_MODULE_MAGIC;

/* xid.warn_core_xid: warn when DDL makes a pg_catalog.xid column */
bool		xid_warn_core_xid_enabled = true;

/*
 * Load-time setup.  With shared_preload_libraries, also ask for the shared
 * memory that orders xid_new() across sessions (xid_generate.c).
 */
void
_PG_init(void)
{
	DefineCustomBoolVariable("xid.warn_core_xid",
							 "Warns when DDL gives a table a column of core's pg_catalog.xid type.",
							 "An unqualified \"xid\" in DDL is always core's 32-bit transaction id type, not the xid extension's.",
							 &xid_warn_core_xid_enabled,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("xid");

	if (process_shared_preload_libraries_in_progress)
		xid_generate_request_shmem();
}
