/*-------------------------------------------------------------------------
 *
 * xid_move_replace.h
 *	  The ids of the rows the current transaction deleted from a table
 *	  whose key moves (xid_move_replace.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_MOVE_REPLACE_H
#define XID_MOVE_REPLACE_H

/* Remember the id of a row of tbl with this key, deleted by this transaction */
extern void xid_move_replace_remember(Oid tbl, Datum key, int16 keylen,
									  bool keybyval, Datum id);

/* Has this transaction deleted a row of a table whose key moves? */
extern bool xid_move_replace_pending(void);

/* The id of a row of tbl with this key that this transaction deleted */
extern bool xid_move_replace_find(Oid tbl, Datum key, int16 keylen,
								  bool keybyval, Datum *id);

#endif							/* XID_MOVE_REPLACE_H */
