/*-------------------------------------------------------------------------
 *
 * xid_warn.h
 *	  The warning for columns of core's pg_catalog.xid (xid_warn.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_WARN_H
#define XID_WARN_H

/* From _PG_init: the setting xid.warn_core_xid and the hook */
extern void xid_warn_init(void);

#endif							/* XID_WARN_H */
