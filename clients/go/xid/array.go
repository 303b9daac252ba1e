package xid

import (
	"database/sql/driver"
	"fmt"
	"strings"
)

// Array is a public.xid[] for database/sql and GORM (pgx's own scanning
// needs none: pgxxid registers the array type): Scan reads the text of a
// one-dimensional array, "{5cnEkaefSdu,5cnrQT11111}", and Value sends it.
// A NULL array scans into a nil Array; a NULL element is an error (there
// is no Xid for it).  In GORM: Tags xid.Array `gorm:"type:public.xid[]"`.
type Array []Xid

// Scan reads an array's text (sql.Scanner); a []byte is text.  On an
// error a is unchanged.
func (a *Array) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case nil:
		*a = nil
		return nil
	case string:
		s = v
	case []byte:
		s = string(v)
	case []Xid:
		*a = append(Array(nil), v...)
		return nil
	default:
		return fmt.Errorf("cannot scan %T into xid.Array", src)
	}
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return fmt.Errorf("cannot scan %q into xid.Array: not the text of a one-dimensional array", s)
	}
	body := s[1 : len(s)-1]
	out := Array{}
	if body != "" {
		for _, e := range strings.Split(body, ",") {
			if e == "NULL" {
				return fmt.Errorf("cannot scan %q into xid.Array: a NULL element", s)
			}
			x, err := Parse(strings.Trim(e, `"`))
			if err != nil {
				return err
			}
			out = append(out, x)
		}
	}
	*a = out
	return nil
}

// Value sends the array's text, "{...}" (driver.Valuer); a nil Array is
// NULL.
func (a Array) Value() (driver.Value, error) {
	if a == nil {
		return nil, nil
	}
	var b strings.Builder
	b.Grow(2 + 12*len(a))
	b.WriteByte('{')
	for i, x := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x.String())
	}
	b.WriteByte('}')
	return b.String(), nil
}
