/*-------------------------------------------------------------------------
 *
 * xid_uuid.h
 *	  The 128-bit layout that a UUIDv7 and a ULID of an xid share
 *	  (xid_uuid.c), for the ULID conversions (xid_ulid.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_UUID_H
#define XID_UUID_H

/* The xid of a unix millisecond and 22 bits (an error if out of range) */
extern uint64 xid_of_unix_ms(int64 unix_ms, uint32 low);

/* The unix milliseconds in the first 48 bits of 16 big-endian bytes */
extern int64 xid_bytes_unix_ms(const unsigned char *b);

/* An xid as 16 bytes: a UUIDv7's (uuid), else a ULID's */
extern void xid_to_bytes(uint64 value, bool uuid, unsigned char *b);

#endif							/* XID_UUID_H */
