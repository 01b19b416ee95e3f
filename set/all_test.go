package set_test

import (
	"math/bits"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// All on a threshold family lists exactly the w-subsets, checked against
// the definition: every mask of n bits with w ones, in increasing
// lexicographic order of their sorted elements.
func TestAllThreshold(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for w := 1; w <= n+1; w++ {
			var want []string
			for mask := uint(0); mask < 1<<n; mask++ {
				if bits.OnesCount(mask) == w {
					var q []int
					for v := range n {
						if mask>>v&1 == 1 {
							q = append(q, v)
						}
					}
					want = append(want, sprint(q))
				}
			}
			var got []string
			next := 0
			for pos, q := range set.NewThreshold(n, w).All() {
				if pos != next {
					t.Fatalf("n=%d w=%d: position %d, want %d", n, w, pos, next)
				}
				next++
				var elems []int
				for v := range q.All() {
					elems = append(elems, v)
				}
				got = append(got, sprint(elems))
			}
			// The masks in increasing order are not lexicographic; sort both
			// as the definition's set and compare the order separately.
			if len(got) != len(want) {
				t.Fatalf("n=%d w=%d: %d quorums, want C(%d,%d) = %d", n, w, len(got), n, w, len(want))
			}
			seen := map[string]bool{}
			for _, s := range want {
				seen[s] = true
			}
			for i, s := range got {
				if !seen[s] {
					t.Fatalf("n=%d w=%d: %s is not a %d-subset, or repeated", n, w, s, w)
				}
				delete(seen, s)
				if i > 0 && !lexLess(got[i-1], s) {
					t.Errorf("n=%d w=%d: %s before %s, not lexicographic", n, w, got[i-1], s)
				}
			}
		}
	}
}

// lexLess compares two printed sorted lists of equal length element by
// element.
func lexLess(a, b string) bool {
	var x, y []int
	parse := func(s string, out *[]int) {
		v, in := 0, false
		for _, c := range s {
			if c >= '0' && c <= '9' {
				v, in = v*10+int(c-'0'), true
			} else if in {
				*out = append(*out, v)
				v, in = 0, false
			}
		}
	}
	parse(a, &x)
	parse(b, &y)
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

// All on an explicit family yields its own quorums, and stops when the loop
// does.
func TestAllExplicit(t *testing.T) {
	f := family(4, nil, []int{0, 1}, []int{1, 2}, []int{2, 3})
	n := 0
	for i, q := range f.All() {
		if q != &f.Quorums[i] {
			t.Errorf("quorum %d is not f.Quorums[%d]", i, i)
		}
		n++
		if i == 1 {
			break
		}
	}
	if n != 2 {
		t.Errorf("the loop ran %d times after a break at 1, want 2", n)
	}
	for range set.NewThreshold(10, 5).All() {
		break // must not run on after a break
	}
}
