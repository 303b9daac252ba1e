/*-------------------------------------------------------------------------
 *
 * uid11.c
 *	  Base58 codec for uid11 identifiers (see uid11.h).
 *
 * Encoding splits the payload into one leading symbol and two groups of five
 * symbols: 58^5 < 2^32, so after two 64-bit divisions by a constant (which
 * compilers turn into multiplications) every remaining step is 32-bit
 * arithmetic, two symbols at a time through a table of the 58^2 pairs.
 * Decoding maps bytes through a 256-entry table.
 *
 * The alphabet is in ASCII order and the text is left-padded with '1' (the
 * zero symbol), so byte order of encodings equals numeric order of payloads.
 *
 *-------------------------------------------------------------------------
 */
#include "uid11.h"

#include <string.h>

#include "uid11_pairs.h"

#define B58_3	UINT64_C(195112)	/* 58^3 */
#define B58_5	UINT64_C(656356768) /* 58^5 */

/*
 * Hand-derived constants, recomputed by the compiler.  UID11_STATIC_ASSERT
 * needs no PostgreSQL header (the codec is built without them).
 */
#define UID11_STATIC_ASSERT(cond, name) \
	typedef char uid11_static_assert_##name[(cond) ? 1 : -1]

UID11_STATIC_ASSERT(B58_3 == UINT64_C(58) * 58 * 58, b58_3);
UID11_STATIC_ASSERT(B58_5 == B58_3 * 58 * 58, b58_5);
/* encode5() works in 32 bits, and the leading symbol is below 58 */
UID11_STATIC_ASSERT(B58_5 <= UINT32_MAX, b58_5_fits_32_bits);
UID11_STATIC_ASSERT(UINT64_MAX / B58_5 / B58_5 < 58, top_symbol);

const char	uid11_alphabet[UID11_BASE + 1] =
"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/* 58^n for n = 0..10 (58^11 does not fit in 64 bits) */
static const uint64_t pow58[UID11_LEN] = {
	UINT64_C(1),
	UINT64_C(58),
	UINT64_C(58) * 58,
	B58_3,
	B58_3 * 58,
	B58_5,
	B58_5 * 58,
	B58_5 * 58 * 58,
	B58_5 * B58_3,
	B58_5 * B58_3 * 58,
	B58_5 * B58_5
};

#define BAD 0xFF

/* Symbol value of every byte, BAD for bytes outside the alphabet */
static const uint8_t decode_table[256] = {
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	/* '0' is excluded; '1'..'9' are 0..8 */
	BAD, 0, 1, 2, 3, 4, 5, 6, 7, 8, BAD, BAD, BAD, BAD, BAD, BAD,
	/* '@', 'A'..'H' are 9..16, 'I' excluded, 'J'..'N' 17..21, 'O' excluded */
	BAD, 9, 10, 11, 12, 13, 14, 15, 16, BAD, 17, 18, 19, 20, 21, BAD,
	/* 'P'..'Z' are 22..32 */
	22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, BAD, BAD, BAD, BAD, BAD,
	/* '`', 'a'..'k' are 33..43, 'l' excluded, 'm'..'o' 44..46 */
	BAD, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, BAD, 44, 45, 46,
	/* 'p'..'z' are 47..57 */
	47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD,
	BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD, BAD
};

/* Write the five symbols of v (< 58^5) to out[0..4] */
static inline void
encode5(uint32_t v, char *out)
{
	uint32_t	high = v / (uint32_t) B58_3;	/* the first two symbols */
	uint32_t	rest = v - high * (uint32_t) B58_3;
	uint32_t	mid = rest / 58;	/* the next two */

	memcpy(out, uid11_pairs + 2 * high, 2);
	memcpy(out + 2, uid11_pairs + 2 * mid, 2);
	out[4] = uid11_alphabet[rest - mid * 58];
}

void
uid11_encode(uint64_t value, char *out)
{
	uint64_t	high = value / B58_5;
	uint32_t	low = (uint32_t) (value - high * B58_5);
	uint32_t	top = (uint32_t) (high / B58_5);	/* < 43 */
	uint32_t	mid = (uint32_t) (high - (uint64_t) top * B58_5);

	out[0] = uid11_alphabet[top];
	encode5(mid, out + 1);
	encode5(low, out + 6);
}

