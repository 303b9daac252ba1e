-- pg_temp.rows(query): the planner's row estimate of a query's top plan
-- node, without running it
CREATE FUNCTION pg_temp.rows(query text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END
$$;
