/*-------------------------------------------------------------------------
 *
 * uid11.h
 *	  Base58 codec for uid11 identifiers: a 64-bit payload written as exactly
 *	  11 symbols of the Bitcoin alphabet, most significant symbol first.
 *
 * Plain C with no PostgreSQL headers, so that the codec can be unit-tested
 * and fuzzed on its own (test/test_uid11.c, test/fuzz_uid11.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef UID11_H
#define UID11_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UID11_LEN		11
#define UID11_BASE		58

/* The largest payload, 2^64-1, and its text form */
#define UID11_MAX_TEXT	"jpXCZedGfVQ"

typedef enum uid11_status
{
	UID11_OK = 0,
	UID11_BAD_LENGTH,			/* wrong number of bytes */
	UID11_BAD_SYMBOL,			/* a byte outside the alphabet */
	UID11_OUT_OF_RANGE			/* well formed, but above 2^64-1 */
} uid11_status;

extern const char uid11_alphabet[UID11_BASE + 1];

/*
 * Write the 11 symbols of "value" to "out" (not NUL-terminated).
 */
extern void uid11_encode(uint64_t value, char *out);

/*
 * Strictly decode "len" bytes at "in".  On UID11_BAD_SYMBOL, *bad_pos is set
 * to the offset of the first byte outside the alphabet (when bad_pos is not
 * NULL).  A bad symbol is reported before a bad length (it says more about
 * what is wrong), and a bad length before a value out of range.
 */
extern uid11_status uid11_decode(const char *in, size_t len, uint64_t *value,
								 size_t *bad_pos);

/*
 * Closed bounds [*lo, *hi] of every payload whose text starts with the
 * prefix of "len" (1..11) symbols at "in".  The upper bound is clamped to
 * 2^64-1; *empty is set when the whole prefix lies above 2^64-1, and then
 * *lo and *hi are left at 0.  Errors as for uid11_decode, except that a
 * prefix is never UID11_OUT_OF_RANGE.
 */
extern uid11_status uid11_prefix_bounds(const char *in, size_t len,
										uint64_t *lo, uint64_t *hi,
										bool *empty, size_t *bad_pos);

/*
 * What "starts with" means, once for every caller: closed bounds [*lo, *hi]
 * of the payloads whose text starts with the "len" bytes at "in", read as
 * text's starts-with reads them.  An empty text admits every payload; a text
 * that no payload's text starts with (longer than 11 bytes, a byte outside
 * the alphabet, or a prefix wholly above 2^64-1) admits none, and then the
 * result is false and *lo and *hi are left alone.
 */
extern bool uid11_starts_with_bounds(const char *in, size_t len,
									 uint64_t *lo, uint64_t *hi);

/*
 * Does the text of "value" start with the "len" bytes at "in"?  As
 * uid11_starts_with_bounds reads them.
 */
extern bool uid11_has_prefix(uint64_t value, const char *in, size_t len);

#endif							/* UID11_H */
