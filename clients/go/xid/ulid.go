package xid

import (
	"encoding/binary"
	"fmt"
)

// An xid as a ULID, and the id of a ULID or a ulid-flake id, as the
// extension's functions (1.2) make them.  A ULID is 128 bits: unix
// milliseconds in the first 48, then randomness; the id's 22 low bits lead
// the randomness and the rest is zero, written as 26 symbols of Crockford's
// Base32, so the ULID sorts as the id does.  From a ULID the id keeps its
// time and the 22 bits after it.  A ulid-flake id (a zero sign bit, 43 bits
// of milliseconds since 2024-01-01T00:00:00Z, 20 bits) converts whole: its
// 20 bits become the top 20 of the id's 22.

const (
	crockford     = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	flakeEpochMs  = 1704067200000 // 2024-01-01T00:00:00Z, ulid-flake's epoch
	flakeLowBits  = 20
	ulidSymbols   = "A ulid is 26 symbols of Crockford's Base32."
	ulidFirstHigh = "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ."
)

var crockfordTable = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < len(crockford); i++ {
		t[crockford[i]] = byte(i)
		t[crockford[i]|0x20] = byte(i) // lowercase; digits stay digits
	}
	return t
}()

// ULID returns the id as a ULID's 26 symbols, uppercase, with its time
// (xid_to_ulid).
func (x Xid) ULID() string {
	// the 128 bits, hi first: the time's 48, the 22 low bits, zeros
	hi := uint64(x.Ms()+EpochMs)<<16 | uint64(x.Random())>>6
	lo := uint64(x.Random()) << 58
	var s [26]byte
	// 26 symbols of 5 bits are 130 bits, the first holding 3: symbol i
	// covers bits 5i-2 to 5i+2
	for i := range s {
		v := 0
		for k := 0; k < 5; k++ {
			bit := 5*i + k - 2
			v <<= 1
			switch {
			case bit < 0:
			case bit < 64:
				v |= int(hi >> (63 - bit) & 1)
			default:
				v |= int(lo >> (127 - bit) & 1)
			}
		}
		s[i] = crockford[v]
	}
	return string(s[:])
}

// ParseULID returns the id of a ULID's 26 symbols, either case
// (xid_from_ulid): its time and the first 22 bits of its randomness.  Text
// that is no ULID is an *Error with SQLSTATE 22P02; a time an xid cannot
// hold, 22008.
func ParseULID(s string) (Xid, error) {
	if len(s) != 26 {
		return 0, ulidError(s, ulidSymbols)
	}
	var hi, lo uint64 // the 128 bits: the first symbol's 3, then 5 each
	for i := 0; i < len(s); i++ {
		v := crockfordTable[s[i]]
		if v == 0xff {
			return 0, ulidError(s, ulidSymbols)
		}
		if i == 0 && v > 7 {
			return 0, ulidError(s, ulidFirstHigh)
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(v)
	}
	return fromULID(hi, lo)
}

// FromULIDBytes returns the id of a ULID's 16 bytes, as a uuid column holds
// a ULID (pgx_ulid's cast) and as oklog/ulid.ULID is (xid_from_ulid(uuid)):
// its time and the first 22 bits of its randomness.  A time an xid cannot
// hold is an *Error with SQLSTATE 22008.
func FromULIDBytes(u [16]byte) (Xid, error) {
	return fromULID(binary.BigEndian.Uint64(u[0:8]), binary.BigEndian.Uint64(u[8:16]))
}

// fromULID is the id of a ULID's 128 bits, hi first.
func fromULID(hi, lo uint64) (Xid, error) {
	return FromUnixMilli(int64(hi>>16), uint32(hi&0xffff)<<6|uint32(lo>>58))
}

func ulidError(s, detail string) error {
	return &Error{Code: "22P02", Message: "invalid input syntax for a ulid: " + quote(s), Detail: detail}
}

// FromULIDFlake returns the id of a ulid-flake id (xid_from_ulid_flake): its
// time, and its 20 bits as the top 20 of the id's 22, so that distinct
// flakes give distinct ids in the same order.  A negative id is an *Error
// with SQLSTATE 22003; a time an xid cannot hold, 22008.
func FromULIDFlake(flake int64) (Xid, error) {
	if flake < 0 {
		return 0, &Error{Code: "22003", Message: fmt.Sprintf("ulid-flake id %d is out of range", flake),
			Detail: "A ulid-flake id has a zero sign bit."}
	}
	low := uint32(flake&(1<<flakeLowBits-1)) << (RandomBits - flakeLowBits)
	return FromUnixMilli(flake>>flakeLowBits+flakeEpochMs, low)
}
