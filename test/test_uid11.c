/*
 * test_uid11.c
 *	  Unit tests of the uid11 Base58 codec (src/uid11.c), independent of
 *	  PostgreSQL.  Prints one line per case and a closing "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uid11.h"

static int	n_passed;
static int	n_failed;
static int	case_failed;

#define CHECK(cond) \
	do { \
		if (!(cond)) \
		{ \
			if (case_failed++ < 5) \
				fprintf(stderr, "  %s:%d: check failed: %s\n", \
						__FILE__, __LINE__, #cond); \
		} \
	} while (0)

static void
end_case(const char *name)
{
	printf("%s %s\n", case_failed ? "FAIL" : "ok  ", name);
	if (case_failed)
		n_failed++;
	else
		n_passed++;
	case_failed = 0;
}

/* splitmix64: deterministic pseudo-random payloads */
static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);

static uint64_t
next_rand(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Reference encoder: plain repeated division */
static void
slow_encode(uint64_t v, char *out)
{
	int			i;

	for (i = UID11_LEN - 1; i >= 0; i--)
	{
		out[i] = uid11_alphabet[v % 58];
		v /= 58;
	}
}

static int
decode_ok(const char *s, uint64_t *v)
{
	return uid11_decode(s, strlen(s), v, NULL) == UID11_OK;
}

/* the test vectors of docs/format.md (section 7) and the extremes */
static void
test_spec_vectors(void)
{
	static const struct
	{
		uint64_t	payload;
		const char *text;
	}			vec[] = {
		{UINT64_C(0x0000000000000000), "11111111111"},
		{UINT64_C(0x0000000000400000), "1111111NVpb"},
		{UINT64_C(0x0001499700000000), "113q8KFkAEs"},
		{UINT64_C(1), "11111111112"},
		{UINT64_C(57), "1111111111z"},
		{UINT64_C(58), "11111111121"},
		{UINT64_MAX, "jpXCZedGfVQ"},
	};
	size_t		i;

	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++)
	{
		char		buf[UID11_LEN + 1] = {0};
		uint64_t	v = 1234;

		uid11_encode(vec[i].payload, buf);
		CHECK(strcmp(buf, vec[i].text) == 0);
		CHECK(decode_ok(vec[i].text, &v));
		CHECK(v == vec[i].payload);
	}
	/* the +1 ms and +1 day vectors of docs/format.md are (ms << 22) */
	CHECK(UINT64_C(0x0000000000400000) == (UINT64_C(1) << 22));
	CHECK(UINT64_C(0x0001499700000000) == (UINT64_C(86400000) << 22));
	end_case("spec vectors and extremes");
}

static void
test_alphabet_table(void)
{
	int			c;

	CHECK(strlen(uid11_alphabet) == UID11_BASE);
	/* alphabet is strictly ascending in ASCII */
	for (c = 1; c < UID11_BASE; c++)
		CHECK(uid11_alphabet[c - 1] < uid11_alphabet[c]);

	/* every byte: accepted exactly when in the alphabet, at every position */
	for (c = 0; c < 256; c++)
	{
		int			pos;
		int			in_alpha = c != 0 && strchr(uid11_alphabet, c) != NULL;

		for (pos = 0; pos < UID11_LEN; pos++)
		{
			char		s[UID11_LEN + 1] = "11111111111";
			uint64_t	v;
			size_t		bad = 99;
			uid11_status st;

			s[pos] = (char) c;
			st = uid11_decode(s, UID11_LEN, &v, &bad);
			if (in_alpha)
			{
				uint64_t	expect = (uint64_t) (strchr(uid11_alphabet, c) - uid11_alphabet);
				int			k;

				for (k = pos + 1; k < UID11_LEN; k++)
					expect *= 58;
				if (pos == 0 && c > 'j')
				{
					/* 43 * 58^10 and up exceed 2^64-1 */
					CHECK(st == UID11_OUT_OF_RANGE);
					continue;
				}
				CHECK(st == UID11_OK);
				CHECK(v == expect);
			}
			else
			{
				CHECK(st == UID11_BAD_SYMBOL);
				CHECK(bad == (size_t) pos);
			}
		}
	}
	end_case("every byte in every position");
}

static void
test_single_symbol_errors(void)
{
	const char *bad[] = {"0", "O", "I", "l", " ", "-", "_", "+", "/", "=", "\xc3", "\xff"};
	size_t		i;
	uint64_t	v;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		char		s[UID11_LEN];
		size_t		pos = 99;
		uint64_t	lo,
					hi;
		bool		empty;

		memcpy(s, "5cnEkaefSdu", UID11_LEN);
		s[3] = bad[i][0];
		CHECK(uid11_decode(s, UID11_LEN, &v, &pos) == UID11_BAD_SYMBOL);
		CHECK(pos == 3);
		pos = 99;
		CHECK(uid11_prefix_bounds(s, 4, &lo, &hi, &empty, &pos) == UID11_BAD_SYMBOL);
		CHECK(pos == 3);
	}
	end_case("single-symbol errors");
}

