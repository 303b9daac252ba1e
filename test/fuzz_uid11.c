/*
 * fuzz_uid11.c
 *	  libFuzzer target for the uid11 codec: strict decoding, prefix bounds and
 *	  encode/decode round trips, with their invariants checked.
 *
 *	  make fuzz FUZZ_SECONDS=600     (see README, "Robustness")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uid11.h"

#define REQUIRE(cond) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "invariant failed at %s:%d: %s\n", \
					__FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

static int
in_alphabet(unsigned char c)
{
	return c != 0 && memchr(uid11_alphabet, c, UID11_BASE) != NULL;
}

static void
check_decode(const char *s, size_t n)
{
	uint64_t	v = 0;
	size_t		bad = (size_t) -1;
	size_t		i;
	uid11_status st = uid11_decode(s, n, &v, &bad);

	switch (st)
	{
		case UID11_OK:
			{
				char		back[UID11_LEN];

				/* any accepted input re-encodes to itself */
				REQUIRE(n == UID11_LEN);
				uid11_encode(v, back);
				REQUIRE(memcmp(back, s, UID11_LEN) == 0);
				break;
			}
		case UID11_BAD_SYMBOL:
			REQUIRE(bad < n && !in_alphabet((unsigned char) s[bad]));
			for (i = 0; i < bad; i++)
				REQUIRE(in_alphabet((unsigned char) s[i]));
			break;
		case UID11_BAD_LENGTH:
			REQUIRE(n != UID11_LEN);
			for (i = 0; i < n; i++)
				REQUIRE(in_alphabet((unsigned char) s[i]));
			break;
		case UID11_OUT_OF_RANGE:
			/* well formed, and above the largest value's text */
			REQUIRE(n == UID11_LEN && memcmp(s, UID11_MAX_TEXT, UID11_LEN) > 0);
			break;
	}
}

static void
check_prefix(const char *s, size_t n)
{
	uint64_t	lo = 0,
				hi = 0;
	bool		empty = false;
	char		t[UID11_LEN];
	uint64_t	slo = 0,
				shi = 0;
	bool		some = uid11_starts_with_bounds(s, n, &slo, &shi);
	uid11_status st = uid11_prefix_bounds(s, n, &lo, &hi, &empty, NULL);

	/* starts-with: all for no text, else the prefix's bounds or nothing */
	if (n == 0)
		REQUIRE(some && slo == 0 && shi == UINT64_MAX);
	else if (st != UID11_OK || empty)
		REQUIRE(!some);
	else
		REQUIRE(some && slo == lo && shi == hi);
	if (st != UID11_OK)
	{
		REQUIRE(st == UID11_BAD_LENGTH || st == UID11_BAD_SYMBOL);
		return;
	}
	REQUIRE(n >= 1 && n <= UID11_LEN);
	if (empty)
	{
		/* the whole prefix lies above the largest value */
		REQUIRE(memcmp(s, UID11_MAX_TEXT, n) > 0);
		return;
	}
	/* ordered bounds, both with the prefix, and nothing outside them has it */
	REQUIRE(lo <= hi);
	uid11_encode(lo, t);
	REQUIRE(memcmp(t, s, n) == 0);
	uid11_encode(hi, t);
	REQUIRE(memcmp(t, s, n) == 0);
	if (lo > 0)
	{
		uid11_encode(lo - 1, t);
		REQUIRE(memcmp(t, s, n) != 0);
	}
	if (hi < UINT64_MAX)
	{
		uid11_encode(hi + 1, t);
		REQUIRE(memcmp(t, s, n) != 0);
	}
	REQUIRE(uid11_has_prefix(lo, s, n) && uid11_has_prefix(hi, s, n));
}

static void
check_round_trip(const uint8_t *data, size_t size)
{
	uint64_t	v = 0,
				back = 0;
	char		t[UID11_LEN];
	size_t		i;

	for (i = 0; i < 8 && i < size; i++)
		v = (v << 8) | data[i];
	uid11_encode(v, t);
	REQUIRE(uid11_decode(t, UID11_LEN, &back, NULL) == UID11_OK);
	REQUIRE(back == v);
	/* every prefix of an id's text contains the id */
	for (i = 1; i <= UID11_LEN; i++)
		REQUIRE(uid11_has_prefix(v, t, i));
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;

	check_decode(s, size);
	check_prefix(s, size);
	check_round_trip(data, size);
	return 0;
}
