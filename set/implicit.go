package set

import (
	"context"
	"errors"
	"math/big"
	"sync"
)

// An implicit family is defined by its construction, which package set
// does not know (package construct does, and imports set). The few
// answers set gives about one — [Family.Stats], [Family.Degrees] — come
// from the construction through the hook that construct installs with
// [SetImplicitStats] when it is initialised.

var (
	implicitMu   sync.RWMutex
	implicitHook func(ctx context.Context, f *Family) Stats
)

// SetImplicitStats installs fn as the source of [Family.Stats] for an
// implicit family; fn lists the quorums under ctx, and gives what it has
// when ctx ends. Package construct calls it once, when it is initialised;
// other callers should not.
func SetImplicitStats(fn func(ctx context.Context, f *Family) Stats) {
	implicitMu.Lock()
	defer implicitMu.Unlock()
	implicitHook = fn
}

// errNoConstruction is the Stats.Err of an implicit family when no
// construction package is linked.
var errNoConstruction = errors.New("set: an implicit family's figures come from its construction (package construct), which is not linked")

func implicitStats(ctx context.Context, f *Family) Stats {
	implicitMu.RLock()
	fn := implicitHook
	implicitMu.RUnlock()
	if fn == nil {
		return Stats{N: f.N, Quorums: new(big.Int), SizeSum: new(big.Int), MinDegree: new(big.Int), MaxDegree: new(big.Int), Err: errNoConstruction}
	}
	return fn(ctx, f)
}
