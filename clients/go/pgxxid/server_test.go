package pgxxid_test

// Cross-checks against a live server with xid installed (PGHOST, PGPORT,
// PGUSER, PGDATABASE), through pgx v5.

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/xid-pg/xid/clients/go/pgxxid"
	"github.com/xid-pg/xid/clients/go/xid"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

var ctx = context.Background()

// dsn is DATABASE_URL, or empty: pgx then reads the libpq variables
// (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD)
var dsn = os.Getenv("DATABASE_URL")

// noServer: the server tests skip without PGHOST or DATABASE_URL
func noServer() bool {
	return os.Getenv("PGHOST") == "" && dsn == ""
}

// connect returns a connection with the type registered (or not)
func connect(t testing.TB, register bool) *pgx.Conn {
	t.Helper()
	if noServer() {
		t.Skip("no server: neither PGHOST nor DATABASE_URL is set")
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	if register {
		if err := pgxxid.Register(ctx, conn); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

func hexOf(v uint64) string { return fmt.Sprintf("%016x", v) }

func randomPayloads(n int) []uint64 {
	edges := []uint64{0, 1, 57, 58, 1<<32 - 1, 1 << 32, 1<<63 - 1, 1 << 63, 1<<64 - 2, 1<<64 - 1}
	for i := 0; i < n; i++ {
		edges = append(edges, rand.Uint64()>>(i%64))
	}
	return edges
}

func str(x *xid.Xid) string {
	if x == nil {
		return "NULL"
	}
	return x.String()
}

func TestOIDNotCore(t *testing.T) {
	conn := connect(t, false)
	o, err := pgxxid.LookupOIDs(ctx, conn, "public")
	if err != nil {
		t.Fatal(err)
	}
	if o.OID == 28 || o.OID == 0 || o.ArrayOID == 0 {
		t.Fatalf("%+v", o)
	}
	var ours uint32
	if err := conn.QueryRow(ctx, "SELECT 'public.xid'::regtype::oid").Scan(&ours); err != nil || ours != o.OID {
		t.Fatal(ours, err)
	}
	// core's "xid" in pgx's own type map stays core's
	pgxxid.RegisterOIDs(conn.TypeMap(), o)
	if typ, ok := conn.TypeMap().TypeForName("xid"); !ok || typ.OID != 28 {
		t.Fatalf("core's xid was replaced: %+v", typ)
	}
	var xmin string
	if err := conn.QueryRow(ctx, "SELECT xmin::text FROM pg_class LIMIT 1").Scan(&xmin); err != nil {
		t.Fatal(err)
	}
	if _, err := pgxxid.LookupOIDs(ctx, conn, "nosuchschema"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatal(err)
	}
}

func TestFormatSameAsServer(t *testing.T) {
	conn := connect(t, true)
	payloads := randomPayloads(100000)
	hexes := make([]string, len(payloads))
	for i, v := range payloads {
		hexes[i] = hexOf(v)
	}
	rows, err := conn.Query(ctx, `SELECT decode(h, 'hex')::public.xid::text, decode(h, 'hex')::public.xid
		FROM unnest($1::text[]) WITH ORDINALITY u(h, n) ORDER BY n`, hexes)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var text string
		var x xid.Xid
		if err := rows.Scan(&text, &x); err != nil {
			t.Fatal(err)
		}
		if xid.Xid(payloads[i]).String() != text || uint64(x) != payloads[i] {
			t.Fatalf("payload %d: ours %s, server %s, read %d", payloads[i], xid.Xid(payloads[i]), text, x)
		}
		i++
	}
	if rows.Err() != nil || i != len(payloads) {
		t.Fatal(rows.Err(), i)
	}
}

func TestParseSameAsServer(t *testing.T) {
	conn := connect(t, true)
	xs := make([]xid.Xid, 20000)
	texts := make([]string, len(xs))
	for i := range xs {
		xs[i] = xid.Xid(rand.Uint64())
		texts[i] = xs[i].String()
	}
	// ids sent as a binary array, and as text
	var got, gotText []string
	if err := conn.QueryRow(ctx, `SELECT array_agg(encode(x::bytea, 'hex') ORDER BY n)
		FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n)`, xs).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, `SELECT array_agg(encode(x::public.xid::bytea, 'hex') ORDER BY n)
		FROM unnest($1::text[]) WITH ORDINALITY u(x, n)`, texts).Scan(&gotText); err != nil {
		t.Fatal(err)
	}
	for i, x := range xs {
		if got[i] != hexOf(uint64(x)) || gotText[i] != hexOf(uint64(x)) {
			t.Fatalf("%s: server read %s / %s", x, got[i], gotText[i])
		}
	}
}

func TestInvalidInputSameAsServer(t *testing.T) {
	conn := connect(t, true)
	// the server's own error for the text cast to xid (pg_input_error_info()
	// would do on 16 and later; the package is tested against 15 too)
	for _, s := range []string{"", "5cnEkaefSd", "5cnEkaefSdu1", "5cnEk0efSdu", "5cnEkaefSdO", "I1111111111", "l1111111111",
		" 5cnEkaefSd", "5cnEkaefSd ", "5cnEkaefSdé", "2026-11-20", "jpXCZedGfVR", "jpXCZedGfWQ", "k1111111111",
		"zzzzzzzzzzz", "5cnEkae-Sdu", "5cnEkaéfSd"} {
		_, serr := conn.Exec(ctx, `SELECT $1::text::public.xid`, s)
		var pe *pgconn.PgError
		if !errors.As(serr, &pe) {
			t.Fatalf("%q: the server took it (%v)", s, serr)
		}
		_, err := xid.Parse(s)
		var e *xid.Error
		if !errors.As(err, &e) || e.Message != pe.Message || e.Code != pe.Code || pe.Detail == "" || e.Detail != pe.Detail {
			t.Errorf("%q: ours %#v, server %q %q %q", s, err, pe.Message, pe.Code, pe.Detail)
		}
	}
}

func TestPrefixBoundsSameAsServer(t *testing.T) {
	conn := connect(t, true)
	prefixes := []string{"", "j", "jp", "jq", "k", "z", "zz", "jpXCZedGfVQ", "jpXCZedGfVR", "jpXCZedGfV", "jpXCZedGfW",
		"5c0", "0", "l", " ", "5cnrQT7y4za1", "111111111111", "é", "%"}
	for i := 0; i < 3000; i++ {
		s := xid.Xid(rand.Uint64() >> (i % 8)).String()
		prefixes = append(prefixes, s[:i%12])
	}
	rows, err := conn.Query(ctx, `SELECT xid_prefix_lower_bound(p), xid_prefix_upper_bound(p)
		FROM unnest($1::text[]) WITH ORDINALITY u(p, n) ORDER BY n`, prefixes)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var lo, hi *xid.Xid
		if err := rows.Scan(&lo, &hi); err != nil {
			t.Fatal(err)
		}
		l, h, ok := xid.PrefixBounds(prefixes[i])
		want := "NULL NULL"
		if ok {
			want = l.String() + " " + h.String()
		}
		if got := str(lo) + " " + str(hi); got != want {
			t.Errorf("%q: server %s, ours %s", prefixes[i], got, want)
		}
		i++
	}
	if i != len(prefixes) {
		t.Fatal(rows.Err())
	}
}

