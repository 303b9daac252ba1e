module github.com/xid-pg/xid/clients/go/bench

go 1.27

require (
	github.com/google/uuid v1.6.0
	github.com/xid-pg/xid/clients/go v1.1.0
)

replace github.com/xid-pg/xid/clients/go => ../
