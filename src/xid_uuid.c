/*-------------------------------------------------------------------------
 *
 * xid_uuid.c
 *	  Conversions between xid and UUIDv7, keeping the id's time, and the
 *	  128-bit layout that a UUIDv7 and a ULID (xid_ulid.c) share.
 *
 * An xid as a UUIDv7 (RFC 9562) or a ULID is 128 bits: the id's instant as
 * unix milliseconds in the first 48 bits, then the 22 bits below the xid's
 * time field, then zeros.  In a UUID the version (7) and variant (10) take
 * their fixed places, so its 22 bits are rand_a (12 bits) and the first 10
 * bits of rand_b:
 *
 *	 bits 0-47	  unix_ts_ms		xid time + the xid epoch (1321009871111)
 *	 bits 48-51	  version 7
 *	 bits 52-63	  rand_a			the top 12 of the xid's 22 low bits
 *	 bits 64-65	  variant 10
 *	 bits 66-75	  rand_b, first 10	the bottom 10 of the xid's 22 low bits
 *	 bits 76-127  zero
 *
 * Both orders are lexicographic on the bits, so ids and their UUIDs (and
 * ULIDs) sort alike, and the round trip is exact.  Every xid converts: its
 * last instant (2151) is far below the 48-bit limit (10889).
 *
 * The other way, the functions named xid_from_<format>() take the time and
 * the 22 bits that follow it in the other format and drop the rest, so the
 * id sorts where the original did (ties aside) and an id converted to that
 * format comes back exactly.  They cannot keep uniqueness (a UUIDv7 or a
 * ULID carries up to 74 or 80 bits below its time, an xid 22):
 * docs/existing-rows.md says what that means for existing rows.  The cast
 * from uuid is strict: it accepts only what the cast to uuid makes, and
 * says so.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/uuid.h"

#include "compat.h"
#include "xid.h"
#include "xid_time.h"
#include "xid_uuid.h"

/* The 22 low bits of an xid inside the UUID's bits 52-63 and 66-75 */
#define UUID_RAND_A_BITS	12
#define UUID_RAND_B_BITS	(XID_RANDOM_BITS - UUID_RAND_A_BITS)

/* unix milliseconds fit the 48 bits of a UUIDv7 or a ULID */
#define UNIX_MS_BITS		48

StaticAssertDecl(UUID_RAND_B_BITS == 10, "rand_a and 10 bits of rand_b hold 22 bits");

/*
 * The xid of a unix millisecond and 22 bits; an error for a time an xid
 * cannot hold.
 */
uint64
xid_of_unix_ms(int64 unix_ms, uint32 low)
{
	int64		ms = xid_ms_from_unix_ms(unix_ms);

	xid_check_ms(ms);
	return XidMsGetPayload(ms, low);
}

/* The first 48 bits of 16 big-endian bytes: unix milliseconds */
int64
xid_bytes_unix_ms(const unsigned char *b)
{
	int64		ms = 0;
	int			i;

	for (i = 0; i < UNIX_MS_BITS / 8; i++)
		ms = (ms << 8) | b[i];
	return ms;
}

/*
 * An xid as 16 bytes: unix milliseconds, then the 22 low bits at bit 48
 * (a ULID) or around the version and variant (a UUIDv7), then zeros.
 */
void
xid_to_bytes(uint64 value, bool uuid, unsigned char *b)
{
	int64		unix_ms = xid_ms_to_unix_ms(XidPayloadGetMs(value));
	uint32		low = (uint32) (value & XID_RANDOM_MASK);
	int			i;

	memset(b, 0, 16);
	for (i = 0; i < UNIX_MS_BITS / 8; i++)
		b[i] = (unsigned char) (unix_ms >> (8 * (UNIX_MS_BITS / 8 - 1 - i)));
	if (uuid)
	{
		uint32		a = low >> UUID_RAND_B_BITS;	/* 12 bits */
		uint32		r = low & ((1 << UUID_RAND_B_BITS) - 1);	/* 10 bits */

		b[6] = (unsigned char) (0x70 | (a >> 8));
		b[7] = (unsigned char) (a & 0xff);
		b[8] = (unsigned char) (0x80 | (r >> 4));
		b[9] = (unsigned char) ((r & 0x0f) << 4);
	}
	else
	{
		b[6] = (unsigned char) (low >> 14);
		b[7] = (unsigned char) ((low >> 6) & 0xff);
		b[8] = (unsigned char) ((low & 0x3f) << 2);
	}
}

/* The 22 bits after the time of a UUIDv7 (around version and variant) */
static uint32
uuidv7_low_bits(const unsigned char *b)
{
	uint32		a = ((uint32) (b[6] & 0x0f) << 8) | b[7];
	uint32		r = ((uint32) (b[8] & 0x3f) << 4) | (b[9] >> 4);

	return (a << UUID_RAND_B_BITS) | r;
}

static bool
is_uuidv7(const unsigned char *b)
{
	return (b[6] >> 4) == 7 && (b[8] >> 6) == 2;
}

static char *
uuid_text(pg_uuid_t *u)
{
	return DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u)));
}

/*
 * xid_to_uuid(xid): the id as a UUIDv7 with its time (the cast to uuid).
 */
PG_FUNCTION_INFO_V1(xid_to_uuid);
Datum
xid_to_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));

	xid_to_bytes(PG_GETARG_XIDPAYLOAD(0), true, u->data);
	PG_RETURN_UUID_P(u);
}

/*
 * xid_from_uuid(uuid): the id that xid_to_uuid() made this UUID of (the
 * cast from uuid).  Any other UUID is an error: one that is not version 7,
 * or whose bits below the id's are not zero, is not an id, and a silent
 * truncation would make two UUIDs the same id.
 */
PG_FUNCTION_INFO_V1(xid_from_uuid);
Datum
xid_from_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	const unsigned char *b = u->data;
	bool		zero_tail = (b[9] & 0x0f) == 0;
	int			i;

	for (i = 10; i < 16; i++)
		zero_tail = zero_tail && b[i] == 0;
	if (!is_uuidv7(b) || !zero_tail)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uuid \"%s\" is not an xid", uuid_text(u)),
				 errdetail("An xid as a uuid is a version 7 uuid whose last 52 bits are zero."),
				 errhint("To make an id of any version 7 uuid, keeping its time, use xid_from_uuidv7().")));
	PG_RETURN_XIDPAYLOAD(xid_of_unix_ms(xid_bytes_unix_ms(b), uuidv7_low_bits(b)));
}

/*
 * xid_from_uuidv7(uuid): the id of a version 7 uuid, keeping its time and
 * the 22 bits that follow it (rand_a and the first 10 bits of rand_b).
 */
PG_FUNCTION_INFO_V1(xid_from_uuidv7);
Datum
xid_from_uuidv7(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	if (!is_uuidv7(u->data))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uuid \"%s\" is not a version 7 uuid", uuid_text(u)),
				 errdetail("Only a version 7 uuid carries a time."),
				 errhint("To make the id of a row keyed by another uuid, use xid_from_key(timestamptz, uuid) with the row's time.")));
	PG_RETURN_XIDPAYLOAD(xid_of_unix_ms(xid_bytes_unix_ms(u->data),
										uuidv7_low_bits(u->data)));
}
