// Package xid is the xid identifier (uid11/xid profile) for Go: parse,
// format, validate, the time of an id, the bounds of a prefix, of a time and
// of a LIKE pattern, node numbers, and a generator with the layout of the
// PostgreSQL extension's xid_new().  It needs no database; the subpackage
// pgxxid registers the type with pgx v5.
//
// An Xid is an unsigned 64-bit payload: 42 bits of milliseconds since
// 2011-11-11T11:11:11.111Z, then 22 bits the generator fills.  Its text is
// exactly 11 Base58 symbols, most significant first, padded with '1'; the
// alphabet is in ASCII order, so text order is payload order.  Every
// function gives the same answer as the extension's SQL function of the same
// meaning (xid_in, xid_out, xid_prefix_lower_bound, xid_time_lower_bound,
// xid_like_lower_bound, xid_node), which the tests check against a server.
package xid

import (
	"database/sql/driver"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"time"
	"unicode/utf8"
)

// Xid is an id; its zero value is 11111111111.  It prints as its text, sorts
// by payload (Compare, or < on the integer) and is comparable with ==.
type Xid uint64

const (
	// Alphabet is Bitcoin's Base58 alphabet, in ASCII order.
	Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	// EpochMs is 2011-11-11T11:11:11.111Z in milliseconds since 1970.
	EpochMs int64 = 1321009871111
	// MaxMs is the largest millisecond field, 2^42-1 (2151-03-25T18:46:22.214Z).
	MaxMs int64 = 1<<42 - 1
	// RandomBits is the width of the field below the time.
	RandomBits = 22
	// MaxNodeBits is the largest number of node bits (xid.node_bits).
	MaxNodeBits = 12
	// Min is the smallest id, 11111111111.
	Min Xid = 0
	// Max is the largest id, jpXCZedGfVQ.
	Max Xid = math.MaxUint64

	randomMask = 1<<RandomBits - 1
	b58x5      = 656356768 // 58^5
)

// Epoch is the time of millisecond 0.
var Epoch = time.UnixMilli(EpochMs).UTC()

// Error is an error of the server's: its primary message, SQLSTATE and DETAIL.
type Error struct {
	Code    string // SQLSTATE: 22P02, 22003, 22023, 22008, 22026
	Message string
	Detail  string
}

func (e *Error) Error() string { return e.Message }

// SQLState returns the SQLSTATE, as pgconn.PgError does.
func (e *Error) SQLState() string { return e.Code }

var decodeTable = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < len(Alphabet); i++ {
		t[Alphabet[i]] = byte(i)
	}
	return
}()

// the two symbols of every value below 58^2
var pairs = func() (p [58 * 58 * 2]byte) {
	for i := 0; i < 58*58; i++ {
		p[2*i] = Alphabet[i/58]
		p[2*i+1] = Alphabet[i%58]
	}
	return
}()

var pow58 = func() (p [11]uint64) {
	p[0] = 1
	for i := 1; i < 11; i++ {
		p[i] = p[i-1] * 58
	}
	return
}()

func encode5(v uint32, out []byte) {
	high := v / 195112 // 58^3: the first two symbols
	rest := v - high*195112
	mid := rest / 58
	copy(out[0:2], pairs[2*high:2*high+2])
	copy(out[2:4], pairs[2*mid:2*mid+2])
	out[4] = Alphabet[rest-mid*58]
}

func (x Xid) encode(out *[11]byte) {
	v := uint64(x)
	high := v / b58x5
	low := uint32(v - high*b58x5)
	top := high / b58x5 // < 43
	out[0] = Alphabet[top]
	encode5(uint32(high-top*b58x5), out[1:6])
	encode5(low, out[6:11])
}

// String returns the 11-symbol text, as xid_out.
func (x Xid) String() string {
	var b [11]byte
	x.encode(&b)
	return string(b[:])
}

// AppendText appends the text to b (encoding.TextAppender).
func (x Xid) AppendText(b []byte) ([]byte, error) {
	var t [11]byte
	x.encode(&t)
	return append(b, t[:]...), nil
}

// MarshalText returns the text (encoding.TextMarshaler; JSON uses it).
func (x Xid) MarshalText() ([]byte, error) {
	var t [11]byte
	x.encode(&t)
	return t[:], nil
}

// UnmarshalText parses strictly (encoding.TextUnmarshaler).
func (x *Xid) UnmarshalText(b []byte) error {
	v, err := parse(b)
	if err != nil {
		return err
	}
	*x = v
	return nil
}

// MarshalBinary returns the 8 bytes, big-endian (the wire format).
func (x Xid) MarshalBinary() ([]byte, error) {
	return binary.BigEndian.AppendUint64(nil, uint64(x)), nil
}