func TestLikeBoundsSameAsServer(t *testing.T) {
	conn := connect(t, true)
	patterns := []string{"", "%", "_", "5cnrQT%", "5cnrQT%a", "5cnrQT_____", "5cnrQT____", "5cnrQT______", "5cnrQT_%",
		`5c\nr%`, `5c\%`, `abc\\`, `%\\`, "5cnrQT7y4za", "5cnrQT7y4za%", "5cnrQT7y4za1%", "jpXCZedGfVR%", "jq%",
		"5c0%", "___________", "__________", "%%%%", `5\_%`, "é%", `5cnrQT%\%`, `\5cnrQT%`, "jpXCZedGfV_"}
	for i := 0; i < 500; i++ {
		s := xid.Xid(rand.Uint64()).String()
		n := i % 12
		tails := []string{"%", strings.Repeat("_", 11-n), "%" + s[9:], "_%"}
		patterns = append(patterns, s[:n]+tails[i%4])
	}
	rows, err := conn.Query(ctx, `SELECT xid_like_lower_bound(p), xid_like_upper_bound(p)
		FROM unnest($1::text[]) WITH ORDINALITY u(p, n) ORDER BY n`, patterns)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var lo, hi *xid.Xid
		if err := rows.Scan(&lo, &hi); err != nil {
			t.Fatal(err)
		}
		l, h, ok, err := xid.LikeBounds(patterns[i])
		if err != nil {
			t.Errorf("%q: %v", patterns[i], err)
		}
		want := "NULL NULL"
		if ok {
			want = l.String() + " " + h.String()
		}
		if got := str(lo) + " " + str(hi); got != want {
			t.Errorf("%q: server %s, ours %s", patterns[i], got, want)
		}
		i++
	}
	if i != len(patterns) {
		t.Fatal(rows.Err())
	}
}

