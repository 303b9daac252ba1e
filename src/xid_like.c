/*-------------------------------------------------------------------------
 *
 * xid_like.c
 *	  xid LIKE text and xid NOT LIKE text, which mean exactly
 *	  id::text LIKE pattern, and what a pattern says about the ids it can
 *	  match.
 *
 * An xid's text is exactly 11 Base58 symbols.  The fixed prefix of a
 * pattern (its symbols before the first wildcard, escapes undone) is a
 * range of ids.  When the rest of the pattern holds only wildcards, the
 * length of the text decides it, and the range is the whole truth; any
 * other character after the first wildcard needs a recheck, as core's
 * like_support.c does for text.  There is no ILIKE: Base58 is
 * case-sensitive, and folding case would change the id.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "utils/builtins.h"

#include "compat.h"
#include "uid11.h"
#include "xid.h"
#include "xid_bounds.h"
#include "xid_like.h"

/*
 * id::text LIKE pattern, through core's own matcher, so that wildcards,
 * escapes and collations behave exactly as they do for text.
 */
static bool
xid_text_like(FunctionCallInfo fcinfo)
{
	/* the int32 aligns the 4-byte header SET_VARSIZE writes */
	union
	{
		int32		align;
		char		buf[VARHDRSZ + UID11_LEN];
	}			idtext;
	text	   *t = (text *) idtext.buf;
	Oid			collation = PG_GET_COLLATION();

	SET_VARSIZE(t, VARHDRSZ + UID11_LEN);
	uid11_encode(PG_GETARG_XIDPAYLOAD(0), VARDATA(t));
	if (!OidIsValid(collation))
		collation = DEFAULT_COLLATION_OID;
	return DatumGetBool(DirectFunctionCall2Coll(textlike, collation,
												PointerGetDatum(t),
												PG_GETARG_DATUM(1)));
}

/*
 * xid ~~ text: does the xid's text match the LIKE pattern?
 */
PG_FUNCTION_INFO_V1(xid_like);
Datum
xid_like(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(xid_text_like(fcinfo));
}

/*
 * xid !~~ text: does the xid's text not match the LIKE pattern?
 */
PG_FUNCTION_INFO_V1(xid_not_like);
Datum
xid_not_like(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!xid_text_like(fcinfo));
}

/*
 * Does a LIKE pattern (with the default escape, backslash) end in an escape
 * that escapes nothing?  Matching it is an error.
 */
static bool
like_ends_in_escape(const char *pattern, size_t len)
{
	size_t		i = 0;

	while (i < len)
	{
		if (pattern[i] == '\\')
		{
			if (i + 1 == len)
				return true;
			i++;
		}
		i++;
	}
	return false;
}

/*
 * What a LIKE pattern (with the default escape, backslash) admits: the
 * bounds of its fixed prefix, whether they are exact (no recheck needed),
 * and how many literal characters follow the first wildcard (for
 * estimates).  UNKNOWN for a pattern that ends in an escape, whatever comes
 * before it: matching it is an error, which the matcher raises row by row
 * (and the bound functions at once, see like_bound()).
 */
XidBounds
xid_like_bounds(const char *pattern, size_t len, uint64 *lo, uint64 *hi,
				bool *exact, int *rest_literals)
{
	char		prefix[UID11_LEN];
	size_t		n = 0;
	size_t		i = 0;
	size_t		underscores = 0;
	bool		percent = false;
	uint64_t	l,
				h;

	*exact = true;
	*rest_literals = 0;
	if (like_ends_in_escape(pattern, len))
		return XID_BOUNDS_UNKNOWN;

	/* the fixed prefix, escapes undone */
	while (i < len && pattern[i] != '%' && pattern[i] != '_')
	{
		if (pattern[i] == '\\')
			i++;
		if (n == UID11_LEN)
			return XID_BOUNDS_NONE; /* longer than any xid's text */
		prefix[n++] = pattern[i++];
	}

	/* the rest: wildcards only decide the length, anything else rechecks */
	for (; i < len; i++)
	{
		if (pattern[i] == '%')
			percent = true;
		else if (pattern[i] == '_')
			underscores++;
		else
		{
			if (pattern[i] == '\\')
				i++;
			(*rest_literals)++;
		}
	}
	if (*rest_literals > 0)
		*exact = false;
	else if (percent ? n + underscores > UID11_LEN :
			 n + underscores != UID11_LEN)
		return XID_BOUNDS_NONE; /* every xid's text has 11 symbols */

	if (!uid11_starts_with_bounds(prefix, n, &l, &h))
		return XID_BOUNDS_NONE;
	*lo = l;
	*hi = h;
	return (l == 0 && h == PG_UINT64_MAX) ? XID_BOUNDS_ALL : XID_BOUNDS_SOME;
}

/*
 * The first and last xid a LIKE pattern can match, or NULL when it matches
 * none.  The planner uses them for index conditions, with a recheck, when
 * the pattern is a parameter.  A pattern that ends in a lone escape is the
 * error that matching it is, with core's message and SQLSTATE, whatever
 * comes before the escape.
 */
static Datum
like_bound(FunctionCallInfo fcinfo, bool upper)
{
	text	   *pattern = PG_GETARG_TEXT_PP(0);
	uint64		lo = 0,
				hi = PG_UINT64_MAX;
	bool		exact;
	int			rest_literals;

	if (like_ends_in_escape(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_ESCAPE_SEQUENCE),
				 errmsg("LIKE pattern must not end with escape character")));
	if (xid_like_bounds(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
						&lo, &hi, &exact, &rest_literals) == XID_BOUNDS_NONE)
		PG_RETURN_NULL();
	PG_RETURN_XIDPAYLOAD(upper ? hi : lo);
}

/* xid_like_lower_bound(text), xid_like_upper_bound(text) */
XID_BOUND_FUNC(xid_like_lower_bound, like_bound, false)
XID_BOUND_FUNC(xid_like_upper_bound, like_bound, true)
