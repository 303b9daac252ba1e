-- pg_temp.estimate(query): the planner's row estimate and the actual rows of
-- a query's top plan node
CREATE FUNCTION pg_temp.estimate(query text, OUT estimated float8, OUT actual float8)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
	estimated := (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
	actual := (plan -> 0 -> 'Plan' ->> 'Actual Rows')::float8;
END
$$;
