/* xid--1.1--1.2.sql: update the xid extension from 1.1 to 1.2 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION xid UPDATE TO '1.2'" to load this file. \quit
