// Package pgxxid registers the xid extension's type with pgx v5.
//
// Register looks the type up by OID (to_regtype('public.xid'), never the
// bare name xid, which is core's transaction id type, OID 28) and adds it
// and its array type to the connection's type map, in text and binary
// format: scan into xid.Xid, *xid.Xid, string or []xid.Xid, pass xid.Xid or
// a string as a parameter, and CopyFrom with either.
//
// A time is never sent as an xid: in `id >= $1` the server types $1 as
// public.xid, and an 8-byte timestamp read as an id would silently compare
// with an id from 2011 (pgx v4 did exactly that).  Here a time.Time,
// pgtype.Timestamptz or any timestamp value bound to an xid parameter is an
// error that says what to write: `id >= $1::timestamptz`, which means
// xid_time(id) >= t and keeps the index.
package pgxxid

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/xid-pg/xid/clients/go/xid"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// ErrTimeAsXid is the error for a time bound to a public.xid parameter.
var ErrTimeAsXid = errors.New("pgxxid: a time cannot be sent as public.xid: compare with the time as $1::timestamptz " +
	"(id >= $1::timestamptz means xid_time(id) >= t and uses the index), or pass xid.TimeLowerBound(t, true)")

// Conn is what LookupOIDs needs: a *pgx.Conn, or anything with its methods.
type Conn interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	TypeMap() *pgtype.Map
}

// OIDs are the OIDs of SCHEMA.xid and its array type.
type OIDs struct {
	OID      uint32
	ArrayOID uint32
}

// LookupOIDs finds SCHEMA.xid and its array type by to_regtype.
func LookupOIDs(ctx context.Context, conn Conn, schema string) (OIDs, error) {
	var o OIDs
	var oid, arr *uint32
	err := conn.QueryRow(ctx, `SELECT t.oid, t.typarray FROM pg_type t
		 WHERE t.oid = to_regtype(quote_ident($1) || '.xid')`, schema).Scan(&oid, &arr)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && oid == nil) {
		return o, fmt.Errorf("pgxxid: type %s.xid does not exist (CREATE EXTENSION xid SCHEMA %s)", schema, schema)
	}
	if err != nil {
		return o, err
	}
	return OIDs{OID: *oid, ArrayOID: *arr}, nil
}

// Register looks up public.xid and registers it and its array type on the
// connection.  For a pgxpool: config.AfterConnect = pgxxid.Register.
func Register(ctx context.Context, conn *pgx.Conn) error {
	return RegisterSchema(ctx, conn, "public")
}

// RegisterSchema is Register for the extension installed in another schema.
func RegisterSchema(ctx context.Context, conn *pgx.Conn, schema string) error {
	o, err := LookupOIDs(ctx, conn, schema)
	if err != nil {
		return err
	}
	RegisterOIDs(conn.TypeMap(), o)
	return nil
}

// RegisterOIDs registers the type on a type map under known OIDs.  The names
// are qualified so that they never replace core's "xid" and "_xid".
func RegisterOIDs(m *pgtype.Map, o OIDs) {
	t := &pgtype.Type{Name: "public.xid", OID: o.OID, Codec: Codec{}}
	m.RegisterType(t)
	m.RegisterType(&pgtype.Type{Name: "public._xid", OID: o.ArrayOID, Codec: &pgtype.ArrayCodec{ElementType: t}})
	// an xid.Xid whose parameter type is not known (the simple protocol)
	m.RegisterDefaultPgType(xid.Xid(0), "public.xid")
	m.RegisterDefaultPgType([]xid.Xid(nil), "public._xid")
}

// Codec is the pgtype.Codec of public.xid: binary is 8 bytes big-endian,
// text the 11 symbols.
type Codec struct{}

func (Codec) FormatSupported(format int16) bool {
	return format == pgtype.TextFormatCode || format == pgtype.BinaryFormatCode
}

func (Codec) PreferredFormat() int16 { return pgtype.BinaryFormatCode }

func (Codec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	switch value.(type) {
	case xid.Xid:
		if format == pgtype.BinaryFormatCode {
			return encodeXidBinary{}
		}
		return encodeXidText{}
	case string:
		if format == pgtype.BinaryFormatCode {
			return encodeStringBinary{}
		}
		return encodeStringText{}
	case time.Time, *time.Time, pgtype.Timestamptz, *pgtype.Timestamptz, pgtype.Timestamp, *pgtype.Timestamp,
		pgtype.Date, *pgtype.Date, pgtype.TimestamptzValuer, pgtype.TimestampValuer:
		return refuseTime{}
	}
	return nil
}

type encodeXidBinary struct{}

func (encodeXidBinary) Encode(value any, buf []byte) ([]byte, error) {
	b := value.(xid.Xid).Bytes()
	return append(buf, b[:]...), nil
}

type encodeXidText struct{}

func (encodeXidText) Encode(value any, buf []byte) ([]byte, error) {
	return value.(xid.Xid).AppendText(buf)
}

type encodeStringBinary struct{}

func (encodeStringBinary) Encode(value any, buf []byte) ([]byte, error) {
	x, err := xid.Parse(value.(string))
	if err != nil {
		return nil, err
	}
	b := x.Bytes()
	return append(buf, b[:]...), nil
}

type encodeStringText struct{}

func (encodeStringText) Encode(value any, buf []byte) ([]byte, error) {
	return append(buf, value.(string)...), nil
}

type refuseTime struct{}

func (refuseTime) Encode(value any, buf []byte) ([]byte, error) { return nil, ErrTimeAsXid }

func (Codec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	binary := format == pgtype.BinaryFormatCode
	switch target.(type) {
	case *xid.Xid:
		return scanPlan{binary: binary, kind: toXid}
	case *string:
		return scanPlan{binary: binary, kind: toString}
	case *any:
		return scanPlan{binary: binary, kind: toAny}
	}
	return nil
}

const (
	toXid = iota
	toString
	toAny
)

type scanPlan struct {
	binary bool
	kind   int
}

func decode(binary bool, src []byte) (xid.Xid, error) {
	var x xid.Xid
	if binary {
		return xid.FromBytes(src)
	}
	err := x.UnmarshalText(src)
	return x, err
}

func (p scanPlan) Scan(src []byte, target any) error {
	if src == nil {
		return fmt.Errorf("pgxxid: cannot scan NULL into %T (scan into a pointer to a pointer)", target)
	}
	x, err := decode(p.binary, src)
	if err != nil {
		return err
	}
	switch t := target.(type) {
	case *xid.Xid:
		*t = x
	case *string:
		*t = x.String()
	case *any:
		*t = x
	}
	return nil
}

func (Codec) DecodeDatabaseSQLValue(m *pgtype.Map, oid uint32, format int16, src []byte) (driver.Value, error) {
	if src == nil {
		return nil, nil
	}
	x, err := decode(format == pgtype.BinaryFormatCode, src)
	if err != nil {
		return nil, err
	}
	return x.String(), nil
}

func (Codec) DecodeValue(m *pgtype.Map, oid uint32, format int16, src []byte) (any, error) {
	if src == nil {
		return nil, nil
	}
	return decode(format == pgtype.BinaryFormatCode, src)
}
