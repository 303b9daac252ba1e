/* xid--1.3.sql: the xid type, version 1.3 (built from src/sql) */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION xid" to load this file. \quit

-- What a fresh install of 1.3 makes, in one script: the same objects,
-- privileges and comments as xid--1.0.sql updated by xid--1.0--1.1.sql,
-- xid--1.1--1.2.sql and xid--1.2--1.3.sql (sql/upgrade.sql compares them).
-- Built by the Makefile from src/sql/NN_concern.sql, in that order: each
-- object has one text, edited there.  Those update scripts, and
-- xid--1.0.sql, are the history and are never edited; a new object goes
-- into its concern's file here and into the next version's update script,
-- and an older version installs from 1.0 through the updates.

-- Core owns pg_catalog.xid (32-bit transaction ids), and pg_catalog is
-- searched before every other schema, so an unqualified "xid" here would be
-- core's type: every object of ours is written @extschema@.name.