/*
 * Are all len bytes in the alphabet?  If not, report the offset of the first
 * one that is not in *bad_pos (when bad_pos is not NULL).
 */
static inline bool
all_symbols(const unsigned char *in, size_t len, size_t *bad_pos)
{
	size_t		i;

	for (i = 0; i < len; i++)
	{
		if (decode_table[in[i]] == BAD)
		{
			if (bad_pos)
				*bad_pos = i;
			return false;
		}
	}
	return true;
}

/* Value of n (<= 10) valid symbols; fits in 64 bits because 58^10 < 2^64 */
static inline uint64_t
value_of(const unsigned char *in, size_t n)
{
	uint64_t	v = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		v = v * 58 + decode_table[in[i]];
	return v;
}

uid11_status
uid11_decode(const char *in, size_t len, uint64_t *value, size_t *bad_pos)
{
	const unsigned char *s = (const unsigned char *) in;
	uint64_t	v = 0;
	uint8_t		seen = 0;
	uint8_t		last;
	int			i;

	if (len != UID11_LEN)
		return all_symbols(s, len, bad_pos) ? UID11_BAD_LENGTH : UID11_BAD_SYMBOL;

	/*
	 * One pass: symbol values are below 0x40 and BAD is 0xFF, so OR-ing them
	 * together shows whether any byte was bad.  Ten symbols always fit in 64
	 * bits; the eleventh may overflow.
	 */
	for (i = 0; i < UID11_LEN - 1; i++)
	{
		uint8_t		d = decode_table[s[i]];

		seen |= d;
		v = v * 58 + d;
	}
	last = decode_table[s[UID11_LEN - 1]];
	if ((seen | last) & 0x80)
	{
		all_symbols(s, len, bad_pos);
		return UID11_BAD_SYMBOL;
	}
	if (v > (UINT64_MAX - last) / 58)
		return UID11_OUT_OF_RANGE;
	*value = v * 58 + last;
	return UID11_OK;
}

uid11_status
uid11_prefix_bounds(const char *in, size_t len, uint64_t *lo, uint64_t *hi,
					bool *empty, size_t *bad_pos)
{
	const unsigned char *s = (const unsigned char *) in;
	uint64_t	v;
	uint64_t	scale;

	if (!all_symbols(s, len, bad_pos))
		return UID11_BAD_SYMBOL;
	if (len < 1 || len > UID11_LEN)
		return UID11_BAD_LENGTH;

	*lo = *hi = 0;
	*empty = false;

	if (len == UID11_LEN)
	{
		if (uid11_decode(in, len, &v, NULL) != UID11_OK)
			*empty = true;
		else
			*lo = *hi = v;
		return UID11_OK;
	}

	v = value_of(s, len);
	scale = pow58[UID11_LEN - len];
	if (v > UINT64_MAX / scale)
	{
		/* even the lowest id with this prefix is above 2^64-1 */
		*empty = true;
		return UID11_OK;
	}
	*lo = v * scale;
	*hi = (*lo > UINT64_MAX - (scale - 1)) ? UINT64_MAX : *lo + (scale - 1);
	return UID11_OK;
}

bool
uid11_starts_with_bounds(const char *in, size_t len, uint64_t *lo,
						 uint64_t *hi)
{
	uint64_t	l,
				h;
	bool		empty;

	if (len == 0)
	{
		*lo = 0;
		*hi = UINT64_MAX;
		return true;
	}
	if (uid11_prefix_bounds(in, len, &l, &h, &empty, NULL) != UID11_OK ||
		empty)
		return false;
	*lo = l;
	*hi = h;
	return true;
}

bool
uid11_has_prefix(uint64_t value, const char *in, size_t len)
{
	uint64_t	lo,
				hi;

	return uid11_starts_with_bounds(in, len, &lo, &hi) &&
		value >= lo && value <= hi;
}
