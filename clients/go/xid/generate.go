package xid

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// Generator makes ids with the layout of the server's xid_new(): the
// millisecond, then 22 bits.  In a new millisecond the counter starts at a
// random value in the lower half of its bits; within a millisecond it steps
// by 1 to 32 (32 >> nodeBits, at least 1); when a millisecond is used up, or
// the clock went back, it borrows the next one.  So its ids strictly
// increase, across goroutines too: the last id is one 64-bit word updated
// with compare-and-swap, as the server does, never a lock.  With nodeBits >
// 0 the top nodeBits of the 22 bits hold the node number (xid.node_bits,
// xid.node_id), and generators with different node numbers never make the
// same id.
type Generator struct {
	last        atomic.Uint64
	counterBits uint
	counterMax  uint64
	nodeField   uint64
	stepMask    uint64
	now         func() int64 // milliseconds since 1970
}

// NewGenerator returns a generator for a node layout; 0, 0 is no node number.
func NewGenerator(nodeBits, nodeID int) (*Generator, error) {
	if nodeBits < 0 || nodeBits > MaxNodeBits {
		return nil, fmt.Errorf("node bits %d is out of range (0 to %d)", nodeBits, MaxNodeBits)
	}
	if nodeID < 0 || nodeID >= 1<<nodeBits {
		return nil, fmt.Errorf("node id %d does not fit in %d node bits", nodeID, nodeBits)
	}
	g := &Generator{counterBits: uint(RandomBits - nodeBits)}
	g.counterMax = 1<<g.counterBits - 1
	g.nodeField = uint64(nodeID) << g.counterBits
	g.stepMask = uint64(32>>min(nodeBits, 5)) - 1
	g.now = func() int64 { return time.Now().UnixMilli() }
	return g, nil
}

// SetClock replaces the clock (milliseconds since 1970), for tests.
func (g *Generator) SetClock(now func() int64) { g.now = now }

var defaultGenerator, _ = NewGenerator(0, 0)

// New returns a new id from the process's generator (as xid_new()).  It
// panics only when the clock is outside 2011..2151.
func New() Xid {
	return defaultGenerator.New()
}

// New returns a new id, above every id this generator made before.  It
// panics when the clock is outside 2011..2151; NewErr returns the error.
func (g *Generator) New() Xid {
	x, err := g.NewErr()
	if err != nil {
		panic(err)
	}
	return x
}

// NewErr is New returning the error for a clock outside 2011..2151.
func (g *Generator) NewErr() (Xid, error) {
	now := g.now() - EpochMs
	if now < 0 || now > MaxMs {
		return 0, errTimeRange()
	}
	rnd := rand.Uint64()
	start := g.nodeField | (rnd & (g.counterMax >> 1))
	step := 1 + ((rnd >> 32) & g.stepMask)
	old := g.last.Load()
	for {
		var next uint64
		oldMs := int64(old >> RandomBits)
		switch {
		case oldMs < now:
			next = uint64(now)<<RandomBits | start // a new millisecond
		case (old&randomMask)&g.counterMax <= g.counterMax-step && (old&randomMask)>>g.counterBits == g.nodeField>>g.counterBits:
			next = old + step
		default:
			// this millisecond is used up (or has another node's layout):
			// borrow the next one
			if oldMs+1 > MaxMs {
				return 0, errTimeRange()
			}
			next = uint64(oldMs+1)<<RandomBits | start
		}
		if g.last.CompareAndSwap(old, next) {
			return Xid(next), nil
		}
		old = g.last.Load()
	}
}

// At returns an id for a given time with random low bits, as
// xid_new(timestamptz), for backfills; it takes no part in the ordering.
func At(t time.Time) (Xid, error) {
	floor, _ := msOf(t)
	if floor < 0 || floor > MaxMs {
		return 0, errTimeRange()
	}
	return Xid(uint64(floor)<<RandomBits | rand.Uint64()&randomMask), nil
}
