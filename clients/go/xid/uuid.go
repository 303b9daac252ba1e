package xid

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// An xid as a UUIDv7, as the extension's casts (1.2) make it: the id's
// instant as unix milliseconds in the first 48 bits, version 7, the top 12
// of the 22 low bits (rand_a), variant 10, the bottom 10 bits, then 52
// zero bits.  It sorts as the id does and converts back exactly.

// UUID returns the id as a version 7 uuid with its time (id::uuid), as the
// 16 bytes that google/uuid.UUID and pgtype.UUID hold.
func (x Xid) UUID() [16]byte {
	var u [16]byte
	unixMs := uint64(x.Ms() + EpochMs)
	low := uint64(x.Random())
	binary.BigEndian.PutUint64(u[0:8], unixMs<<16|0x7<<12|low>>10)
	binary.BigEndian.PutUint64(u[8:16], 0b10<<62|(low&0x3ff)<<52)
	return u
}

// UUIDString returns x.UUID() in the canonical text form, lowercase.
func (x Xid) UUIDString() string {
	u := x.UUID()
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// FromUUID returns the id a uuid made by UUID stands for (uuid::xid); any
// other uuid is an *Error with the server's SQLSTATE 22023.
func FromUUID(u [16]byte) (Xid, error) {
	hi := binary.BigEndian.Uint64(u[0:8])
	lo := binary.BigEndian.Uint64(u[8:16])
	if hi>>12&0xf != 7 || lo>>62 != 0b10 || lo&(1<<52-1) != 0 {
		h := hex.EncodeToString(u[:])
		return 0, &Error{Code: "22023",
			Message: fmt.Sprintf("uuid %s is not an xid", quote(h[0:8]+"-"+h[8:12]+"-"+h[12:16]+"-"+h[16:20]+"-"+h[20:32])),
			Detail:  "An xid as a uuid is a version 7 uuid whose last 52 bits are zero."}
	}
	return FromXidEpochMs(int64(hi>>16)-EpochMs, uint32((hi&0xfff)<<10|(lo>>52&0x3ff)))
}

// ParseUUID is FromUUID of a uuid's text (with or without hyphens).
func ParseUUID(s string) (Xid, error) {
	var u [16]byte
	h := make([]byte, 0, 32)
	for i := 0; i < len(s); i++ {
		if s[i] != '-' {
			h = append(h, s[i])
		}
	}
	if len(h) != 32 {
		return 0, &Error{Code: "22P02", Message: "invalid input syntax for type uuid: " + quote(s)}
	}
	if _, err := hex.Decode(u[:], h); err != nil {
		return 0, &Error{Code: "22P02", Message: "invalid input syntax for type uuid: " + quote(s)}
	}
	return FromUUID(u)
}