// UnmarshalBinary reads 8 bytes, big-endian.
func (x *Xid) UnmarshalBinary(b []byte) error {
	v, err := FromBytes(b)
	if err != nil {
		return err
	}
	*x = v
	return nil
}

// Bytes returns the 8 bytes, big-endian.
func (x Xid) Bytes() [8]byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(x))
	return b
}

// FromBytes reads 8 bytes, big-endian (the binary format, the bytea cast).
func FromBytes(b []byte) (Xid, error) {
	if len(b) != 8 {
		return 0, &Error{Code: "22026", Message: fmt.Sprintf("bytea of length %d does not match type xid", len(b)),
			Detail: "An xid converts from exactly 8 bytes, most significant first."}
	}
	return Xid(binary.BigEndian.Uint64(b)), nil
}

// Parse reads exactly 11 Base58 symbols at most jpXCZedGfVQ, as xid_in; the
// error is an *Error with the server's message and SQLSTATE.
func Parse(s string) (Xid, error) {
	return parse(s)
}

// MustParse is Parse that panics on an error, for constants.
func MustParse(s string) Xid {
	x, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return x
}

// Valid tells whether Parse accepts s.
func Valid(s string) bool {
	_, err := parse(s)
	return err == nil
}

func parse[T string | []byte](s T) (Xid, error) {
	if len(s) != 11 {
		return 0, parseError(string(s))
	}
	var v uint64
	var seen byte
	for i := 0; i < 10; i++ {
		d := decodeTable[s[i]]
		seen |= d
		v = v*58 + uint64(d)
	}
	last := decodeTable[s[10]]
	if (seen|last)&0x80 != 0 {
		return 0, parseError(string(s))
	}
	hi, lo := bits.Mul64(v, 58)
	lo, carry := bits.Add64(lo, uint64(last), 0)
	if hi != 0 || carry != 0 {
		return 0, &Error{Code: "22003", Message: fmt.Sprintf("value %q is out of range for type xid", string(s)),
			Detail: `The largest xid is "jpXCZedGfVQ".`}
	}
	return Xid(lo), nil
}

func quote(s string) string { return `"` + s + `"` }

func parseError(s string) error {
	msg := "invalid input syntax for type xid: " + quote(s)
	for i := 0; i < len(s); i++ {
		if decodeTable[s[i]] == 0xff {
			// the character (not byte) and its position, as the server counts
			r, size := utf8.DecodeRuneInString(s[i:])
			ch := s[i : i+size]
			if r == utf8.RuneError && size <= 1 {
				ch = s[i : i+1]
			}
			return &Error{Code: "22P02", Message: msg,
				Detail: fmt.Sprintf("Character %s at position %d is not a Base58 symbol.", quote(ch), utf8.RuneCountInString(s[:i])+1)}
		}
	}
	return &Error{Code: "22P02", Message: msg, Detail: "An xid is written as exactly 11 Base58 symbols."}
}

// Ms returns the milliseconds since the xid epoch (the top 42 bits).
func (x Xid) Ms() int64 { return int64(uint64(x) >> RandomBits) }

// Time returns the time of the id (xid_time), in UTC.
func (x Xid) Time() time.Time { return time.UnixMilli(EpochMs + x.Ms()).UTC() }

// Random returns the 22 bits below the time (xid_random).
func (x Xid) Random() uint32 { return uint32(x) & randomMask }

// Node returns the node number under a layout of nodeBits (0 to 12) node
// bits, as xid_node.
func (x Xid) Node(nodeBits int) (int, error) {
	if nodeBits < 0 || nodeBits > MaxNodeBits {
		return 0, &Error{Code: "22023", Message: fmt.Sprintf("node bits %d is out of range", nodeBits),
			Detail: "An xid has from 0 to 12 node bits."}
	}
	return int(x.Random() >> (RandomBits - nodeBits)), nil
}

// Compare returns -1, 0 or +1 as x sorts before, with or after y.
func (x Xid) Compare(y Xid) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// FromUnixMilli returns the id of a Unix time in milliseconds (as
// time.UnixMilli counts them) with the 22 low bits low: FromUnixMilli(
// time.Now().UnixMilli(), 0) is the first id of this millisecond.  A time
// outside 2011-11-11T11:11:11.111Z .. 2151-03-25T18:46:22.214Z is an error
// (22008), and so are low bits above 2^22-1 (22003).
func FromUnixMilli(ms int64, low uint32) (Xid, error) {
	if ms < EpochMs || ms-EpochMs > MaxMs {
		return 0, errTimeRange()
	}
	return FromXidEpochMs(ms-EpochMs, low)
}

