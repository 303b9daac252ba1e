/*-------------------------------------------------------------------------
 *
 * xid_io.h
 *	  What xid_io.c, the text and binary I/O of the type, offers the other
 *	  files: the prefix of an xid's text, read with the input's errors.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_IO_H
#define XID_IO_H

extern void xid_prefix_bounds_or_error(const char *str, size_t len,
									   uint64 *lo, uint64 *hi, bool *empty);

#endif							/* XID_IO_H */
