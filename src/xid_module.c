/*-------------------------------------------------------------------------
 *
 * xid_module.c
 *	  Module setup of the xid extension: the magic block and _PG_init,
 *	  which calls each module's init function.  (src/xid.h, the type's
 *	  installed header, belongs to no .c file: every module uses it.)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/guc.h"

#include "compat.h"
#include "xid_generate.h"
#include "xid_mark.h"
#include "xid_shmem.h"
#include "xid_warn.h"

XID_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);

/*
 * Load-time setup.  Each module registers its own settings and hooks: the
 * core-xid warning (xid_warn.c), the durable mark (xid_mark.c), the shared
 * state (xid_shmem.c), which with shared_preload_libraries also asks for
 * the shared memory that orders xid_new() across sessions, and the
 * generator (xid_generate.c).  The "xid." prefix is reserved once they all
 * have.
 */
void
_PG_init(void)
{
	xid_warn_init();
	xid_mark_init();
	xid_shmem_init();
	xid_generate_init();
	MarkGUCPrefixReserved("xid");
}