// a pattern that ends in a lone backslash: both bound functions raise 22025
// (core's LIKE message), and so does LikeBounds, whatever comes before the
// backslash
func TestLikeLoneEscapeSameAsServer(t *testing.T) {
	conn := connect(t, true)
	for _, p := range []string{`é8Cdc9Wxaws%\`, `8Cdc9Wxaws%\`, `abc\`, `%\`, `\`} {
		_, _, _, ours := xid.LikeBounds(p)
		var e *xid.Error
		if !errors.As(ours, &e) {
			t.Errorf("%q: LikeBounds gave no error (%v)", p, ours)
			continue
		}
		for _, q := range []string{"SELECT xid_like_lower_bound($1)::text", "SELECT xid_like_upper_bound($1)::text"} {
			var got *string
			err := conn.QueryRow(ctx, q, p).Scan(&got)
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != e.Code || pgErr.Message != e.Message {
				t.Errorf("%s with %q: server %v %v, ours %s %q", q, p, deref(got), err, e.Code, e.Message)
			}
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

func TestTimeBoundsSameAsServer(t *testing.T) {
	conn := connect(t, true)
	epoch := xid.Epoch
	last := epoch.Add(time.Duration(xid.MaxMs) * time.Millisecond)
	times := []time.Time{epoch, epoch.Add(-time.Microsecond), epoch.Add(time.Microsecond), time.Unix(0, 0), last,
		last.Add(time.Microsecond), last.Add(time.Millisecond), time.Now().Truncate(time.Microsecond)}
	for i := 0; i < 2000; i++ {
		times = append(times, epoch.Add(time.Duration(rand.Int64N(int64(xid.MaxMs)*1000))*time.Microsecond))
	}
	// the server's own timestamptz (microseconds), sent as a pgx time.Time
	rows, err := conn.Query(ctx, `SELECT xid_time_lower_bound(t, true), xid_time_lower_bound(t, false),
		xid_time_upper_bound(t, true), xid_time_upper_bound(t, false)
		FROM unnest($1::timestamptz[]) WITH ORDINALITY u(t, n) ORDER BY n`, times)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var b [4]*xid.Xid
		if err := rows.Scan(&b[0], &b[1], &b[2], &b[3]); err != nil {
			t.Fatal(err)
		}
		ours := [4]*xid.Xid{}
		for j, f := range []func() (xid.Xid, bool){
			func() (xid.Xid, bool) { return xid.TimeLowerBound(times[i], true) },
			func() (xid.Xid, bool) { return xid.TimeLowerBound(times[i], false) },
			func() (xid.Xid, bool) { return xid.TimeUpperBound(times[i], true) },
			func() (xid.Xid, bool) { return xid.TimeUpperBound(times[i], false) },
		} {
			if x, ok := f(); ok {
				ours[j] = &x
			}
			if str(ours[j]) != str(b[j]) {
				t.Errorf("%s bound %d: server %s, ours %s", times[i].Format(time.RFC3339Nano), j, str(b[j]), str(ours[j]))
			}
		}
		i++
	}
	if i != len(times) {
		t.Fatal(rows.Err())
	}
}

func TestFieldsSameAsServer(t *testing.T) {
	conn := connect(t, true)
	xs := make([]xid.Xid, 2000)
	for i := range xs {
		xs[i] = xid.Xid(rand.Uint64())
	}
	rows, err := conn.Query(ctx, `SELECT xid_time(x), xid_random(x), array(SELECT xid_node(x, b) FROM generate_series(0, 12) b)
		FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n`, xs)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var tm time.Time
		var r int32
		var nodes []int32
		if err := rows.Scan(&tm, &r, &nodes); err != nil {
			t.Fatal(err)
		}
		x := xs[i]
		if !tm.Equal(x.Time()) || uint32(r) != x.Random() {
			t.Fatalf("%s: server %v %d, ours %v %d", x, tm, r, x.Time(), x.Random())
		}
		for b, n := range nodes {
			if got, _ := x.Node(b); int32(got) != n {
				t.Fatalf("%s node(%d): server %d, ours %d", x, b, n, got)
			}
		}
		i++
	}
	if i != len(xs) {
		t.Fatal(rows.Err())
	}
	var pgErr *pgconn.PgError
	_, err = conn.Exec(ctx, "SELECT xid_node(xid_new(), 13)")
	_, ours := xs[0].Node(13)
	if !errors.As(err, &pgErr) || pgErr.Message != ours.Error() || pgErr.Code != ours.(*xid.Error).Code {
		t.Fatal(err, ours)
	}
}

func TestUUIDSameAsServer(t *testing.T) {
	conn := connect(t, true)
	payloads := randomPayloads(20000)
	xs := make([]xid.Xid, len(payloads))
	for i, v := range payloads {
		xs[i] = xid.Xid(v)
	}
	rows, err := conn.Query(ctx, `SELECT x::uuid::text, x::uuid::public.xid::text
		FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n`, xs)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var u, back string
		if err := rows.Scan(&u, &back); err != nil {
			t.Fatal(err)
		}
		x := xs[i]
		if x.UUIDString() != u || back != x.String() {
			t.Fatalf("%s: server %s (back %s), ours %s", x, u, back, x.UUIDString())
		}
		if y, err := xid.ParseUUID(u); err != nil || y != x {
			t.Fatalf("ParseUUID(%s) = %s, %v; want %s", u, y, err, x)
		}
		i++
	}
	if i != len(xs) {
		t.Fatal(rows.Err())
	}
	// uuids that are no xid: a v4, another v7, the nil uuid, one bit set
	// below the 52
	last := []byte(xs[20].UUIDString())
	last[len(last)-1] = '1'
	for _, u := range []string{"4b8a9b4e-6d7d-4c51-9f0e-0c1f3a2b5d6e", "01890a5d-ac96-774b-bcce-b302099a8057",
		"00000000-0000-0000-0000-000000000000", string(last)} {
		var pgErr *pgconn.PgError
		_, err := conn.Exec(ctx, "SELECT $1::text::uuid::public.xid", u)
		_, ours := xid.ParseUUID(u)
		if !errors.As(err, &pgErr) || ours == nil || pgErr.Message != ours.Error() || pgErr.Code != ours.(*xid.Error).Code {
			t.Fatalf("%s: server %v, ours %v", u, err, ours)
		}
	}
}

func TestULIDSameAsServer(t *testing.T) {
	conn := connect(t, true)
	payloads := randomPayloads(20000)
	xs := make([]xid.Xid, len(payloads))
	for i, v := range payloads {
		xs[i] = xid.Xid(v)
	}
	rows, err := conn.Query(ctx, `SELECT xid_to_ulid(x), xid_from_ulid(xid_to_ulid(x))::text,
			xid_from_ulid(lower(xid_to_ulid(x)))::text
		FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n`, xs)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var u, back, lower string
		if err := rows.Scan(&u, &back, &lower); err != nil {
			t.Fatal(err)
		}
		x := xs[i]
		if x.ULID() != u || back != x.String() || lower != x.String() {
			t.Fatalf("%s: server %s (back %s, %s), ours %s", x, u, back, lower, x.ULID())
		}
		if y, err := xid.ParseULID(u); err != nil || y != x {
			t.Fatalf("ParseULID(%s) = %s, %v; want %s", u, y, err, x)
		}
		i++
	}
	if i != len(xs) {
		t.Fatal(rows.Err())
	}

	// ULIDs of another maker, any randomness: the 26 symbols, and the 16
	// bytes as a uuid (pgx_ulid's cast)
	const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	texts := make([]string, 5000)
	uuids := make([][16]byte, len(texts))
	for j := range texts {
		var b [16]byte
		ms := uint64(xid.EpochMs) + rand.Uint64N(uint64(xid.MaxMs)+1)
		binary.BigEndian.PutUint64(b[0:8], ms<<16|rand.Uint64N(1<<16))
		binary.BigEndian.PutUint64(b[8:16], rand.Uint64())
		hi, lo := binary.BigEndian.Uint64(b[0:8]), binary.BigEndian.Uint64(b[8:16])
		s := make([]byte, 26)
		for k := 25; k >= 0; k-- {
			s[k] = crockford[lo&31]
			lo = lo>>5 | hi<<59
			hi >>= 5
		}
		texts[j], uuids[j] = string(s), b
	}
	pgUUIDs := make([]pgtype.UUID, len(uuids))
	for j, b := range uuids {
		pgUUIDs[j] = pgtype.UUID{Bytes: b, Valid: true}
	}
	rows, err = conn.Query(ctx, `SELECT xid_from_ulid(t)::text, xid_from_ulid(u)::text
		FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY a(t, u, n) ORDER BY n`, texts, pgUUIDs)
	if err != nil {
		t.Fatal(err)
	}
	i = 0
	for rows.Next() {
		var fromText, fromUUID string
		if err := rows.Scan(&fromText, &fromUUID); err != nil {
			t.Fatal(err)
		}
		y, err := xid.ParseULID(texts[i])
		z, err2 := xid.FromULIDBytes(uuids[i])
		if err != nil || err2 != nil || y.String() != fromText || z.String() != fromUUID {
			t.Fatalf("%s: server %s, %s; ours %s %v, %s %v", texts[i], fromText, fromUUID, y, err, z, err2)
		}
		i++
	}
	if i != len(texts) {
		t.Fatal(rows.Err())
	}

	// flakes: every time an xid holds, and the edges of the 20 bits
	top := (xid.EpochMs+xid.MaxMs-1704067200000)<<20 | (1<<20 - 1)
	flakes := []int64{0, 1, 1<<20 - 1, top}
	for j := 0; j < 10000; j++ {
		flakes = append(flakes, rand.Int64N(top+1))
	}
	rows, err = conn.Query(ctx, `SELECT xid_from_ulid_flake(f)::text
		FROM unnest($1::bigint[]) WITH ORDINALITY u(f, n) ORDER BY n`, flakes)
	if err != nil {
		t.Fatal(err)
	}
	i = 0
	for rows.Next() {
		var server string
		if err := rows.Scan(&server); err != nil {
			t.Fatal(err)
		}
		if y, err := xid.FromULIDFlake(flakes[i]); err != nil || y.String() != server {
			t.Fatalf("FromULIDFlake(%d) = %s, %v; server %s", flakes[i], y, err, server)
		}
		i++
	}
	if i != len(flakes) {
		t.Fatal(rows.Err())
	}

	// what the server refuses: bad text, a first symbol above 7, a time an
	// xid cannot hold, a negative flake
	for _, u := range []string{"", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FAVX",
		"01ARZ3NDEKTSV4RRFFQ69G5FAU", "01arz3ndektsv4rrffq69g5fai", "8é" + strings.Repeat("0", 23),
		"8é" + strings.Repeat("0", 24), "00000000000000000000000000", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"} {
		var pgErr *pgconn.PgError
		_, err := conn.Exec(ctx, "SELECT xid_from_ulid($1::text)", u)
		_, ours := xid.ParseULID(u)
		var e *xid.Error
		if !errors.As(err, &pgErr) || !errors.As(ours, &e) ||
			[3]string{pgErr.Code, pgErr.Message, pgErr.Detail} != [3]string{e.Code, e.Message, e.Detail} {
			t.Fatalf("%q: server %v, ours %v", u, err, ours)
		}
	}
	for _, f := range []int64{-1, -1 << 63, top + 1, 1<<63 - 1} {
		var pgErr *pgconn.PgError
		_, err := conn.Exec(ctx, "SELECT xid_from_ulid_flake($1::bigint)", f)
		_, ours := xid.FromULIDFlake(f)
		var e *xid.Error
		if !errors.As(err, &pgErr) || !errors.As(ours, &e) ||
			[3]string{pgErr.Code, pgErr.Message, pgErr.Detail} != [3]string{e.Code, e.Message, e.Detail} {
			t.Fatalf("%d: server %v, ours %v", f, err, ours)
		}
	}
}

// nextMs waits until the clock is in a later millisecond
func nextMs() {
	t := time.Now().UnixMilli()
	for time.Now().UnixMilli() <= t {
	}
}

func TestGeneratorInterleavedWithServer(t *testing.T) {
	conn := connect(t, true)
	if _, err := conn.Exec(ctx, "CREATE TEMP TABLE gen (id public.xid PRIMARY KEY, seq int NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	g, _ := xid.NewGenerator(0, 0)
	for i := 0; i < 400; i++ {
		nextMs()
		var err error
		if i%2 == 0 {
			before := time.Now().UnixMilli()
			x := g.New()
			if x.Time().UnixMilli() < before || x.Time().UnixMilli() > time.Now().UnixMilli() {
				t.Fatalf("time field %v outside the clock", x.Time())
			}
			_, err = conn.Exec(ctx, "INSERT INTO gen VALUES ($1, $2)", x, i)
		} else {
			_, err = conn.Exec(ctx, "INSERT INTO gen VALUES (xid_new(), $1)", i)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var seqs []int32
	if err := conn.QueryRow(ctx, "SELECT array_agg(seq ORDER BY id) FROM gen").Scan(&seqs); err != nil {
		t.Fatal(err)
	}
	for i, s := range seqs {
		if int(s) != i {
			t.Fatalf("row %d in id order is insert %d", i, s)
		}
	}
	if len(seqs) != 400 {
		t.Fatal(len(seqs))
	}
	ng, _ := xid.NewGenerator(4, 11)
	ids := make([]xid.Xid, 1000)
	for i := range ids {
		ids[i] = ng.New()
	}
	var nodes []int32
	if err := conn.QueryRow(ctx, "SELECT array_agg(DISTINCT xid_node(x, 4)) FROM unnest($1::public.xid[]) x", ids).Scan(&nodes); err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1 || nodes[0] != 11 {
		t.Fatal(nodes)
	}
}

// orders: 2,880 ids over ten days; returns the count since `since` the
// server computes with xid_time
func orders(t *testing.T, conn *pgx.Conn, since time.Time) int {
	t.Helper()
	_, err := conn.Exec(ctx, `CREATE TEMP TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL);
		INSERT INTO orders SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes' + random() * interval '1 minute'), 'o' || g
		FROM generate_series(1, 2880) g; ANALYZE orders`)
	if err != nil {
		t.Fatal(err)
	}
	var want int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE xid_time(id) >= $1::timestamptz", since).Scan(&want); err != nil {
		t.Fatal(err)
	}
	if want <= 0 || want >= 2880 {
		t.Fatal(want)
	}
	return want
}

func TestTimeQueryRegistered(t *testing.T) {
	conn := connect(t, true)
	since := time.Now().Add(-72*time.Hour - 12345*time.Microsecond)
	want := orders(t, conn, since)
	count := func(q string, arg any) (int, error) {
		var n int
		err := conn.QueryRow(ctx, q, arg).Scan(&n)
		return n, err
	}
	// the trap: a time bound to `id >= $1`, where $1 is an xid
	for _, arg := range []any{since, &since, pgtype.Timestamptz{Time: since, Valid: true}, pgtype.Timestamp{Time: since, Valid: true}} {
		if n, err := count("SELECT count(*) FROM orders WHERE id >= $1", arg); !errors.Is(err, pgxxid.ErrTimeAsXid) {
			t.Errorf("%T: %d rows, error %v", arg, n, err)
		}
	}
	// the other ways pgx sends parameters: each refuses, or the server does
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeExec, pgx.QueryExecModeDescribeExec, pgx.QueryExecModeSimpleProtocol} {
		var n int
		err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1", mode, since).Scan(&n)
		var pgErr *pgconn.PgError
		if !errors.Is(err, pgxxid.ErrTimeAsXid) && !(errors.As(err, &pgErr) && pgErr.Code == "22P02") {
			t.Errorf("mode %v: %d rows, error %v", mode, n, err)
		}
	}
	// what to write: the time as timestamptz
	for _, arg := range []any{since, pgtype.Timestamptz{Time: since, Valid: true}} {
		if n, err := count("SELECT count(*) FROM orders WHERE id >= $1::timestamptz", arg); err != nil || n != want {
			t.Errorf("%T: %d rows, want %d, %v", arg, n, want, err)
		}
	}
	// or the bound, computed in the client
	lo, _ := xid.TimeLowerBound(since, true)
	if n, err := count("SELECT count(*) FROM orders WHERE id >= $1", lo); err != nil || n != want {
		t.Errorf("TimeLowerBound: %d rows, want %d, %v", n, want, err)
	}
}

func TestTimeQueryUnregisteredIsAnError(t *testing.T) {
	// without Register, pgx v5 sends the time as text for an unknown type:
	// the server refuses it (pgx v4 sent 8 binary bytes: a silent wrong count)
	conn := connect(t, false)
	since := time.Now().Add(-72 * time.Hour)
	orders(t, conn, since)
	for _, arg := range []any{since, pgtype.Timestamptz{Time: since, Valid: true}} {
		var n int
		err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1", arg).Scan(&n)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "22P02" {
			t.Errorf("%T: %d rows, error %v", arg, n, err)
		}
	}
}

func TestScanAndParams(t *testing.T) {
	conn := connect(t, true)
	orders(t, conn, time.Now())
	var first xid.Xid
	var firstText string
	if err := conn.QueryRow(ctx, "SELECT id, id FROM orders ORDER BY id LIMIT 1").Scan(&first, &firstText); err != nil {
		t.Fatal(err)
	}
	if first.String() != firstText {
		t.Fatal(first, firstText)
	}
	// binary (the default for a registered type) and text results, for each target
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var x xid.Xid
		var s string
		var p *xid.Xid
		var a any
		err := conn.QueryRow(ctx, "SELECT id, id, id, id FROM orders WHERE id = $1", mode, first).Scan(&x, &s, &p, &a)
		if err != nil || x != first || s != firstText || p == nil || *p != first || a != first {
			t.Errorf("mode %v: %v %q %v %v %v", mode, x, s, p, a, err)
		}
		err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", mode, firstText).Scan(&x)
		if err != nil || x != first {
			t.Errorf("mode %v, text parameter: %v %v", mode, x, err)
		}
	}
	var null *xid.Xid
	if err := conn.QueryRow(ctx, "SELECT NULL::public.xid").Scan(&null); err != nil || null != nil {
		t.Error(null, err)
	}
	var x xid.Xid
	if err := conn.QueryRow(ctx, "SELECT NULL::public.xid").Scan(&x); err == nil {
		t.Error("NULL scanned into xid.Xid")
	}
	// a string that is no xid: refused in binary before it is sent, by the server in text
	if _, err := conn.Exec(ctx, "SELECT $1::public.xid", "jpXCZedGfVR"); err == nil || !strings.Contains(err.Error(), "out of range for type xid") {
		t.Error(err)
	}
}

// NullXid: NULL and an id, scanned in binary and text, sent as parameters
func TestNullXid(t *testing.T) {
	conn := connect(t, true)
	if _, err := conn.Exec(ctx, "CREATE TEMP TABLE nullable (n int PRIMARY KEY, parent public.xid)"); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		a, b := xid.NullXid{Xid: xid.Max, Valid: true}, xid.NullXid{Xid: xid.Max}
		err := conn.QueryRow(ctx, "SELECT NULL::public.xid, 'jpXCZedGfVQ'::public.xid", mode).Scan(&a, &b)
		if err != nil || a.Valid || a.Xid != 0 || !b.Valid || b.Xid != xid.Max {
			t.Errorf("mode %v: %+v %+v %v", mode, a, b, err)
		}
		if _, err := conn.Exec(ctx, "TRUNCATE nullable", mode); err != nil {
			t.Fatal(err)
		}
		_, err = conn.Exec(ctx, "INSERT INTO nullable VALUES (1, $1), (2, $2), (3, $3)", mode,
			xid.NullXid{}, xid.NullXid{Xid: 5, Valid: true}, xid.NullXid{Xid: 5})
		if err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var got []string
		if err := conn.QueryRow(ctx, "SELECT array_agg(coalesce(parent::text, 'NULL') ORDER BY n) FROM nullable").Scan(&got); err != nil ||
			strings.Join(got, " ") != "NULL 11111111116 NULL" {
			t.Errorf("mode %v: %v %v", mode, got, err)
		}
	}
	// an xid.Xid target still refuses NULL
	var x xid.Xid
	if err := conn.QueryRow(ctx, "SELECT NULL::public.xid").Scan(&x); err == nil {
		t.Error("NULL scanned into xid.Xid")
	}
}

func TestArrays(t *testing.T) {
	conn := connect(t, true)
	orders(t, conn, time.Now())
	var ids []xid.Xid
	if err := conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM orders").Scan(&ids); err != nil || len(ids) != 2880 {
		t.Fatal(len(ids), err)
	}
	var texts []string
	if err := conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM orders").Scan(&texts); err != nil || texts[0] != ids[0].String() {
		t.Fatal(err)
	}
	var withNull []*xid.Xid
	if err := conn.QueryRow(ctx, "SELECT ARRAY['11111111111', NULL, 'jpXCZedGfVQ']::public.xid[]").Scan(&withNull); err != nil ||
		len(withNull) != 3 || withNull[1] != nil || *withNull[2] != xid.Max {
		t.Fatal(withNull, err)
	}
	var found []xid.Xid
	if err := conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM orders WHERE id = ANY($1)", ids[:5]).Scan(&found); err != nil ||
		len(found) != 5 || found[4] != ids[4] {
		t.Fatal(found, err)
	}
	strs := []string{ids[0].String(), ids[1].String()}
	if err := conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM orders WHERE id = ANY($1)", strs).Scan(&found); err != nil ||
		len(found) != 2 {
		t.Fatal(found, err)
	}
}

func TestCopyFrom(t *testing.T) {
	conn := connect(t, true)
	if _, err := conn.Exec(ctx, "CREATE TEMP TABLE copied (id public.xid PRIMARY KEY, n int)"); err != nil {
		t.Fatal(err)
	}
	g, _ := xid.NewGenerator(0, 0)
	rows := make([][]any, 5000)
	want := make([]xid.Xid, len(rows))
	for i := range rows {
		want[i] = g.New()
		if i%2 == 0 {
			rows[i] = []any{want[i], i}
		} else {
			rows[i] = []any{want[i].String(), i} // strings work too
		}
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"copied"}, []string{"id", "n"}, pgx.CopyFromRows(rows))
	if err != nil || n != int64(len(rows)) {
		t.Fatal(n, err)
	}
	var got []xid.Xid
	if err := conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM copied").Scan(&got); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d: %s, want %s", i, got[i], want[i])
		}
	}
	// a time in an xid column is refused (pgx reports it as the COPY's
	// error), not copied as an id from 2011
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"copied"}, []string{"id", "n"}, pgx.CopyFromRows([][]any{{time.Now(), 1}}))
	if err == nil || !strings.Contains(err.Error(), pgxxid.ErrTimeAsXid.Error()) {
		t.Fatal(err)
	}
}

func TestPool(t *testing.T) {
	if noServer() {
		t.Skip("no server")
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AfterConnect = pgxxid.Register
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var x xid.Xid
	var ids []xid.Xid
	if err := pool.QueryRow(ctx, "SELECT xid_new(), ARRAY[xid_new(), xid_new()]").Scan(&x, &ids); err != nil || len(ids) != 2 || ids[0] <= x {
		t.Fatal(x, ids, err)
	}
}

func TestDatabaseSQL(t *testing.T) {
	if noServer() {
		t.Skip("no server")
	}
	db := stdlib.OpenDB(*mustConfig(t))
	defer db.Close()
	var x xid.Xid
	var p *xid.Xid
	if err := db.QueryRow("SELECT 'jpXCZedGfVQ'::public.xid, NULL::public.xid").Scan(&x, &p); err != nil || x != xid.Max || p != nil {
		t.Fatal(x, p, err)
	}
	var s string
	if err := db.QueryRow("SELECT $1::public.xid::text", xid.Max).Scan(&s); err != nil || s != "jpXCZedGfVQ" {
		t.Fatal(s, err)
	}
	// NullXid, both ways
	a, b := xid.NullXid{Xid: xid.Max, Valid: true}, xid.NullXid{}
	if err := db.QueryRow("SELECT NULL::public.xid, '11111111116'::public.xid").Scan(&a, &b); err != nil ||
		a.Valid || !b.Valid || b.Xid != 5 {
		t.Fatal(a, b, err)
	}
	var isNull bool
	if err := db.QueryRow("SELECT $1::public.xid IS NULL, $2::public.xid::text", xid.NullXid{Xid: 5}, b).Scan(&isNull, &s); err != nil ||
		!isNull || s != "11111111116" {
		t.Fatal(isNull, s, err)
	}
	// an id that is not one: the server's error
	if err := db.QueryRow("SELECT '5cnEkaef'::text").Scan(&a); err == nil {
		t.Fatal("an 8-character text scanned into a NullXid")
	}
	var n sql.NullInt64
	if err := db.QueryRow("SELECT count(*) FROM (SELECT xid_new() id) t WHERE id >= $1::timestamptz", time.Now().Add(-time.Hour)).Scan(&n); err != nil || n.Int64 != 1 {
		t.Fatal(n, err)
	}
}

func TestDatabaseSQLTimeQuery(t *testing.T) {
	if noServer() {
		t.Skip("no server")
	}
	// database/sql through pgx's stdlib, the type registered on each connection
	db := stdlib.OpenDB(*mustConfig(t), stdlib.OptionAfterConnect(pgxxid.Register))
	defer db.Close()
	since := time.Now().Add(-time.Hour)
	var n int
	if err := db.QueryRow("SELECT count(*) FROM (SELECT xid_new() id) t WHERE id >= $1", since).Scan(&n); err == nil {
		t.Fatalf("time.Time in id >= $1 through database/sql: %d rows, no error", n)
	}
	if err := db.QueryRow("SELECT count(*) FROM (SELECT xid_new() id) t WHERE id >= $1::timestamptz", since).Scan(&n); err != nil || n != 1 {
		t.Fatal(n, err)
	}
	var x xid.Xid
	if err := db.QueryRow("SELECT xid_new()").Scan(&x); err != nil || time.Since(x.Time()) > time.Minute {
		t.Fatal(x, err)
	}
}

func mustConfig(t *testing.T) *pgx.ConnConfig {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AfterConnect = func(ctx context.Context, c *pgconn.PgConn) error { return nil }
	return cfg
}

func TestOtherSchema(t *testing.T) {
	conn := connect(t, false)
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS xid_clients_go_schema"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE xid_clients_go_schema"); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(ctx, "DROP DATABASE xid_clients_go_schema WITH (FORCE)")
	cfg, _ := pgx.ParseConfig(dsn)
	cfg.Database = "xid_clients_go_schema"
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE SCHEMA ids; CREATE EXTENSION xid SCHEMA ids"); err != nil {
		t.Fatal(err)
	}
	if err := pgxxid.Register(ctx, c); err == nil {
		t.Fatal("public.xid found in a database without it")
	}
	if err := pgxxid.RegisterSchema(ctx, c, "ids"); err != nil {
		t.Fatal(err)
	}
	var x xid.Xid
	if err := c.QueryRow(ctx, "SELECT ids.xid_new()").Scan(&x); err != nil || x.Time().Before(time.Now().Add(-time.Minute)) {
		t.Fatal(x, err)
	}
}

var _ = hex.EncodeToString
