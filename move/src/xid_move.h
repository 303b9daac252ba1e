/*-------------------------------------------------------------------------
 *
 * xid_move.h
 *	  What the files of xid_move's library share.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_MOVE_H
#define XID_MOVE_H

/* The owner of a relation, or an error if there is no such relation */
extern Oid	xid_move_rel_owner(Oid relid);

#endif							/* XID_MOVE_H */
