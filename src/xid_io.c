/*-------------------------------------------------------------------------
 *
 * xid_io.c
 *	  Text and binary I/O of the xid type and its casts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/datetime.h"

#include "compat.h"
#include "uid11.h"
#include "xid.h"
#include "xid_io.h"

/*
 * Would the text read as a timestamptz?  Then a user most likely compared
 * an xid with a time written as an untyped literal, which PostgreSQL reads
 * as an xid (id >= '2026-01-01').
 */
static bool
looks_like_time(const char *str, size_t len)
{
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			dtype;
	int			tz;
	struct pg_tm tt;
	fsec_t		fsec;
	char	   *text;

	if (len == 0 || len > MAXDATELEN)
		return false;
	text = pnstrdup(str, len);

	if (ParseDateTime(text, workbuf, sizeof(workbuf), field, ftype,
					  MAXDATEFIELDS, &nf) != 0)
		return false;
#if PG_VERSION_NUM < 160000

	/*
	 * Before 16, DecodeDateTime() reports a time zone name it cannot find
	 * with ereport(ERROR) instead of returning an error code, so that a text
	 * such as "j2P5rG9cpN+" failed with "time zone ... not recognized"
	 * (22023) instead of xid's own error.  A field it would look up as a zone
	 * name and that names none is no time.
	 */
	for (int i = 0; i < nf; i++)
	{
		if (ftype[i] == DTK_DATE && isalpha((unsigned char) *field[i]) &&
			pg_tzset(field[i]) == NULL)
			return false;
	}
#endif
	return XID_DECODE_DATETIME(field, ftype, nf, &dtype, &tt, &fsec, &tz) == 0;
}

/*
 * errhint for text that is no xid: how to write a time, when it reads as
 * one, else what Base58 symbols are (with_alphabet) or nothing.
 */
static int
xid_input_hint(const char *str, size_t len, bool with_alphabet)
{
	if (looks_like_time(str, len))
		return errhint("To compare an xid with a time, write the time as '%s'::timestamptz.",
					   pnstrdup(str, len));
	if (with_alphabet)
		return errhint("Base58 symbols are the digits 1 to 9 and the letters A to Z and a to z, except 0, O, I and l.");
	return 0;
}

/*
 * errdetail and errhint for a byte outside the Base58 alphabet at offset
 * bad_pos of str; for use inside ereport().
 */
static int
xid_bad_symbol_detail(const char *str, size_t len, size_t bad_pos)
{
	int			charlen = pg_mblen(str + bad_pos);
	int			position = pg_mbstrlen_with_len(str, (int) bad_pos) + 1;

	if (bad_pos + charlen > len)
		charlen = (int) (len - bad_pos);
	errdetail("Character \"%s\" at position %d is not a Base58 symbol.",
			  pnstrdup(str + bad_pos, charlen), position);
	return xid_input_hint(str, len, true);
}

/*
 * Parse the canonical text form (exactly 11 Base58 symbols, at most
 * "jpXCZedGfVQ") of len bytes at str.  Errors are soft when escontext asks
 * for it; then the result is false.
 */
static bool
xid_parse_text(const char *str, size_t len, uint64 *result, Node *escontext)
{
	size_t		bad_pos = 0;
	uint64_t	value = 0;

	switch (uid11_decode(str, len, &value, &bad_pos))
	{
		case UID11_OK:
			*result = value;
			return true;
		case UID11_BAD_LENGTH:
			ereturn(escontext, false,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"",
							"xid", pnstrdup(str, len)),
					 errdetail("An xid is written as exactly 11 Base58 symbols."),
					 xid_input_hint(str, len, false)));
		case UID11_BAD_SYMBOL:
			ereturn(escontext, false,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"",
							"xid", pnstrdup(str, len)),
					 xid_bad_symbol_detail(str, len, bad_pos)));
		case UID11_OUT_OF_RANGE:
			ereturn(escontext, false,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("value \"%s\" is out of range for type %s",
							pnstrdup(str, len), "xid"),
					 errdetail("The largest xid is \"%s\".", UID11_MAX_TEXT)));
	}
	elog(ERROR, "unexpected uid11 decode status");
	return false;				/* keep compiler quiet */
}

/*
 * Closed bounds of the ids that start with the prefix of len bytes at str,
 * or an error for a prefix of no symbols, more than 11, or a byte outside
 * the alphabet.
 */
