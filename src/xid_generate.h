/*-------------------------------------------------------------------------
 *
 * xid_generate.h
 *	  The generator of new xids (xid_generate.c): its setup.
 *
 * The generator calls the durable mark (xid_mark.h) and finds its
 * database's state through xid_shmem.h, never the other way.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_GENERATE_H
#define XID_GENERATE_H

/*
 * From _PG_init: the settings xid.node_bits and xid.node_id, checked at
 * server start with shared_preload_libraries
 */
extern void xid_generate_init(void);

#endif							/* XID_GENERATE_H */
