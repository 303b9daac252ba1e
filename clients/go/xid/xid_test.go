package xid

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// the plain definition: base 58, most significant first, padded with '1'
func refEncode(v uint64) string {
	b := make([]byte, 11)
	for i := 10; i >= 0; i-- {
		b[i] = Alphabet[v%58]
		v /= 58
	}
	return string(b)
}

// The test vectors of docs/format.md (section 7)
func TestSpecVectors(t *testing.T) {
	for _, c := range []struct {
		v uint64
		s string
	}{{0, "11111111111"}, {0x400000, "1111111NVpb"}, {0x0001499700000000, "113q8KFkAEs"}, {1<<64 - 1, "jpXCZedGfVQ"}} {
		if got := Xid(c.v).String(); got != c.s {
			t.Errorf("%#x: %s, want %s", c.v, got, c.s)
		}
		if x, err := Parse(c.s); err != nil || uint64(x) != c.v {
			t.Errorf("Parse(%s) = %d, %v", c.s, x, err)
		}
	}
}

func TestRandomPayloads(t *testing.T) {
	for i := 0; i < 300000; i++ {
		v := rand.Uint64() >> (i % 64)
		s := refEncode(v)
		if got := Xid(v).String(); got != s {
			t.Fatalf("%d: %s, want %s", v, got, s)
		}
		x, err := Parse(s)
		if err != nil || uint64(x) != v {
			t.Fatalf("Parse(%s) = %d, %v", s, x, err)
		}
	}
}

