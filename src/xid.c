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
 * xid.node_bits and xid.node_id: the node number xid_new() puts into the
 * top bits of the 22 low bits.  -1 is "not set".  They are set in the
 * server's configuration and take effect on reload (PGC_SIGHUP), never per
 * session: a session cannot claim another server's node number.  A reload
 * cannot make the server repeat an id: each session reads the whole file at
 * a command boundary, so it never makes an id with one new value and one
 * old, and every id is above its database's last one whatever the layout
 * (xid_generate.c).  PGC_POSTMASTER is not an option: PostgreSQL allows it
 * only for libraries in shared_preload_libraries, and on 17+ xid works
 * without.  Whether the pair fits is checked where it is used
 * (xid_node_layout), and at server start when preloaded, as a check hook
 * cannot see a value that comes later in postgresql.conf.
 */
int			xid_node_bits = 0;
int			xid_node_id = -1;

/*
 * Load-time setup: the settings, and the hook of the core-xid warning
 * (xid_warn.c).  With shared_preload_libraries, also ask for the shared
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
	DefineCustomIntVariable("xid.node_bits",
							"Number of the 22 low bits of new xids that hold the node number (0 = none).",
							"Servers that generate ids for the same data each need their own xid.node_id.",
							&xid_node_bits,
							0, 0, XID_MAX_NODE_BITS,
							PGC_SIGHUP,
							0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("xid.node_id",
							"Node number of this server in new xids (-1 = not set).",
							"From 0 to 2^xid.node_bits - 1; required when xid.node_bits is above 0.",
							&xid_node_id,
							-1, -1, (1 << XID_MAX_NODE_BITS) - 1,
							PGC_SIGHUP,
							0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("xid.max_ahead",
							"How far the time in new xids may run ahead of the clock (0 = no bound).",
							"New ids stay above every id issued before, also when the clock goes back; beyond this, xid_new() fails instead.",
							&xid_max_ahead_ms,
							0, 0, INT_MAX,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("xid");

	/* the core-xid warning's hook, in every session that loads the library */
	xid_warn_init();
	/* and the one that forgets the generator state of a dropped database */
	xid_generate_init();

	if (process_shared_preload_libraries_in_progress)
	{
		/* a server with a node layout that does not fit does not start */
		int			counter_bits;
		uint64		node_field;

		xid_node_layout(&counter_bits, &node_field);
		xid_generate_request_shmem();
	}
}
