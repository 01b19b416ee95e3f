package rw

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// A side given as a threshold family (every w-subset, held by its rule)
// stays a formula with no list, and the system is the one the same
// family listed makes: the same read and write quorums on every subset
// of the nodes, the write side the dual when none is given.
func TestFromFamiliesThresholdFormAgreesWithListed(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 6; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			e, err := f.Enumerate(1 << 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, writes := range []struct{ rule, listed *set.Family }{{nil, nil}, {f, e}} {
				a, err := FromFamilies(ctx, f, writes.rule, nil)
				if err != nil {
					t.Fatal(err)
				}
				b, err := FromFamilies(ctx, e, writes.listed, nil)
				if err != nil {
					t.Fatal(err)
				}
				if a.Reads.List != nil || b.Reads.List == nil {
					t.Errorf("%d of %d: read lists %v and %v", w, n, a.Reads.List, b.Reads.List)
				}
				if writes.rule != nil && (a.Writes.List != nil || b.Writes.List == nil) {
					t.Errorf("%d of %d: write lists %v and %v", w, n, a.Writes.List, b.Writes.List)
				}
				for m := range 1 << n {
					s := set.New(n)
					for v := range n {
						if m>>v&1 == 1 {
							s.Add(v)
						}
					}
					// A read quorum is every w live nodes; a write quorum
					// (the dual, when none is given) every n − w + 1.
					wantW := s.Len() >= w
					if writes.rule == nil {
						wantW = s.Len() >= n-w+1
					}
					for _, sys := range []*System{a, b} {
						if got := sys.Reads.IsQuorum(s); got != (s.Len() >= w) {
							t.Fatalf("%d of %d: reads on %v: %v", w, n, s, got)
						}
						if got := sys.Writes.IsQuorum(s); got != wantW {
							t.Fatalf("%d of %d (writes given: %v): writes on %v: %v, want %v", w, n, writes.rule != nil, s, got, wantW)
						}
					}
				}
			}
		}
	}
}
