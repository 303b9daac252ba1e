------------------------------------------------------------------------------
-- btree
------------------------------------------------------------------------------

CREATE OPERATOR CLASS @extschema@.xid_btree_ops
DEFAULT FOR TYPE @extschema@.xid USING btree AS
	OPERATOR 1 @extschema@.<,
	OPERATOR 2 @extschema@.<=,
	OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=,
	OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.xid_cmp(@extschema@.xid, @extschema@.xid),
	FUNCTION 2 @extschema@.xid_sortsupport(internal),
	-- equal values are the same bytes: deduplication is safe
	FUNCTION 4 btequalimage(oid);

CREATE AGGREGATE @extschema@.min(@extschema@.xid) (
	SFUNC = @extschema@.xid_smaller,
	STYPE = @extschema@.xid,
	COMBINEFUNC = @extschema@.xid_smaller,
	SORTOP = OPERATOR(@extschema@.<),
	PARALLEL = SAFE
);

CREATE AGGREGATE @extschema@.max(@extschema@.xid) (
	SFUNC = @extschema@.xid_larger,
	STYPE = @extschema@.xid,
	COMBINEFUNC = @extschema@.xid_larger,
	SORTOP = OPERATOR(@extschema@.>),
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE @extschema@.min(@extschema@.xid) IS 'smallest xid';
COMMENT ON AGGREGATE @extschema@.max(@extschema@.xid) IS 'largest xid';

