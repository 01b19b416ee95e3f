package domination

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// MakeND returns a nondominated coterie (k-arbiter) that dominates f, or a
// copy of f if f is already nondominated, with the number of witnesses it
// added. It follows Garcia-Molina and Barbara (JACM 1985): while the system
// is dominated, add the witness H of [Decide] as a quorum and drop the
// quorums that contain it; each step gives a system that dominates the last
// (for k > 1 by Kuo's Theorem 2: H meets every k-wise intersection, so the
// new system is still a k-arbiter), and domination admits no cycles, so the
// loop ends. The kept quorums stay in order, with their owners, and the
// added ones follow, unowned; Kind and Params are cleared, since the result
// is no longer that construction.
//
// f must be an explicit coterie (k-arbiter); a threshold family must be
// enumerated first. Each step is a SAT search; ctx cancels them.
func MakeND(ctx context.Context, f *set.Family) (*set.Family, int, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	if _, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		return nil, 0, errors.New("domination: make nondominated: a threshold family must be listed first (it is dominated iff (k+1)·w ≥ k·n + 2)")
	}
	g := f.Clone()
	g.Kind, g.Params = "", nil
	if _, err := g.MinimalizeContext(ctx); err != nil {
		return nil, 0, err
	}
	added := 0
	for {
		r, err := Decide(ctx, g)
		if err != nil {
			return nil, added, err
		}
		if r.Nondominated {
			return g, added, nil
		}
		h := r.Witness
		kept := g.CloneMeta()
		for i := range g.Quorums {
			if !set.Subset(h, &g.Quorums[i]) {
				kept.Add(&g.Quorums[i], g.Owner(i))
			}
		}
		kept.Add(h, set.NoOwner)
		if kept.Owners != nil && len(kept.Owners) != len(kept.Quorums) {
			return nil, added, fmt.Errorf("domination: internal error: %d owners for %d quorums", len(kept.Owners), len(kept.Quorums))
		}
		g = kept
		added++
	}
}
