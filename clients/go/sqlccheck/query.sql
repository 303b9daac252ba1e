-- name: CreateInvoice :one
INSERT INTO invoices (customer, replaces, related) VALUES ($1, $2, $3)
RETURNING *;

-- name: CreateInvoiceWithID :one
INSERT INTO invoices (id, customer) VALUES ($1, $2)
RETURNING *;

-- name: GetInvoice :one
SELECT * FROM invoices WHERE id = $1;

-- name: InvoicesSince :many
-- the time as timestamptz: id >= t means xid_time(id) >= t, on the index
SELECT * FROM invoices WHERE id >= sqlc.arg(since)::timestamptz ORDER BY id;

-- name: InvoicesBetween :many
SELECT * FROM invoices WHERE id BETWEEN sqlc.arg(lo) AND sqlc.arg(hi) ORDER BY id;

-- name: InvoicesIn :many
SELECT * FROM invoices WHERE id = ANY(sqlc.arg(ids)::public.xid[]) ORDER BY id;

-- name: Replacing :many
SELECT * FROM invoices WHERE replaces = $1 ORDER BY id;
