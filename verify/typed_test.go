package verify

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// The checks a threshold family's typed form answers by counting
// (minimality, equal sizes and responsibility, the projective-plane
// property, the number of quorums, the smallest intersection and
// transversal) agree with the same checks on its quorums written out,
// for every w-of-n with n ≤ 7 and k ≤ 3.
func TestThresholdShortcutsAgreeWithList(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 7; n++ {
		for w := 1; w <= n; w++ {
			for k := 1; k <= 3; k++ {
				f := set.NewThreshold(n, w)
				f.K = k
				g, err := f.Enumerate(1 << 10)
				if err != nil {
					t.Fatal(err)
				}
				a := mustVerify(t, fam(f), Options{})
				b := mustVerify(t, fam(g), Options{})
				if a.Quorums.Cmp(b.Quorums) != 0 || a.Valid != b.Valid {
					t.Errorf("%d-of-%d k=%d: %v quorums valid %v, listed %v quorums valid %v",
						w, n, k, a.Quorums, a.Valid, b.Quorums, b.Valid)
				}
				for _, name := range []string{"intersection", "minimality", "equal_size", "equal_responsibility", "projective_plane"} {
					ca, cb := a.Check(name, 0), b.Check(name, 0)
					if ca == nil || cb == nil || ca.OK != cb.OK {
						t.Errorf("%d-of-%d k=%d: %s: threshold %+v, listed %+v", w, n, k, name, ca, cb)
						continue
					}
					if name == "equal_size" || name == "equal_responsibility" {
						if ca.Detail != cb.Detail {
							t.Errorf("%d-of-%d k=%d: %s: threshold %q, listed %q", w, n, k, name, ca.Detail, cb.Detail)
						}
					}
				}
				if k > 1 {
					continue
				}
				sa, _, _, sets, err := MinIntersection(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				sb, _, _, _, err := MinIntersection(ctx, g)
				if err != nil {
					t.Fatal(err)
				}
				if got := set.IntersectionLen(set.Of(sets[0]...), set.Of(sets[1]...)); sa != sb || got != sa {
					t.Errorf("%d-of-%d: smallest intersection %d (witness meets in %d), listed %d", w, n, sa, got, sb)
				}
				for bb := 0; bb <= n; bb++ {
					ta, err := SmallTransversal(ctx, f, bb)
					if err != nil {
						t.Fatal(err)
					}
					tb, err := SmallTransversal(ctx, g, bb)
					if err != nil {
						t.Fatal(err)
					}
					if (ta == nil) != (tb == nil) {
						t.Errorf("%d-of-%d b=%d: transversal %v, listed %v", w, n, bb, ta, tb)
					}
					if ta != nil {
						for i := range g.Quorums {
							if !set.Intersects(&g.Quorums[i], set.Of(ta...)) {
								t.Errorf("%d-of-%d b=%d: %v misses quorum %v", w, n, bb, ta, g.Quorums[i].Elements())
							}
						}
					}
				}
				ma, da, err := ByzantineMax(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				mb, db, err := ByzantineMax(ctx, g)
				if err != nil {
					t.Fatal(err)
				}
				if ma != mb || da != db {
					t.Errorf("%d-of-%d: ByzantineMax %d %d, listed %d %d", w, n, ma, da, mb, db)
				}
			}
		}
	}
	if _, err := FindDisjoint(ctx, set.NewThreshold(5, 3), 2); err == nil {
		t.Error("FindDisjoint on a threshold family: no error")
	}
}