// FromTime returns the id of the millisecond of t (rounded down, as
// xid_new(timestamptz) does) with the 22 low bits low; the errors are
// FromUnixMilli's.
func FromTime(t time.Time, low uint32) (Xid, error) {
	floor, _ := msOf(t)
	return FromXidEpochMs(floor, low)
}

// FromXidEpochMs returns the id of a millisecond counted from the xid epoch,
// 2011-11-11T11:11:11.111Z (not from 1970: see FromUnixMilli), with the 22
// low bits low: the two fields as they are stored.
func FromXidEpochMs(ms int64, low uint32) (Xid, error) {
	if ms < 0 || ms > MaxMs {
		return 0, errTimeRange()
	}
	if low > randomMask {
		return 0, &Error{Code: "22003", Message: fmt.Sprintf("low bits %d are out of range for type xid", low),
			Detail: "The low bits of an xid go from 0 to 4194303."}
	}
	return Xid(uint64(ms)<<RandomBits | uint64(low)), nil
}

func errTimeRange() error {
	return &Error{Code: "22008", Message: "timestamp out of range for type xid",
		Detail: "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00."}
}

// Scan reads an xid from database/sql (sql.Scanner): its text, as a string
// or a []byte, which is how drivers hand over text (an 8-byte []byte is a
// text of 8 characters, an error, never a binary payload: read a bytea with
// FromBytes).  NULL is an error: scan into a NullXid or a **Xid for a
// nullable column.  On an error x is unchanged.
func (x *Xid) Scan(src any) error {
	switch v := src.(type) {
	case string:
		return x.UnmarshalText([]byte(v))
	case []byte:
		return x.UnmarshalText(v)
	case Xid:
		*x = v
		return nil
	case nil:
		return fmt.Errorf("cannot scan NULL into xid.Xid (scan into a xid.NullXid or a **xid.Xid)")
	}
	return fmt.Errorf("cannot scan %T into xid.Xid", src)
}

// Value sends the text (driver.Valuer).
func (x Xid) Value() (driver.Value, error) { return x.String(), nil }

// NullXid is an Xid that may be NULL, as sql.NullString is a string that
// may be: scan a nullable column into it, and pass it as a parameter
// (Valid false sends NULL).  In JSON it is the text or null.
type NullXid struct {
	Xid   Xid
	Valid bool // Valid is true if Xid is not NULL
}

// Scan reads NULL or what Xid.Scan reads (sql.Scanner); on an error n is
// unchanged.
func (n *NullXid) Scan(src any) error {
	if src == nil {
		*n = NullXid{}
		return nil
	}
	x := n.Xid
	if err := x.Scan(src); err != nil {
		return err
	}
	*n = NullXid{Xid: x, Valid: true}
	return nil
}

// Value sends NULL or the text (driver.Valuer).
func (n NullXid) Value() (driver.Value, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.Xid.String(), nil
}

// MarshalJSON writes the text, or null.
func (n NullXid) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return []byte("null"), nil
	}
	var b [13]byte
	b[0], b[12] = '"', '"'
	var t [11]byte
	n.Xid.encode(&t)
	copy(b[1:12], t[:])
	return b[:], nil
}

// UnmarshalJSON reads null or the text, strictly.
func (n *NullXid) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = NullXid{}
		return nil
	}
	var text string
	if err := json.Unmarshal(b, &text); err != nil {
		return fmt.Errorf("xid.NullXid: JSON %s is neither a string nor null", b)
	}
	x, err := parse(text)
	if err != nil {
		return err
	}
	*n = NullXid{Xid: x, Valid: true}
	return nil
}

// Format implements fmt.Formatter: %s, %v and %q format the text as fmt
// formats a string (width, precision, '-' and '#' included); %d, %x, %X, %o,
// %O and %b the payload as fmt formats a uint64; %#v is Go syntax,
// xid.MustParse("..."); any other verb is fmt's %!verb(xid.Xid=...).
func (x Xid) Format(f fmt.State, verb rune) {
	switch verb {
	case 'v':
		if f.Flag('#') {
			fmt.Fprintf(f, "xid.MustParse(%q)", x.String())
			return
		}
		fmt.Fprintf(f, fmt.FormatString(f, 's'), x.String())
	case 's', 'q':
		fmt.Fprintf(f, fmt.FormatString(f, verb), x.String())
	case 'd', 'x', 'X', 'o', 'O', 'b':
		fmt.Fprintf(f, fmt.FormatString(f, verb), uint64(x))
	default:
		fmt.Fprintf(f, "%%!%c(xid.Xid=%s)", verb, x.String())
	}
}