void
xid_prefix_bounds_or_error(const char *str, size_t len,
						   uint64 *lo, uint64 *hi, bool *empty)
{
	size_t		bad_pos = 0;
	uint64_t	l = 0,
				h = 0;

	switch (uid11_prefix_bounds(str, len, &l, &h, empty, &bad_pos))
	{
		case UID11_OK:
			*lo = l;
			*hi = h;
			return;
		case UID11_BAD_LENGTH:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("xid prefix \"%s\" has %d symbols",
							pnstrdup(str, len),
							pg_mbstrlen_with_len(str, (int) len)),
					 errhint("A prefix has 1 to 11 Base58 symbols.")));
			break;
		case UID11_BAD_SYMBOL:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for xid prefix: \"%s\"",
							pnstrdup(str, len)),
					 xid_bad_symbol_detail(str, len, bad_pos)));
			break;
		case UID11_OUT_OF_RANGE:
			break;
	}
	elog(ERROR, "unexpected uid11 prefix status");
}

/* The text of an xid, NUL-terminated, in buf[UID11_LEN + 1] */
static char *
xid_text(uint64 value, char *buf)
{
	uid11_encode(value, buf);
	buf[UID11_LEN] = '\0';
	return buf;
}

/*
 * Text input: exactly 11 Base58 symbols.
 */
PG_FUNCTION_INFO_V1(xid_in);
Datum
xid_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	uint64		value;

	if (!xid_parse_text(str, strlen(str), &value, fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_XIDPAYLOAD(value);
}

/*
 * Text output: exactly 11 Base58 symbols.
 */
PG_FUNCTION_INFO_V1(xid_out);
Datum
xid_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(xid_text(PG_GETARG_XIDPAYLOAD(0),
							   palloc(UID11_LEN + 1)));
}

/*
 * Binary input: the payload as 8 bytes, big-endian.
 */
PG_FUNCTION_INFO_V1(xid_recv);
Datum
xid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);

	PG_RETURN_XIDPAYLOAD((uint64) pq_getmsgint64(buf));
}

/*
 * Binary output: the payload as 8 bytes, big-endian.
 */
PG_FUNCTION_INFO_V1(xid_send);
Datum
xid_send(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_XIDPAYLOAD(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) value);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/*
 * Cast bigint to xid: the same number, so only 0 .. 2^63-1.
 */
PG_FUNCTION_INFO_V1(xid_from_int8);
Datum
xid_from_int8(PG_FUNCTION_ARGS)
{
	int64		value = PG_GETARG_INT64(0);

	if (value < 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("bigint %lld is out of range for type xid",
						(long long) value),
				 errdetail("Only a bigint from 0 to 9223372036854775807 converts to an xid.")));
	PG_RETURN_XIDPAYLOAD((uint64) value);
}

/*
 * Cast xid to bigint: the same number, so only payloads below 2^63.
 */
PG_FUNCTION_INFO_V1(xid_to_int8);
Datum
xid_to_int8(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_XIDPAYLOAD(0);

	if (value > (uint64) PG_INT64_MAX)
	{
		char		buf[UID11_LEN + 1];

		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("xid \"%s\" is out of range for type bigint",
						xid_text(value, buf)),
				 errdetail("Only an xid whose payload is below 2^63 converts to a bigint.")));
	}
	PG_RETURN_INT64((int64) value);
}

/*
 * Cast bytea to xid: exactly 8 bytes, big-endian.
 */
PG_FUNCTION_INFO_V1(xid_from_bytea);
Datum
xid_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	const unsigned char *p = (const unsigned char *) VARDATA_ANY(b);
	uint64		value = 0;
	int			i;

	if (VARSIZE_ANY_EXHDR(b) != 8)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("bytea of length %d does not match type xid",
						(int) VARSIZE_ANY_EXHDR(b)),
				 errdetail("An xid converts from exactly 8 bytes, most significant first.")));
	for (i = 0; i < 8; i++)
		value = (value << 8) | p[i];
	PG_RETURN_XIDPAYLOAD(value);
}

/*
 * Cast xid to bytea: 8 bytes, big-endian, the same as the binary form.
 */
PG_FUNCTION_INFO_V1(xid_to_bytea);
Datum
xid_to_bytea(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_XIDPAYLOAD(0);
	bytea	   *result = palloc(VARHDRSZ + 8);
	unsigned char *p = (unsigned char *) VARDATA(result);
	int			i;

	SET_VARSIZE(result, VARHDRSZ + 8);
	for (i = 7; i >= 0; i--)
	{
		p[i] = (unsigned char) (value & 0xFF);
		value >>= 8;
	}
	PG_RETURN_BYTEA_P(result);
}
