--
-- COPY ... ON_ERROR ignore keeps every good line (PostgreSQL 17 and later)
--
CREATE TABLE ce (n int, id public.xid);
-- the data lines follow each COPY in this file
COPY ce FROM STDIN WITH (ON_ERROR ignore);
1	5cnEkaefSdu
2	5cnEkaefSd
3	jpXCZedGfVQ
4	jpXCZedGfVR
5	5cnEk0efSdu
6	11111111111
7	
8	5cnEkaefSdv
\.
SELECT n, id FROM ce ORDER BY n;
-- without ON_ERROR the first bad line stops the load
TRUNCATE ce;
COPY ce FROM STDIN;
1	5cnEkaefSdu
2	5cnEkaefSd
3	jpXCZedGfVQ
\.
SELECT count(*) FROM ce;
DROP TABLE ce;
