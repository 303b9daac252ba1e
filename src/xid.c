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

/*
 * Load-time setup.  With shared_preload_libraries, also ask for the shared
 * memory that orders xid_new() across sessions (xid_generate.c).
 */
void
_PG_init(void)
{
	MarkGUCPrefixReserved("xid");

	if (process_shared_preload_libraries_in_progress)
		xid_generate_request_shmem();
}