static void
test_lengths(void)
{
	const char *s = "5cnEkaefSdu5cnEkaefSdu";
	size_t		len;
	uint64_t	v,
				lo,
				hi;
	bool		empty;

	for (len = 0; len <= 22; len++)
	{
		CHECK((uid11_decode(s, len, &v, NULL) == UID11_OK) == (len == 11));
		if (len >= 1 && len <= 11)
			CHECK(uid11_prefix_bounds(s, len, &lo, &hi, &empty, NULL) == UID11_OK);
		else
			CHECK(uid11_prefix_bounds(s, len, &lo, &hi, &empty, NULL) == UID11_BAD_LENGTH);
	}
	/* symbols are checked before length */
	CHECK(uid11_decode("0000", 4, &v, NULL) == UID11_BAD_SYMBOL);
	CHECK(uid11_decode("1111", 4, &v, NULL) == UID11_BAD_LENGTH);
	CHECK(uid11_prefix_bounds("111111111110", 12, &lo, &hi, &empty, NULL) == UID11_BAD_SYMBOL);
	/* symbols are checked before range */
	CHECK(uid11_decode("zzzzzzzzzz0", 11, &v, NULL) == UID11_BAD_SYMBOL);
	end_case("lengths");
}

static void
test_max_and_overflow(void)
{
	uint64_t	v;

	CHECK(decode_ok("jpXCZedGfVQ", &v) && v == UINT64_MAX);
	CHECK(uid11_decode("jpXCZedGfVR", 11, &v, NULL) == UID11_OUT_OF_RANGE);
	CHECK(uid11_decode("jpXCZedGfW1", 11, &v, NULL) == UID11_OUT_OF_RANGE);
	CHECK(uid11_decode("jpXCZedGfVz", 11, &v, NULL) == UID11_OUT_OF_RANGE);
	CHECK(uid11_decode("zzzzzzzzzzz", 11, &v, NULL) == UID11_OUT_OF_RANGE);
	CHECK(uid11_decode("k1111111111", 11, &v, NULL) == UID11_OUT_OF_RANGE);
	CHECK(decode_ok("jpXCZedGfVP", &v) && v == UINT64_MAX - 1);
	CHECK(decode_ok("jpXCZedGfV1", &v) && v == UINT64_MAX - 23);
	end_case("maximum value and overflow");
}

static void
test_round_trips(void)
{
	long		i;

	rng_state = 42;
	for (i = 0; i < 2000000; i++)
	{
		uint64_t	p = next_rand();
		uint64_t	back = 0;
		char		a[UID11_LEN],
					b[UID11_LEN];

		/* also cover small and boundary payloads */
		if (i % 4 == 1)
			p >>= (i / 4) % 64;
		uid11_encode(p, a);
		slow_encode(p, b);
		CHECK(memcmp(a, b, UID11_LEN) == 0);
		CHECK(uid11_decode(a, UID11_LEN, &back, NULL) == UID11_OK);
		CHECK(back == p);
	}
	end_case("2,000,000 random round trips against a reference encoder");
}

static void
test_order(void)
{
	long		i;

	rng_state = 7;
	for (i = 0; i < 1000000; i++)
	{
		uint64_t	x = next_rand(),
					y = next_rand();
		char		a[UID11_LEN],
					b[UID11_LEN];
		int			c;

		if (i % 3 == 0)
			y = x + (next_rand() % 1000) - 500; /* near neighbours */
		uid11_encode(x, a);
		uid11_encode(y, b);
		c = memcmp(a, b, UID11_LEN);
		CHECK((x < y) == (c < 0));
		CHECK((x == y) == (c == 0));
		CHECK((x > y) == (c > 0));
	}
	end_case("byte order of encodings equals numeric order");
}

