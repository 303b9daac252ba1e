/*-------------------------------------------------------------------------
 *
 * xid_move_module.c
 *	  Module magic of xid_move's library, which holds what of the move
 *	  runs for other roles: the statements of a step, run as the owner of
 *	  the tables (xid_move_run.c), and the writers' triggers
 *	  (xid_move_trigger.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

/* 18 can record the name and version of the library */
#if PG_VERSION_NUM >= 180000
#define XID_MOVE_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "xid_move", .version = "1.3")
#else
#define XID_MOVE_MODULE_MAGIC PG_MODULE_MAGIC
#endif

XID_MOVE_MODULE_MAGIC;
