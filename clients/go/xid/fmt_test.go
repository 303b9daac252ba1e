package xid

import "fmt"

func fmtS(x Xid) string { return fmt.Sprintf("%v", x) }
func fmtD(x Xid) string { return fmt.Sprintf("%d", x) }
