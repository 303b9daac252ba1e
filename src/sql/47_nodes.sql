------------------------------------------------------------------------------
-- Node numbers
--
-- With xid.node_bits > 0, xid_new() puts xid.node_id into the top bits of
-- the 22 low bits, so that servers with different node ids never make the
-- same id.  xid_node() reads that field back under a given layout.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_node(@extschema@.xid, integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'xid_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_node(@extschema@.xid, integer) IS
'the node number of an xid made with the given xid.node_bits';

