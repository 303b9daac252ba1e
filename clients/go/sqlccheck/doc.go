// Package sqlccheck tests sqlc with public.xid columns: sqlc.yaml maps the
// type to xid.Xid and a nullable column to xid.NullXid through overrides;
// test.sh runs sqlc (pinned by this module's go.sum, a tool of the module),
// compiles what it generates in db/ and runs the queries against a live
// server.  A module of its own, so that the xid package does not depend on
// sqlc.
package sqlccheck

//go:generate go tool sqlc generate
