module github.com/xid-pg/xid/clients/go/v4check

go 1.22

require (
	github.com/jackc/pgtype v1.14.0
	github.com/jackc/pgx/v4 v4.18.3
	github.com/xid-pg/xid/clients/go v1.1.0
)

replace github.com/xid-pg/xid/clients/go => ../
