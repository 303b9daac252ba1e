--
-- Soft input errors (PostgreSQL 16 and later)
--
SELECT v, pg_input_is_valid(v, 'public.xid') AS valid
FROM (VALUES ('5cnEkaefSdu'), ('11111111111'), ('jpXCZedGfVQ'), ('jpXCZedGfVR'),
             (''), ('5cnEkaefSd'), ('5cnEkaefSdu1'), ('5cnEk0efSdu'), (' 5cnEkaefSdu'),
             ('5cnEkaé€Sdu')) AS t(v);
SELECT v, e.message, e.detail, e.hint, e.sql_error_code
FROM (VALUES ('5cnEkaefSdu'), ('jpXCZedGfVR'), ('5cnEkaefSd'), ('5cnEk0efSdu'),
             ('5cnEkaé€Sdu')) AS t(v),
     LATERAL pg_input_error_info(v, 'public.xid') AS e;
-- a bare 'xid' is core's type, which accepts digits
SELECT pg_input_is_valid('5cnEkaefSdu', 'xid') AS core_xid,
       pg_input_is_valid('5cnEkaefSdu', 'public.xid') AS our_xid;
-- prefixes and ranges of xids
SELECT v, pg_input_is_valid(v, 'public.xidrange') AS valid
FROM (VALUES ('[5cnEkaefSdu,jpXCZedGfVQ]'), ('[5cnEkaefSdu,jpXCZedGfVR]'),
             ('[5cnE,5cnF]'), ('empty')) AS t(v);
SELECT e.message, e.sql_error_code
FROM pg_input_error_info('[5cnEkaefSdu,5cnE0000000]', 'public.xidrange') AS e;
