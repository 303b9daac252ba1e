-- bench/citus.sql: the tables of bench/citus.sh, on the coordinator.  One
-- distributed table per key, each distributed by its key (32 shards, the
-- default), the same payload columns.
CREATE EXTENSION IF NOT EXISTS xid;
CREATE TABLE ins_xid (id public.xid PRIMARY KEY DEFAULT public.xid_new(),
                      v int NOT NULL, payload text NOT NULL);
CREATE TABLE ins_bigserial (id bigserial PRIMARY KEY,
                            v int NOT NULL, payload text NOT NULL);
CREATE TABLE ins_uuid4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                        v int NOT NULL, payload text NOT NULL);
SELECT create_distributed_table('ins_xid', 'id');
SELECT create_distributed_table('ins_bigserial', 'id');
SELECT create_distributed_table('ins_uuid4', 'id');
-- uuidv7() is in core from PostgreSQL 18
SELECT current_setting('server_version_num')::int >= 180000 AS has_uuidv7 \gset
\if :has_uuidv7
CREATE TABLE ins_uuid7 (id uuid PRIMARY KEY DEFAULT uuidv7(),
                        v int NOT NULL, payload text NOT NULL);
SELECT create_distributed_table('ins_uuid7', 'id');
\endif
