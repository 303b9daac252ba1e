------------------------------------------------------------------------------
-- LIKE and NOT LIKE
--
-- id LIKE p is exactly id::text LIKE p.  A pattern's fixed prefix becomes
-- an index range (exact for 'prefix%', with a recheck otherwise).  No
-- ILIKE: Base58 is case-sensitive.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_like(@extschema@.xid, text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_like'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_not_like(@extschema@.xid, text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_not_like'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_like(@extschema@.xid, text) IS
'does the text of the xid match the LIKE pattern?';
COMMENT ON FUNCTION @extschema@.xid_not_like(@extschema@.xid, text) IS
'does the text of the xid not match the LIKE pattern?';

CREATE OPERATOR @extschema@.~~ (
	LEFTARG = @extschema@.xid,
	RIGHTARG = text,
	FUNCTION = @extschema@.xid_like,
	NEGATOR = OPERATOR(@extschema@.!~~),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = likejoinsel
);

CREATE OPERATOR @extschema@.!~~ (
	LEFTARG = @extschema@.xid,
	RIGHTARG = text,
	FUNCTION = @extschema@.xid_not_like,
	NEGATOR = OPERATOR(@extschema@.~~),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = nlikejoinsel
);

