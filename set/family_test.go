package set_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

func family(n int, owners []int, qs ...[]int) *set.Family {
	f := set.NewFamily(n)
	for i, q := range qs {
		o := set.NoOwner
		if owners != nil {
			o = owners[i]
		}
		f.Add(set.Of(q...), o)
	}
	return f
}

func quorums(f *set.Family) [][]int {
	var out [][]int
	for i := range f.Quorums {
		out = append(out, f.Quorums[i].Elements())
	}
	return out
}

func TestCanonical(t *testing.T) {
	f := family(5, nil, []int{2, 3}, []int{0, 4}, []int{0, 1}, []int{2, 3}, []int{0, 1, 2})
	f.Canonical()
	want := "[[0 1] [0 1 2] [0 4] [2 3]]"
	if got := sprint(quorums(f)); got != want {
		t.Errorf("Canonical = %s, want %s", got, want)
	}

	// Owned quorums sort by owner; the same nodes with different owners stay.
	g := family(4, []int{2, set.NoOwner, 0, 1}, []int{0, 2}, []int{3}, []int{0, 2}, []int{1})
	g.Canonical()
	if got, want := sprint(quorums(g)), "[[0 2] [1] [0 2] [3]]"; got != want {
		t.Errorf("Canonical with owners = %s, want %s", got, want)
	}
	if got, want := sprint(g.Owners), "[0 1 2 -1]"; got != want {
		t.Errorf("owners = %s, want %s", got, want)
	}
}

func TestMinimalize(t *testing.T) {
	f := family(6, []int{0, 1, 2, 3, 4},
		[]int{0, 1, 2}, []int{1, 2}, []int{3, 4}, []int{1, 2}, []int{3, 4, 5})
	if got := f.Minimalize(); got != 3 {
		t.Errorf("Minimalize removed %d, want 3", got)
	}
	if got, want := sprint(quorums(f)), "[[1 2] [3 4]]"; got != want {
		t.Errorf("after Minimalize: %s, want %s", got, want)
	}
	if got, want := sprint(f.Owners), "[1 2]"; got != want {
		t.Errorf("owners after Minimalize: %s, want %s", got, want)
	}
}

// MinimalizeContext stops on a done context, before or during the work,
// and leaves the family as it was.
func TestMinimalizeContext(t *testing.T) {
	f := set.NewFamily(20)
	for i := range 1000 { // 70 distinct quorums of 3 nodes, repeated
		f.Add(set.Of(i%10, 10+i%7, 19), set.NoOwner)
	}
	before := sprint(quorums(f))
	pre, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := f.MinimalizeContext(pre); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("pre-cancelled: %d, %v", n, err)
	}
	mid := &testsys.StopAfter{Context: context.Background(), Left: 3}
	if n, err := f.MinimalizeContext(mid); n != 0 || !errors.Is(err, context.Canceled) || mid.Calls != 4 {
		t.Errorf("cancelled after 3 checks: %d, %v after %d checks", n, err, mid.Calls)
	}
	if got := sprint(quorums(f)); got != before {
		t.Fatalf("a stopped MinimalizeContext changed the family")
	}
	n, err := f.MinimalizeContext(context.Background())
	if err != nil || n != 1000-70 || f.Len() != 70 {
		t.Errorf("MinimalizeContext = %d, %v, %d quorums left; want 930 dropped, 70 left", n, err, f.Len())
	}
}

// Minimalize agrees with the quadratic definition on random families.
func TestMinimalizeBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		n := 1 + r.IntN(10)
		f := set.NewFamily(n)
		for range 1 + r.IntN(12) {
			s, xs := randomSet(r, n, 0.5)
			if len(xs) == 0 {
				continue
			}
			f.Add(s, set.NoOwner)
		}
		var want [][]int
		for i := range f.Quorums {
			keep := true
			for j := range f.Quorums {
				if i == j || !set.Subset(&f.Quorums[j], &f.Quorums[i]) {
					continue
				}
				// A strict subset, or an equal quorum earlier in the list.
				if !set.Equal(&f.Quorums[i], &f.Quorums[j]) || j < i {
					keep = false
				}
			}
			if keep {
				want = append(want, f.Quorums[i].Elements())
			}
		}
		before := sprint(quorums(f))
		f.Minimalize()
		if got := sprint(quorums(f)); got != sprint(want) {
			t.Fatalf("Minimalize(%s) = %s, want %s", before, got, sprint(want))
		}
	}
}

func TestThreshold(t *testing.T) {
	f := set.NewThreshold(5, 3)
	if got := f.Count().String(); got != "10" {
		t.Errorf("Count = %s, want 10", got)
	}
	g, err := f.Enumerate(10)
	if err != nil {
		t.Fatal(err)
	}
	want := "[[0 1 2] [0 1 3] [0 1 4] [0 2 3] [0 2 4] [0 3 4] [1 2 3] [1 2 4] [1 3 4] [2 3 4]]"
	if got := sprint(quorums(g)); got != want {
		t.Errorf("Enumerate = %s, want %s", got, want)
	}
	if _, err := f.Enumerate(9); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("Enumerate(9) error = %v, want ErrTooMany", err)
	}
	big := set.NewThreshold(10001, 5001)
	if big.Len() != -1 {
		t.Errorf("Len of majority of 10001 = %d, want -1 (too many)", big.Len())
	}
	if _, err := big.Enumerate(1 << 20); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("Enumerate of majority of 10001: %v", err)
	}
}

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    *set.Family
		ok   bool
	}{
		{"fine", family(3, nil, []int{0, 1}, []int{1, 2}), true},
		{"node beyond n", family(2, nil, []int{0, 2}), false},
		{"empty quorum", family(3, nil, []int{0}, nil), false},
		{"bad owner", family(3, []int{5}, []int{0}), false},
		{"threshold too big", set.NewThreshold(3, 4), false},
		{"zero n", set.NewFamily(0), false},
	} {
		if err := tt.f.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v", tt.name, err)
		}
	}
}

func TestHKLevels(t *testing.T) {
	a := &set.HK{N: 4, K: 2}
	a.AddLevel(2, family(4, nil, []int{0, 1, 2}))
	a.AddLevel(1, family(4, nil, []int{0, 1}, []int{2, 3}))
	if a.Levels[0].H != 1 || a.Levels[1].H != 2 || a.Level(2).N != 4 || a.Level(2).K != 2 {
		t.Errorf("levels not sorted or not stamped: %v", a.Levels)
	}
	if err := (set.System{HK: a}).Validate(); err != nil {
		t.Error(err)
	}
	if err := (set.System{}).Validate(); err == nil {
		t.Error("an empty System validated")
	}
}

func sprint(v any) string { return fmt.Sprint(v) }

// TestEnumerateContext checks that listing a threshold family stops when
// its context is done, and lists the same quorums as Enumerate otherwise.
func TestEnumerateContext(t *testing.T) {
	f := set.NewThreshold(20, 10) // 184,756 quorums
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.EnumerateContext(ctx, 1<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	stop := &testsys.StopAfter{Context: context.Background(), Left: 3}
	if _, err := f.EnumerateContext(stop, 1<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while listing: %v", err)
	}
	g, err := set.NewThreshold(8, 3).EnumerateContext(context.Background(), 100)
	if err != nil || len(g.Quorums) != 56 {
		t.Fatalf("C(8,3): %v, %v", g, err)
	}
}