static void
test_prefix_bounds(void)
{
	uint64_t	lo,
				hi;
	bool		empty;
	long		i;

	/* one symbol */
	CHECK(uid11_prefix_bounds("1", 1, &lo, &hi, &empty, NULL) == UID11_OK);
	CHECK(!empty && lo == 0 && hi == UINT64_C(430804206899405823));
	CHECK(uid11_prefix_bounds("2", 1, &lo, &hi, &empty, NULL) == UID11_OK);
	CHECK(!empty && lo == UINT64_C(430804206899405824) && hi == UINT64_C(861608413798811647));
	/* clamp: the prefix of the maximum */
	CHECK(uid11_prefix_bounds("jpXC", 4, &lo, &hi, &empty, NULL) == UID11_OK);
	CHECK(!empty && hi == UINT64_MAX && lo < hi);
	CHECK(uid11_prefix_bounds("j", 1, &lo, &hi, &empty, NULL) == UID11_OK);
	CHECK(!empty && lo == UINT64_C(42) * UINT64_C(430804206899405824) && hi == UINT64_MAX);
	/* wholly above the maximum */
	CHECK(uid11_prefix_bounds("z", 1, &lo, &hi, &empty, NULL) == UID11_OK && empty);
	CHECK(uid11_prefix_bounds("k", 1, &lo, &hi, &empty, NULL) == UID11_OK && empty);
	CHECK(uid11_prefix_bounds("jpXD", 4, &lo, &hi, &empty, NULL) == UID11_OK && empty);
	CHECK(uid11_prefix_bounds("jpXCZedGfVR", 11, &lo, &hi, &empty, NULL) == UID11_OK && empty);
	/* eleven symbols is one value */
	CHECK(uid11_prefix_bounds("jpXCZedGfVQ", 11, &lo, &hi, &empty, NULL) == UID11_OK);
	CHECK(!empty && lo == UINT64_MAX && hi == UINT64_MAX);

	/*
	 * random ids: every prefix's bounds contain it, and the bounds' texts
	 * share the prefix while their neighbours outside do not
	 */
	rng_state = 99;
	for (i = 0; i < 200000; i++)
	{
		uint64_t	p = next_rand();
		char		t[UID11_LEN],
					u[UID11_LEN];
		size_t		n = 1 + (size_t) (i % UID11_LEN);

		uid11_encode(p, t);
		CHECK(uid11_prefix_bounds(t, n, &lo, &hi, &empty, NULL) == UID11_OK);
		CHECK(!empty && lo <= p && p <= hi);
		CHECK(uid11_has_prefix(p, t, n));
		uid11_encode(lo, u);
		CHECK(memcmp(u, t, n) == 0);
		uid11_encode(hi, u);
		CHECK(memcmp(u, t, n) == 0);
		if (lo > 0)
		{
			uid11_encode(lo - 1, u);
			CHECK(memcmp(u, t, n) != 0);
			CHECK(!uid11_has_prefix(lo - 1, t, n));
		}
		if (hi < UINT64_MAX)
		{
			uid11_encode(hi + 1, u);
			CHECK(memcmp(u, t, n) != 0);
			CHECK(!uid11_has_prefix(hi + 1, t, n));
		}
	}
	/* has_prefix text semantics */
	CHECK(uid11_has_prefix(12345, "", 0));
	CHECK(!uid11_has_prefix(0, "0", 1));
	CHECK(!uid11_has_prefix(0, "111111111111", 12));
	end_case("prefix bounds");
}

static void
test_starts_with_bounds(void)
{
	uint64_t	lo = 7,
				hi = 7,
				plo,
				phi;
	bool		empty;

	/* an empty text admits everything */
	CHECK(uid11_starts_with_bounds("", 0, &lo, &hi) && lo == 0 && hi == UINT64_MAX);
	/* a text no id starts with admits nothing, and leaves the bounds alone */
	lo = hi = 7;
	CHECK(!uid11_starts_with_bounds("0", 1, &lo, &hi));
	CHECK(!uid11_starts_with_bounds("5c l", 4, &lo, &hi));
	CHECK(!uid11_starts_with_bounds("111111111111", 12, &lo, &hi));
	CHECK(!uid11_starts_with_bounds("z", 1, &lo, &hi));
	CHECK(!uid11_starts_with_bounds("jpXCZedGfVR", 11, &lo, &hi));
	CHECK(lo == 7 && hi == 7);
	/* a real prefix: the same bounds as uid11_prefix_bounds */
	CHECK(uid11_starts_with_bounds("5cnE", 4, &lo, &hi));
	CHECK(uid11_prefix_bounds("5cnE", 4, &plo, &phi, &empty, NULL) == UID11_OK);
	CHECK(!empty && lo == plo && hi == phi);
	CHECK(uid11_starts_with_bounds("jpXC", 4, &lo, &hi) && hi == UINT64_MAX);
	CHECK(uid11_starts_with_bounds("jpXCZedGfVQ", 11, &lo, &hi) &&
		  lo == UINT64_MAX && hi == UINT64_MAX);
	end_case("starts-with bounds");
}

int
main(void)
{
	test_spec_vectors();
	test_alphabet_table();
	test_single_symbol_errors();
	test_lengths();
	test_max_and_overflow();
	test_round_trips();
	test_order();
	test_prefix_bounds();
	test_starts_with_bounds();
	printf("codec: %d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
