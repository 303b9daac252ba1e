/*-------------------------------------------------------------------------
 *
 * xid_ulid.c
 *	  Conversions between xid and ULID (26-symbol text, or its 16 bytes
 *	  stored as a uuid) and from 64-bit ulid-flake ids, each keeping its
 *	  time.
 *
 * A ULID has the 128-bit layout of xid_uuid.c without a version or a
 * variant: the id's unix milliseconds in the first 48 bits, its 22 low
 * bits at bit 48, then zeros.  Its text is those 128 bits in 26 symbols of
 * Crockford's Base32, right-aligned.  Like the UUIDv7 conversions, the
 * ones from a ULID keep its time and the 22 bits that follow it, so they
 * keep order but not uniqueness.  A ulid-flake id (43-bit milliseconds
 * since 2024, 20 bits) fits whole: its conversion keeps uniqueness and
 * order exactly.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/uuid.h"

#include "compat.h"
#include "xid.h"
#include "xid_uuid.h"

/*
 * ulid-flake: a zero sign bit, 43 bits of milliseconds since
 * 2024-01-01T00:00:00Z (1704067200000 unix ms), 20 bits below them.
 */
#define FLAKE_EPOCH_UNIX_MS INT64CONST(1704067200000)
#define FLAKE_LOW_BITS		20

/* Crockford's Base32 as ULID writes it */
static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* The 22 bits after the time of a ULID's 16 bytes */
static uint32
ulid_low_bits(const unsigned char *b)
{
	return ((uint32) b[6] << 14) | ((uint32) b[7] << 6) | (b[8] >> 2);
}

/*
 * xid_from_ulid(uuid): the id of a ULID stored as a uuid (its 16 bytes, as
 * pgx_ulid casts it), keeping its time and the first 22 bits of its
 * randomness.  No version or variant: a ULID has none.
 */
PG_FUNCTION_INFO_V1(xid_from_ulid_uuid);
Datum
xid_from_ulid_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	PG_RETURN_XIDPAYLOAD(xid_of_unix_ms(xid_bytes_unix_ms(u->data),
										ulid_low_bits(u->data)));
}

/*
 * xid_to_ulid(xid): the id as a ULID's 26 symbols, with its time; the
 * 22 bits below the time lead the ULID's randomness, the rest is zero.
 */
PG_FUNCTION_INFO_V1(xid_to_ulid);
Datum
xid_to_ulid(PG_FUNCTION_ARGS)
{
	unsigned char b[16];
	char		out[27];
	int			i;

	xid_to_bytes(PG_GETARG_XIDPAYLOAD(0), false, b);

	/*
	 * 26 symbols of 5 bits are 130 bits: the 128 bits right-aligned, so the
	 * first symbol holds only 3.  Symbol i covers bits 5i-2 .. 5i+2.
	 */
	for (i = 0; i < 26; i++)
	{
		int			v = 0;
		int			k;

		for (k = 0; k < 5; k++)
		{
			int			bit = 5 * i + k - 2;

			v <<= 1;
			if (bit >= 0)
				v |= (b[bit / 8] >> (7 - bit % 8)) & 1;
		}
		out[i] = crockford[v];
	}
	out[26] = '\0';
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

/* The value of a Crockford symbol (either case), or -1 */
static int
crockford_value(char c)
{
	const char *p;

	if (c >= 'a' && c <= 'z')
		c = c - 'a' + 'A';
	if (c == '\0')
		return -1;
	p = strchr(crockford, c);
	return p ? (int) (p - crockford) : -1;
}

/*
 * xid_from_ulid(text): the id of a ULID's 26 symbols (either case), keeping
 * its time and the first 22 bits of its randomness.
 */
PG_FUNCTION_INFO_V1(xid_from_ulid_text);
Datum
xid_from_ulid_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	unsigned char b[16];
	int			i;

	memset(b, 0, sizeof(b));
	if (len != 26)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for a ulid: \"%s\"",
						text_to_cstring(t)),
				 errdetail("A ulid is 26 symbols of Crockford's Base32.")));
	for (i = 0; i < 26; i++)
	{
		int			v = crockford_value(s[i]);
		int			k;

		if (v < 0 || (i == 0 && v > 7))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for a ulid: \"%s\"",
							text_to_cstring(t)),
					 v < 0 ?
					 errdetail("A ulid is 26 symbols of Crockford's Base32.") :
					 errdetail("A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.")));
		for (k = 0; k < 5; k++)
		{
			int			bit = 5 * i + k - 2;

			if (bit >= 0 && ((v >> (4 - k)) & 1))
				b[bit / 8] |= 1 << (7 - bit % 8);
		}
	}
	PG_RETURN_XIDPAYLOAD(xid_of_unix_ms(xid_bytes_unix_ms(b), ulid_low_bits(b)));
}

/*
 * xid_from_ulid_flake(bigint): the id of a ulid-flake id, with its time;
 * its 20 bits below the time become the top 20 of the xid's 22, so the
 * conversion keeps both uniqueness and order.
 */
PG_FUNCTION_INFO_V1(xid_from_ulid_flake);
Datum
xid_from_ulid_flake(PG_FUNCTION_ARGS)
{
	int64		flake = PG_GETARG_INT64(0);
	int64		flake_ms;
	uint32		low;

	if (flake < 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("ulid-flake id %lld is out of range", (long long) flake),
				 errdetail("A ulid-flake id has a zero sign bit.")));
	flake_ms = flake >> FLAKE_LOW_BITS;
	low = (uint32) (flake & ((INT64CONST(1) << FLAKE_LOW_BITS) - 1));
	PG_RETURN_XIDPAYLOAD(xid_of_unix_ms(flake_ms + FLAKE_EPOCH_UNIX_MS,
										low << (XID_RANDOM_BITS - FLAKE_LOW_BITS)));
}