func TestEdgePayloads(t *testing.T) {
	for _, v := range []uint64{0, 1, 57, 58, 1<<32 - 1, 1 << 32, 1<<63 - 1, 1 << 63, 1<<64 - 2, 1<<64 - 1} {
		if Xid(v).String() != refEncode(v) || MustParse(refEncode(v)) != Xid(v) {
			t.Errorf("payload %d", v)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, code, msg, detail string }{
		{"5cnEkaefSd", "22P02", `invalid input syntax for type xid: "5cnEkaefSd"`, "An xid is written as exactly 11 Base58 symbols."},
		{"", "22P02", `invalid input syntax for type xid: ""`, "An xid is written as exactly 11 Base58 symbols."},
		{"5cnEk0efSdu", "22P02", `invalid input syntax for type xid: "5cnEk0efSdu"`, `Character "0" at position 6 is not a Base58 symbol.`},
		{"5cnEkaefSdé", "22P02", `invalid input syntax for type xid: "5cnEkaefSdé"`, `Character "é" at position 11 is not a Base58 symbol.`},
		{"jpXCZedGfVR", "22003", `value "jpXCZedGfVR" is out of range for type xid`, `The largest xid is "jpXCZedGfVQ".`},
		{"zzzzzzzzzzz", "22003", `value "zzzzzzzzzzz" is out of range for type xid`, `The largest xid is "jpXCZedGfVQ".`},
	} {
		_, err := Parse(c.in)
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code || e.Message != c.msg || e.Detail != c.detail {
			t.Errorf("Parse(%q): %#v", c.in, err)
		}
		if Valid(c.in) {
			t.Errorf("Valid(%q)", c.in)
		}
	}
}

func TestFields(t *testing.T) {
	x, _ := FromXidEpochMs(86400000, 0x2abcde)
	if x.Ms() != 86400000 || x.Random() != 0x2abcde || x.Time().Format(time.RFC3339Nano) != "2011-11-12T11:11:11.111Z" {
		t.Errorf("%v %v %v", x.Ms(), x.Random(), x.Time())
	}
	if Max.Time().Format(time.RFC3339Nano) != "2151-03-25T18:46:22.214Z" {
		t.Error(Max.Time())
	}
	if n, _ := x.Node(4); n != 0x2abcde>>18 {
		t.Error(n)
	}
	if n, _ := x.Node(0); n != 0 {
		t.Error(n)
	}
	if _, err := x.Node(13); err == nil || err.Error() != "node bits 13 is out of range" {
		t.Error(err)
	}
}

func TestSortAndText(t *testing.T) {
	xs := make([]Xid, 2000)
	for i := range xs {
		xs[i] = Xid(rand.Uint64())
	}
	texts := make([]string, len(xs))
	for i, x := range xs {
		texts[i] = x.String()
	}
	slices.SortFunc(xs, Xid.Compare)
	sort.Strings(texts)
	for i := range xs {
		if xs[i].String() != texts[i] {
			t.Fatal("sort order differs from text order")
		}
	}
	b, _ := json.Marshal(map[string]Xid{"id": MustParse("5cnEkaefSdu")})
	if string(b) != `{"id":"5cnEkaefSdu"}` {
		t.Error(string(b))
	}
	var m map[string]Xid
	if err := json.Unmarshal([]byte(`{"id":"jpXCZedGfVR"}`), &m); err == nil {
		t.Error("JSON accepted an id above the largest")
	}
	var s Xid
	if err := s.Scan([]byte("jpXCZedGfVQ")); err != nil || s != Max {
		t.Error(s, err)
	}
	if err := s.Scan("jpXCZedGfVQ"); err != nil || s != Max {
		t.Error(s, err)
	}
	if err := s.Scan(nil); err == nil {
		t.Error("NULL scanned")
	}
	if v, _ := Max.Value(); v != "jpXCZedGfVQ" {
		t.Error(v)
	}
}

func TestPrefixAndLikeBounds(t *testing.T) {
	check := func(what string, lo, hi Xid, ok bool, wlo, whi string) {
		t.Helper()
		if wlo == "" {
			if ok {
				t.Errorf("%s: %s %s, want none", what, lo, hi)
			}
			return
		}
		if !ok || lo.String() != wlo || hi.String() != whi {
			t.Errorf("%s: %s %s %v, want %s %s", what, lo, hi, ok, wlo, whi)
		}
	}
	lo, hi, ok := PrefixBounds("")
	check("''", lo, hi, ok, "11111111111", "jpXCZedGfVQ")
	lo, hi, ok = PrefixBounds("5cnrQT")
	check("5cnrQT", lo, hi, ok, "5cnrQT11111", "5cnrQTzzzzz")
	lo, hi, ok = PrefixBounds("jpXCZ")
	check("jpXCZ", lo, hi, ok, "jpXCZ111111", "jpXCZedGfVQ")
	lo, hi, ok = PrefixBounds("jq")
	check("jq", lo, hi, ok, "", "")
	lo, hi, ok = PrefixBounds("jpXCZedGfVR")
	check("jpXCZedGfVR", lo, hi, ok, "", "")
	like := func(p string) (Xid, Xid, bool) {
		t.Helper()
		lo, hi, ok, err := LikeBounds(p)
		if err != nil {
			t.Errorf("LikeBounds(%q): %v", p, err)
		}
		return lo, hi, ok
	}
	lo, hi, ok = like("5cnrQT%a")
	check("5cnrQT%a", lo, hi, ok, "5cnrQT11111", "5cnrQTzzzzz")
	lo, hi, ok = like("5cnrQT____")
	check("5cnrQT____", lo, hi, ok, "", "")
	lo, hi, ok = like(`5cnrQT\\%`)
	check(`5cnrQT\\%`, lo, hi, ok, "", "")
	lo, hi, ok = like(`5c\nrQT%`)
	check(`5c\nrQT%`, lo, hi, ok, "5cnrQT11111", "5cnrQTzzzzz")
}

// a pattern that ends in a lone backslash is an error, as LIKE makes it,
// whatever comes before the backslash (a character no id has, 12 fixed
// symbols, a wildcard); an escaped backslash at the end is no error
func TestLikeBoundsLoneEscape(t *testing.T) {
	for _, p := range []string{`é8Cdc9Wxaws%\`, `8Cdc9Wxaws%\`, `\`, `abc\`, `%\`, `\\\`, `5cnrQT7y4za1zz\`, `é\`} {
		lo, hi, ok, err := LikeBounds(p)
		var e *Error
		if !errors.As(err, &e) || e.Code != "22025" || e.Message != "LIKE pattern must not end with escape character" || ok {
			t.Errorf("LikeBounds(%q): %s %s %v %#v", p, lo, hi, ok, err)
		}
	}
	for _, p := range []string{`abc\\`, `%\\`, `\\\\`, `é\é`} {
		if _, _, _, err := LikeBounds(p); err != nil {
			t.Errorf("LikeBounds(%q): %v", p, err)
		}
	}
}

func TestFromUnixTime(t *testing.T) {
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	want := MustParse("5cnEkaefSdu")
	if want.Random() != 0 || !want.Time().Equal(day) {
		t.Fatal(want.Time(), want.Random())
	}
	if x, err := FromUnixMilli(day.UnixMilli(), 0); err != nil || x != want {
		t.Errorf("FromUnixMilli: %v %v", x, err)
	}
	if x, err := FromTime(day, 0); err != nil || x != want {
		t.Errorf("FromTime: %v %v", x, err)
	}
	// the sub-millisecond part is dropped, as xid_new(timestamptz) drops it;
	// the zone does not matter
	tokyo := time.FixedZone("JST", 9*3600)
	if x, err := FromTime(day.Add(999999*time.Nanosecond).In(tokyo), 77); err != nil || x != want+77 {
		t.Errorf("FromTime, 999999 ns later in Tokyo: %v %v", x, err)
	}
	if x, err := FromUnixMilli(day.UnixMilli()+1, 1<<22-1); err != nil || x.Ms() != want.Ms()+1 || x.Random() != 1<<22-1 {
		t.Errorf("FromUnixMilli, last low bits: %v %v", x, err)
	}
	// the first and last instants, and the xid epoch as Unix time
	if x, err := FromUnixMilli(EpochMs, 0); err != nil || x != Min {
		t.Error(x, err)
	}
	if x, err := FromTime(Max.Time(), 1<<22-1); err != nil || x != Max {
		t.Error(x, err)
	}
	if x, err := FromXidEpochMs(day.UnixMilli()-EpochMs, 0); err != nil || x != want {
		t.Error(x, err)
	}
	// out of range: before 2011, after 2151, Unix milliseconds given to
	// FromXidEpochMs (a date in 2068 would be the silent mistake), low bits
	for _, c := range []struct {
		what string
		err  error
		code string
	}{
		{"FromUnixMilli(0)", second(FromUnixMilli(0, 0)), "22008"},
		{"FromUnixMilli(epoch - 1)", second(FromUnixMilli(EpochMs-1, 0)), "22008"},
		{"FromUnixMilli(last + 1)", second(FromUnixMilli(EpochMs+MaxMs+1, 0)), "22008"},
		{"FromUnixMilli(-1)", second(FromUnixMilli(-1, 0)), "22008"},
		{"FromTime(1970)", second(FromTime(time.Unix(0, 0), 0)), "22008"},
		{"FromTime(epoch - 1 ns)", second(FromTime(Epoch.Add(-1), 0)), "22008"},
		{"FromTime(3000)", second(FromTime(time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), 0)), "22008"},
		{"FromTime(zero time)", second(FromTime(time.Time{}, 0)), "22008"},
		{"FromXidEpochMs(-1)", second(FromXidEpochMs(-1, 0)), "22008"},
		{"FromXidEpochMs(2^42)", second(FromXidEpochMs(MaxMs+1, 0)), "22008"},
		{"FromUnixMilli(now, 2^22)", second(FromUnixMilli(day.UnixMilli(), 1<<22)), "22003"},
		{"FromTime(now, 2^32-1)", second(FromTime(day, 1<<32-1)), "22003"},
		{"FromXidEpochMs(0, 2^22)", second(FromXidEpochMs(0, 1<<22)), "22003"},
	} {
		var e *Error
		if !errors.As(c.err, &e) || e.Code != c.code {
			t.Errorf("%s: %#v, want SQLSTATE %s", c.what, c.err, c.code)
		}
	}
	if _, err := FromUnixMilli(day.UnixMilli(), 1<<22); err == nil || err.Error() != "low bits 4194304 are out of range for type xid" {
		t.Error(err)
	}
}

func second(_ Xid, err error) error { return err }

func TestNullXid(t *testing.T) {
	var n NullXid
	if err := n.Scan("5cnEkaefSdu"); err != nil || !n.Valid || n.Xid != MustParse("5cnEkaefSdu") {
		t.Error(n, err)
	}
	if err := n.Scan(nil); err != nil || n.Valid || n.Xid != 0 {
		t.Error(n, err)
	}
	if err := n.Scan([]byte("jpXCZedGfVQ")); err != nil || !n.Valid || n.Xid != Max {
		t.Error(n, err)
	}
	// an error leaves it as it was
	for _, bad := range []any{"5cnEkaef", []byte("5cnEkaef"), "jpXCZedGfVR", int64(5), 5.0} {
		if err := n.Scan(bad); err == nil || !n.Valid || n.Xid != Max {
			t.Errorf("Scan(%#v): %v %v", bad, n, err)
		}
	}
	if v, err := (NullXid{}).Value(); v != nil || err != nil {
		t.Error(v, err)
	}
	if v, err := (NullXid{Xid: Max, Valid: true}).Value(); v != "jpXCZedGfVQ" || err != nil {
		t.Error(v, err)
	}
	// Valid false sends NULL whatever Xid holds
	if v, err := (NullXid{Xid: Max}).Value(); v != nil || err != nil {
		t.Error(v, err)
	}
	type row struct {
		A NullXid `json:"a"`
		B NullXid `json:"b"`
	}
	b, err := json.Marshal(row{A: NullXid{Xid: Max, Valid: true}})
	if err != nil || string(b) != `{"a":"jpXCZedGfVQ","b":null}` {
		t.Error(string(b), err)
	}
	var r row
	if err := json.Unmarshal([]byte(`{"a":null,"b":"5cnEkaefSd\u0075"}`), &r); err != nil || r.A.Valid || !r.B.Valid || r.B.Xid != MustParse("5cnEkaefSdu") {
		t.Error(r, err)
	}
	for _, bad := range []string{`{"a":"jpXCZedGfVR"}`, `{"a":5}`, `{"a":"5cnEkaef"}`, `{"a":true}`} {
		if err := json.Unmarshal([]byte(bad), &r); err == nil {
			t.Errorf("%s: %v", bad, r)
		}
	}
}

func TestTimeBounds(t *testing.T) {
	e := Epoch.Add(time.Second)
	if x, _ := TimeLowerBound(e, true); x.Ms() != 1000 {
		t.Error(x.Ms())
	}
	if x, _ := TimeLowerBound(e, false); x.Ms() != 1001 {
		t.Error(x.Ms())
	}
	if x, _ := TimeUpperBound(e, false); x.Ms() != 999 || x.Random() != 1<<22-1 {
		t.Error(x.Ms())
	}
	half := e.Add(500 * time.Microsecond)
	if x, _ := TimeLowerBound(half, true); x.Ms() != 1001 {
		t.Error(x.Ms())
	}
	if x, _ := TimeUpperBound(half, false); x.Ms() != 1000 {
		t.Error(x.Ms())
	}
	if x, ok := TimeLowerBound(time.Unix(0, 0), true); !ok || x != 0 {
		t.Error(x, ok)
	}
	if _, ok := TimeUpperBound(time.Unix(0, 0), true); ok {
		t.Error("an id before the epoch")
	}
	if _, ok := TimeLowerBound(time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), true); ok {
		t.Error("an id after 2151")
	}
	if x, ok := TimeUpperBound(time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), true); !ok || x != Max {
		t.Error(x, ok)
	}
}

func TestGeneratorGoroutines(t *testing.T) {
	g, _ := NewGenerator(0, 0)
	const workers, each = 8, 50000
	out := make([][]Xid, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			prev := Xid(0)
			for i := 0; i < each; i++ {
				x := g.New()
				if x <= prev {
					t.Errorf("not increasing within a goroutine")
					return
				}
				prev = x
				out[w] = append(out[w], x)
			}
		}(w)
	}
	wg.Wait()
	seen := make(map[Xid]bool, workers*each)
	for _, xs := range out {
		for _, x := range xs {
			if seen[x] {
				t.Fatalf("duplicate %s", x)
			}
			seen[x] = true
		}
	}
	if d := time.Since(out[0][len(out[0])-1].Time()); d < -time.Second || d > time.Minute {
		t.Error("time field far from the clock:", d)
	}
}

func TestGeneratorStoppedClock(t *testing.T) {
	g, _ := NewGenerator(0, 0)
	now := EpochMs + 5000
	g.SetClock(func() int64 { return now })
	prev := g.New()
	ms := map[int64]bool{}
	for i := 0; i < 400000; i++ {
		if i == 200000 {
			now -= 100
		}
		x := g.New()
		if x <= prev {
			t.Fatal("not increasing")
		}
		ms[x.Ms()] = true
		prev = x
	}
	if len(ms) < 2 || len(ms) > 400000/65536+2 {
		t.Error(len(ms), "milliseconds")
	}
}

func TestGeneratorNodes(t *testing.T) {
	for _, c := range [][2]int{{1, 1}, {4, 3}, {4, 15}, {8, 200}, {12, 4095}} {
		g, err := NewGenerator(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		prev := Xid(0)
		for i := 0; i < 20000; i++ {
			x := g.New()
			if n, _ := x.Node(c[0]); n != c[1] || x <= prev {
				t.Fatalf("bits %d id %d: node %d", c[0], c[1], n)
			}
			prev = x
		}
	}
	if _, err := NewGenerator(4, 16); err == nil {
		t.Error("node 16 in 4 bits")
	}
	if _, err := NewGenerator(13, 0); err == nil {
		t.Error("13 node bits")
	}
}

func TestAt(t *testing.T) {
	x, err := At(time.Date(2026, 1, 1, 0, 0, 0, 123456789, time.UTC))
	if err != nil || !x.Time().Equal(time.Date(2026, 1, 1, 0, 0, 0, 123000000, time.UTC)) {
		t.Error(x.Time(), err)
	}
	if _, err := At(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("2000 accepted")
	}
}

func TestFormatVerbs(t *testing.T) {
	x := MustParse("5cnEkaefSdu")
	var b strings.Builder
	b.WriteString(x.String())
	if s := strings.Join([]string{b.String(), fmtS(x)}, " "); s != "5cnEkaefSdu 5cnEkaefSdu" {
		t.Error(s)
	}
	n := new(big.Int).SetUint64(uint64(x))
	if fmtD(x) != n.String() {
		t.Error(fmtD(x))
	}
}

// database/sql drivers hand over text as []byte: 8 bytes of text are a short
// text, never a binary payload
func TestScanBytesIsText(t *testing.T) {
	for _, in := range []string{"5cnEkaef", "12345678", "\x00\x00\x00\x00\x00\x00\x00\x01"} {
		x := MustParse("5cnEkaefSdu")
		err := x.Scan([]byte(in))
		var e *Error
		if !errors.As(err, &e) || e.Code != "22P02" || e.Message != `invalid input syntax for type xid: "`+in+`"` {
			t.Errorf("Scan([]byte(%q)): %v, %#v", in, x, err)
		}
		if x != MustParse("5cnEkaefSdu") {
			t.Errorf("Scan([]byte(%q)) changed the id to %v on an error", in, x)
		}
	}
}

// fmt's width, flags and verbs, as for the text (or, for %d %x %X %o %b,
// the payload)
func TestFormatWidthAndFlags(t *testing.T) {
	x := MustParse("5cnEkaefSdu")
	for _, c := range []struct{ format, want string }{
		{"%s", "5cnEkaefSdu"},
		{"%v", "5cnEkaefSdu"},
		{"%-12s|", "5cnEkaefSdu |"},
		{"%13s|", "  5cnEkaefSdu|"},
		{"%-13v|", "5cnEkaefSdu  |"},
		{"%.5s", "5cnEk"},
		{"%q", `"5cnEkaefSdu"`},
		{"%15q", `  "5cnEkaefSdu"`},
		{"%#q", "`5cnEkaefSdu`"},
		{"%d", "1988978084996448256"},
		{"%25d|", "      1988978084996448256|"},
		{"%x", "1b9a4507be400000"},
		{"%#X", "0X1B9A4507BE400000"},
		{"%025o", "0000156322120367620000000"},
		{"%#v", `xid.MustParse("5cnEkaefSdu")`},
		{"%t", "%!t(xid.Xid=5cnEkaefSdu)"},
		{"[%v %v]", "[5cnEkaefSdu jpXCZedGfVQ]"},
	} {
		var got string
		if c.format == "[%v %v]" {
			got = fmt.Sprintf(c.format, x, Max)
		} else {
			got = fmt.Sprintf(c.format, x)
		}
		if got != c.want {
			t.Errorf("Sprintf(%q): %q, want %q", c.format, got, c.want)
		}
	}
	if got := fmt.Sprint([]Xid{x, Max}); got != "[5cnEkaefSdu jpXCZedGfVQ]" {
		t.Error(got)
	}
}

// An xid as a UUIDv7 and back: the server's casts (expected/convert.out)
func TestUUID(t *testing.T) {
	for _, c := range [][2]string{
		{"jpXCZedGfVQ", "05339252-f906-7fff-bff0-000000000000"},
		{"11111111111", "01339252-f907-7000-8000-000000000000"},
		{"5cnE1111112", "01a1fb61-0ee6-718c-b810-000000000000"},
		{"5cnEzzzzzzz", "01a1fb69-173e-78b7-9ff0-000000000000"},
	} {
		x := MustParse(c[0])
		if got := x.UUIDString(); got != c[1] {
			t.Errorf("%s.UUIDString() = %s, want %s", c[0], got, c[1])
		}
		if y, err := ParseUUID(strings.ToUpper(c[1])); err != nil || y != x {
			t.Errorf("ParseUUID(%s) = %s, %v", c[1], y, err)
		}
	}
	ids := []Xid{Min, Max}
	for i := 0; i < 2000; i++ {
		ids = append(ids, Xid(rand.Uint64()))
	}
	for _, x := range ids {
		if y, err := FromUUID(x.UUID()); err != nil || y != x {
			t.Fatalf("FromUUID(%s.UUID()) = %s, %v", x, y, err)
		}
	}
	byID := slices.Clone(ids)
	slices.SortFunc(byID, Xid.Compare)
	byUUID := slices.Clone(ids)
	slices.SortFunc(byUUID, func(a, b Xid) int { return strings.Compare(a.UUIDString(), b.UUIDString()) })
	if !slices.Equal(byID, byUUID) {
		t.Error("ids and their uuids sort differently")
	}
	for _, c := range [][2]string{
		{"01890a5d-ac96-774b-bcce-b302099a8057", "22023"},
		{"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "22023"},
		{"00000000-0000-7000-8000-000000000000", "22008"},
		{"not a uuid", "22P02"},
	} {
		var e *Error
		if _, err := ParseUUID(c[0]); !errors.As(err, &e) || e.Code != c[1] {
			t.Errorf("ParseUUID(%s): %v, want SQLSTATE %s", c[0], err, c[1])
		}
	}
}

// An xid as a ULID and back, ulid-flake ids: the server's functions
// (expected/convert.out; these vectors from xid_to_ulid, xid_from_ulid and
// xid_from_ulid_flake on a server)
func TestULID(t *testing.T) {
	for _, c := range [][2]string{
		{"11111111111", "016E955Y870000000000000000"},
		{"11111111112", "016E955Y870000800000000000"},
		{"1111111NVpa", "016E955Y87ZZZZR00000000000"},
		{"jpXCZedGfVQ", "056E955Y86ZZZZR00000000000"},
		{"5cnEkaefSdu", "01M7XPE6000000000000000000"},
		{"EgStYr6K4Me", "02FAWM9EC0ZA86800000000000"},
		{"hjgP5681E9f", "0506ZH5TR9JDYPG00000000000"},
		{"UiL9JJc4g6N", "03S96Q2NRK3D0ER00000000000"},
		{"2T6BG6cdtfU", "01ARZ3NDEKTSV4R00000000000"},
	} {
		x := MustParse(c[0])
		if got := x.ULID(); got != c[1] {
			t.Errorf("%s.ULID() = %s, want %s", c[0], got, c[1])
		}
		for _, u := range []string{c[1], strings.ToLower(c[1])} {
			if y, err := ParseULID(u); err != nil || y != x {
				t.Errorf("ParseULID(%s) = %s, %v", u, y, err)
			}
		}
	}
	// the ULID spec's example keeps its time and the 22 bits after it, as
	// text and as the 16 bytes of a uuid
	for _, u := range []string{"01ARZ3NDEKTSV4RRFFQ69G5FAV", "01arz3ndektsv4rrffq69g5fav"} {
		if y, err := ParseULID(u); err != nil || y.String() != "2T6BG6cdtfU" {
			t.Errorf("ParseULID(%s) = %s, %v", u, y, err)
		}
	}
	b := [16]byte{0x01, 0x56, 0x3e, 0x3a, 0xb5, 0xd3, 0xd6, 0x76, 0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b}
	if y, err := FromULIDBytes(b); err != nil || y.String() != "2T6BG6cdtfU" {
		t.Errorf("FromULIDBytes(01563e3a-b5d3-d676-4c61-efb99302bd5b) = %s, %v", y, err)
	}
	for _, c := range []struct {
		flake int64
		id    string
	}{{14246757444195114, "4ryqEBY4ykb"}, {0, "4jJqhYTcPVR"}, {1, "4jJqhYTcPVV"}, {1<<20 - 1, "4jJqhYTytJw"}} {
		if y, err := FromULIDFlake(c.flake); err != nil || y.String() != c.id {
			t.Errorf("FromULIDFlake(%d) = %s, %v; want %s", c.flake, y, err, c.id)
		}
	}

	ids := []Xid{Min, Max}
	for i := 0; i < 2000; i++ {
		ids = append(ids, Xid(rand.Uint64()))
	}
	for _, x := range ids {
		if y, err := ParseULID(x.ULID()); err != nil || y != x {
			t.Fatalf("ParseULID(%s.ULID()) = %s, %v", x, y, err)
		}
	}
	byID := slices.Clone(ids)
	slices.SortFunc(byID, Xid.Compare)
	byULID := slices.Clone(ids)
	slices.SortFunc(byULID, func(a, b Xid) int { return strings.Compare(a.ULID(), b.ULID()) })
	if !slices.Equal(byID, byULID) {
		t.Error("ids and their ULIDs sort differently")
	}
	// distinct flakes, distinct ids in the same order
	flakes := make([]int64, 2000)
	for i := range flakes {
		flakes[i] = rand.Int64N(1 << 55)
	}
	slices.Sort(flakes)
	for i := 1; i < len(flakes); i++ {
		a, _ := FromULIDFlake(flakes[i-1])
		b, _ := FromULIDFlake(flakes[i])
		if (flakes[i-1] < flakes[i]) != (a < b) || (flakes[i-1] == flakes[i]) != (a == b) {
			t.Fatalf("flakes %d, %d: ids %s, %s", flakes[i-1], flakes[i], a, b)
		}
	}

	symbols := "A ulid is 26 symbols of Crockford's Base32."
	atMost := "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ."
	times := "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00."
	for _, c := range [][4]string{
		{"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "22P02", `invalid input syntax for a ulid: "8ZZZZZZZZZZZZZZZZZZZZZZZZZ"`, atMost},
		{"01ARZ3NDEKTSV4RRFFQ69G5FA", "22P02", `invalid input syntax for a ulid: "01ARZ3NDEKTSV4RRFFQ69G5FA"`, symbols},
		{"01ARZ3NDEKTSV4RRFFQ69G5FAU", "22P02", `invalid input syntax for a ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAU"`, symbols},
		{"", "22P02", `invalid input syntax for a ulid: ""`, symbols},
		// the server counts bytes: 25 characters, 26 bytes, first symbol 8
		{"8é" + strings.Repeat("0", 23), "22P02", `invalid input syntax for a ulid: "8é` + strings.Repeat("0", 23) + `"`, atMost},
		{"8é" + strings.Repeat("0", 24), "22P02", `invalid input syntax for a ulid: "8é` + strings.Repeat("0", 24) + `"`, symbols},
		// before the epoch, after 2151
		{"00000000000000000000000000", "22008", "timestamp out of range for type xid", times},
		{"7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "22008", "timestamp out of range for type xid", times},
	} {
		var e *Error
		if _, err := ParseULID(c[0]); !errors.As(err, &e) || *e != (Error{Code: c[1], Message: c[2], Detail: c[3]}) {
			t.Errorf("ParseULID(%s): %#v, want %s %s (%s)", c[0], err, c[1], c[2], c[3])
		}
	}
	var e *Error
	if _, err := FromULIDBytes([16]byte{}); !errors.As(err, &e) || e.Code != "22008" {
		t.Errorf("FromULIDBytes(zeros): %v, want SQLSTATE 22008", err)
	}
	for _, f := range []int64{-1, -1 << 63} {
		want := Error{Code: "22003", Message: fmt.Sprintf("ulid-flake id %d is out of range", f), Detail: "A ulid-flake id has a zero sign bit."}
		if _, err := FromULIDFlake(f); !errors.As(err, &e) || *e != want {
			t.Errorf("FromULIDFlake(%d): %#v", f, err)
		}
	}
	if _, err := FromULIDFlake(1<<63 - 1); !errors.As(err, &e) || e.Code != "22008" {
		t.Errorf("FromULIDFlake(2^63-1): %v, want SQLSTATE 22008", err)
	}
}

func TestArray(t *testing.T) {
	a := Array{MustParse("5cnEkaefSdu"), MustParse("jpXCZedGfVQ"), 0}
	v, err := a.Value()
	if err != nil || v != "{5cnEkaefSdu,jpXCZedGfVQ,11111111111}" {
		t.Fatalf("Value: %v, %v", v, err)
	}
	var b Array
	if err := b.Scan([]byte(v.(string))); err != nil || len(b) != 3 || b[0] != a[0] || b[1] != a[1] || b[2] != 0 {
		t.Fatalf("Scan: %v, %v", b, err)
	}
	if err := b.Scan("{}"); err != nil || b == nil || len(b) != 0 {
		t.Fatalf("Scan {}: %#v, %v", b, err)
	}
	if err := b.Scan(nil); err != nil || b != nil {
		t.Fatalf("Scan NULL: %#v, %v", b, err)
	}
	if v, err := Array(nil).Value(); err != nil || v != nil {
		t.Fatalf("Value of nil: %v, %v", v, err)
	}
	b = Array{1}
	for _, bad := range []any{"{5cnEkaefSdu,NULL}", "{5cnEk0efSdu}", "5cnEkaefSdu", "{{5cnEkaefSdu}}", 7} {
		if err := b.Scan(bad); err == nil || len(b) != 1 || b[0] != 1 {
			t.Errorf("Scan(%v): %v, %v", bad, b, err)
		}
	}
}
