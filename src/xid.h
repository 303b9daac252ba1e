/*-------------------------------------------------------------------------
 *
 * xid.h
 *	  The xid type in C: its datum, its payload and the layout of the bits.
 *
 * Installed in $(pg_config --includedir-server)/extension/xid/, so that
 * other extensions can take and return xids: include "postgres.h" first,
 * as for any server header, then "extension/xid/xid.h".  Nothing else of
 * the extension's is declared here; each of its files has its own header.
 *
 *-------------------------------------------------------------------------
 */
#ifndef XID_H
#define XID_H

#include "fmgr.h"

/*
 * The type is an unsigned 64-bit integer passed by value, which needs a
 * 64-bit Datum: stop here rather than build a library that cannot work.
 */
#if SIZEOF_DATUM < 8
#error "the xid extension needs a 64-bit platform (8-byte Datum)"
#endif

/*
 * An xid is its unsigned 64-bit payload, passed by value.  Order, equality
 * and hashing are those of the unsigned integer.
 */
#define DatumGetXidPayload(X)	DatumGetUInt64(X)
#define XidPayloadGetDatum(X)	UInt64GetDatum(X)
#define PG_GETARG_XIDPAYLOAD(n) DatumGetXidPayload(PG_GETARG_DATUM(n))
#define PG_RETURN_XIDPAYLOAD(x) return XidPayloadGetDatum(x)

/*
 * The xid profile: 42 bits of milliseconds since the epoch, then 22 bits
 * that the generator fills (xid_time.c has the epoch and every conversion).
 */
#define XID_MS_BITS			42
#define XID_RANDOM_BITS		22
#define XID_RANDOM_MASK		((UINT64CONST(1) << XID_RANDOM_BITS) - 1)
#define XID_MAX_MS			((INT64CONST(1) << XID_MS_BITS) - 1)

StaticAssertDecl(XID_MS_BITS + XID_RANDOM_BITS == 64,
				 "the xid fields fill 64 bits");

/* The millisecond field of a payload, and the payload of a millisecond */
#define XidPayloadGetMs(p)		((int64) ((p) >> XID_RANDOM_BITS))
#define XidMsGetPayload(ms, low) \
	(((uint64) (ms) << XID_RANDOM_BITS) | ((uint64) (low) & XID_RANDOM_MASK))

/* At most 12 of the 22 low bits hold a node number (4,096 nodes) */
#define XID_MAX_NODE_BITS	12

#endif							/* XID_H */
