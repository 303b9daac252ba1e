------------------------------------------------------------------------------
-- hash
------------------------------------------------------------------------------

CREATE OPERATOR CLASS @extschema@.xid_hash_ops
DEFAULT FOR TYPE @extschema@.xid USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.xid_hash(@extschema@.xid),
	FUNCTION 2 @extschema@.xid_hash_extended(@extschema@.xid, bigint);

