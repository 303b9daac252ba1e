package xid

import (
	"math/bits"
	"time"
)

// PrefixBounds returns the closed bounds of the ids whose text starts with
// prefix, as xid_prefix_lower_bound and xid_prefix_upper_bound: the empty
// text admits every id; ok is false for a text no id starts with (more than
// 11 symbols, a character outside Base58, above the largest id).
func PrefixBounds(prefix string) (lower, upper Xid, ok bool) {
	n := len(prefix)
	if n == 0 {
		return Min, Max, true
	}
	if n > 11 {
		return 0, 0, false
	}
	var v uint64
	for i := 0; i < n; i++ {
		d := decodeTable[prefix[i]]
		if d == 0xff {
			return 0, 0, false
		}
		if i == 10 {
			hi, lo := bits.Mul64(v, 58)
			lo, carry := bits.Add64(lo, uint64(d), 0)
			if hi != 0 || carry != 0 {
				return 0, 0, false
			}
			return Xid(lo), Xid(lo), true
		}
		v = v*58 + uint64(d)
	}
	scale := pow58[11-n]
	hi, lo := bits.Mul64(v, scale)
	if hi != 0 {
		return 0, 0, false // even the lowest id with this prefix is above 2^64-1
	}
	up, carry := bits.Add64(lo, scale-1, 0)
	if carry != 0 {
		up = uint64(Max)
	}
	return Xid(lo), Xid(up), true
}

// LikeBounds returns the closed bounds of the ids that `id LIKE pattern`
// (default escape, backslash) can match, as xid_like_lower_bound and
// xid_like_upper_bound: the range of the pattern's fixed prefix; ok is false
// when no id can match.  A pattern that ends in a lone backslash matches
// nothing and is an error, as LIKE makes it: an *Error with SQLSTATE 22025.
func LikeBounds(pattern string) (lower, upper Xid, ok bool, err error) {
	// the escape rule first, whatever comes before it: UTF-8 continuation
	// bytes are never a backslash, so bytes will do
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '\\' {
			if i++; i == len(pattern) {
				return 0, 0, false, &Error{Code: "22025", Message: "LIKE pattern must not end with escape character"}
			}
		}
	}
	var prefix [11]byte
	n, i, underscores, rest := 0, 0, 0, 0
	percent := false
	for i < len(pattern) && pattern[i] != '%' && pattern[i] != '_' {
		if pattern[i] == '\\' {
			i++
		}
		if n == 11 {
			return 0, 0, false, nil
		}
		prefix[n] = pattern[i]
		n++
		i++
	}
	for ; i < len(pattern); i++ {
		switch pattern[i] {
		case '%':
			percent = true
		case '_':
			underscores++
		case '\\':
			i++
			rest++
		default:
			rest++
		}
	}
	if rest == 0 && ((percent && n+underscores > 11) || (!percent && n+underscores != 11)) {
		return 0, 0, false, nil
	}
	lower, upper, ok = PrefixBounds(string(prefix[:n]))
	return lower, upper, ok, nil
}

// floor and ceiling of t in milliseconds since the xid epoch, clamped far
// outside the 42-bit range (where only the side matters)
func msOf(t time.Time) (floor, ceil int64) {
	sec := t.Unix()
	const far = 1 << 50 / 1000
	if sec > EpochMs/1000+far {
		return 1 << 50, 1 << 50
	}
	if sec < EpochMs/1000-far {
		return -(1 << 50), -(1 << 50)
	}
	ns := int64(t.Nanosecond())
	floor = sec*1000 + ns/1e6 - EpochMs
	ceil = floor
	if ns%1e6 != 0 {
		ceil++
	}
	return
}

// TimeLowerBound returns the first id whose time is at or after t
// (inclusive) or after t, as xid_time_lower_bound(t, inclusive):
// `id >= TimeLowerBound(t, true)` is exactly `xid_time(id) >= t`.  ok is
// false when no id is that late.  Exact to the nanosecond of t (the server
// sees t at microseconds).
func TimeLowerBound(t time.Time, inclusive bool) (Xid, bool) {
	floor, ceil := msOf(t)
	m := floor + 1
	if inclusive {
		m = ceil
	}
	if m > MaxMs {
		return 0, false
	}
	if m < 0 {
		m = 0
	}
	return Xid(uint64(m) << RandomBits), true
}

// TimeUpperBound returns the last id whose time is at or before t
// (inclusive) or before t, as xid_time_upper_bound(t, inclusive).  ok is
// false when no id is that early.
func TimeUpperBound(t time.Time, inclusive bool) (Xid, bool) {
	floor, ceil := msOf(t)
	m := ceil - 1
	if inclusive {
		m = floor
	}
	if m < 0 {
		return 0, false
	}
	if m > MaxMs {
		m = MaxMs
	}
	return Xid(uint64(m)<<RandomBits | randomMask), true
}
