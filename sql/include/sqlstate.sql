-- pg_temp.sqlstate(query): 'ok', or the SQLSTATE of the error the query raises
CREATE FUNCTION pg_temp.sqlstate(query text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END
$$;
