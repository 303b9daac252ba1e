------------------------------------------------------------------------------
-- Operators
------------------------------------------------------------------------------

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_eq,
	COMMUTATOR = OPERATOR(@extschema@.=),
	NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel,
	JOIN = eqjoinsel,
	HASHES,
	MERGES
);

CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>),
	NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel,
	JOIN = neqjoinsel
);

CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_lt,
	COMMUTATOR = OPERATOR(@extschema@.>),
	NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarltjoinsel
);

CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_le,
	COMMUTATOR = OPERATOR(@extschema@.>=),
	NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarlejoinsel
);

CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_gt,
	COMMUTATOR = OPERATOR(@extschema@.<),
	NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalargtjoinsel
);

CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=),
	NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalargejoinsel
);

