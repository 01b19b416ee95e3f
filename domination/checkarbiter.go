package domination

import (
	"context"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// NotArbiter says why a family is not a k-arbiter, the precondition of
// [Decide]: either its quorums are all w-subsets of Nodes nodes with
// (k+1)·w ≤ k·Nodes (Threshold), or Quorums share no node.
type NotArbiter struct {
	// Threshold reports a family of all W-subsets of Nodes nodes (a
	// threshold family, or a list that is one over the nodes it uses,
	// Listed).
	Threshold bool
	Listed    bool
	W, Nodes  int
	// Quorums are k+1 quorums (0-based positions) that share no node.
	Quorums []int
}

// CheckArbiter returns nil when f is a k-arbiter (k = f.K: every k+1
// quorums share a node), and otherwise why not. A threshold family, or a
// list of all w-subsets of the nodes it uses, is decided by counting
// ([ThresholdDominated]); a coterie by [DisjointPair] where its table
// fits, any other family by verify.FindDisjoint (exponential in k in the
// worst case).
func CheckArbiter(ctx context.Context, f *set.Family) (*NotArbiter, error) {
	if w, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		if _, ok := ThresholdDominated(f.N, w, f.K); !ok {
			return &NotArbiter{Threshold: true, W: w, Nodes: f.N}, nil
		}
		return nil, nil
	}
	if nodes, w, ok := ThresholdSupport(f); ok {
		if _, ok := ThresholdDominated(len(nodes), w, f.K); !ok {
			return &NotArbiter{Threshold: true, Listed: true, W: w, Nodes: len(nodes)}, nil
		}
		return nil, nil
	}
	var ks []int
	decided := false
	if f.K == 1 {
		var err error
		if ks, decided, err = DisjointPair(ctx, f); err != nil {
			return nil, err
		}
	}
	if !decided {
		var err error
		if ks, err = verify.FindDisjoint(ctx, f, f.K+1); err != nil {
			return nil, err
		}
	}
	if ks != nil {
		return &NotArbiter{Quorums: ks}, nil
	}
	return nil, nil
}
