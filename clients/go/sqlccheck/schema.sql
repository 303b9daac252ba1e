-- sqlccheck/schema.sql: what sqlc reads, and what the test creates.  The
-- extension's type is always written public.xid: a bare xid is core's
-- 32-bit transaction id, which sqlc maps to pgtype.Uint32.
CREATE TABLE invoices (
	id public.xid PRIMARY KEY DEFAULT xid_new(),
	customer text NOT NULL,
	replaces public.xid REFERENCES invoices (id),
	related public.xid[] NOT NULL DEFAULT '{}'
);
