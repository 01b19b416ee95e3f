package quorum

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// brute lists the minimal sets of has over n nodes by looking at all 2^n
// subsets, in the same order as Minimal.
func brute(n int, has func(*set.Set) bool) []string {
	var out []string
	var rec func(i int, cur *set.Set)
	rec = func(i int, cur *set.Set) {
		if i == n {
			if has(cur) && minimal(cur, has) {
				out = append(out, cur.String())
			}
			return
		}
		cur.Add(i)
		rec(i+1, cur)
		cur.Remove(i)
		rec(i+1, cur)
	}
	rec(0, set.New(n))
	return out
}

func TestMinimalMatchesBruteForce(t *testing.T) {
	weights := []int{3, 1, 1, 2, 0, 1, 2}
	for _, tt := range []struct {
		name string
		n    int
		has  func(*set.Set) bool
	}{
		{"majority of 5", 5, func(s *set.Set) bool { return s.Len() >= 3 }},
		{"weighted votes", len(weights), func(s *set.Set) bool {
			w := 0
			for v := range s.All() {
				w += weights[v]
			}
			return 2*w > 10
		}},
		{"two of each of two groups of three", 9, func(s *set.Set) bool {
			groups := 0
			for g := 0; g < 3; g++ {
				c := 0
				for v := 3 * g; v < 3*g+3; v++ {
					if s.Has(v) {
						c++
					}
				}
				if c >= 2 {
					groups++
				}
			}
			return groups >= 2
		}},
		{"majority of old and of new", 6, func(s *set.Set) bool {
			old, nw := 0, 0
			for v := range s.All() {
				if v < 3 {
					old++
				}
				if v >= 2 {
					nw++
				}
			}
			return old >= 2 && nw >= 3
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Minimal(context.Background(), tt.n, tt.has, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			want := brute(tt.n, tt.has)
			if len(f.Quorums) != len(want) {
				t.Fatalf("%d minimal quorums, brute force finds %d", len(f.Quorums), len(want))
			}
			for i := range f.Quorums {
				if got := f.Quorums[i].String(); got != want[i] {
					t.Errorf("quorum %d = %s, want %s", i+1, got, want[i])
				}
			}
			r := &Rule{Nodes: tt.n, Has: tt.has}
			for mask := 0; mask < 1<<tt.n; mask++ {
				live := set.New(tt.n)
				for v := 0; v < tt.n; v++ {
					if mask>>v&1 == 1 {
						live.Add(v)
					}
				}
				if got, want := (Listed{f}).HasQuorum(live), r.HasQuorum(live); got != want {
					t.Fatalf("live %s: the listed family says %v, the rule %v", live, got, want)
				}
			}
		})
	}
}

func TestMinimalRefuses(t *testing.T) {
	maj := func(s *set.Set) bool { return s.Len() >= 6 }
	if _, err := Minimal(context.Background(), 11, maj, 100); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("462 quorums under a limit of 100: err = %v, want ErrTooMany", err)
	}
	if _, err := Minimal(context.Background(), 3, func(*set.Set) bool { return false }, 10); !errors.Is(err, ErrNoQuorum) {
		t.Errorf("no quorum at all: err = %v, want ErrNoQuorum", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Minimal(ctx, 24, func(s *set.Set) bool { return s.Len() >= 12 }, 1<<30); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}

func ExampleMinimal() {
	// Three groups of two servers; a quorum is both servers of two groups.
	has := func(s *set.Set) bool {
		full := 0
		for g := 0; g < 3; g++ {
			if s.Has(2*g) && s.Has(2*g+1) {
				full++
			}
		}
		return full >= 2
	}
	f, _ := Minimal(context.Background(), 6, has, 100)
	for i := range f.Quorums {
		fmt.Println(f.Quorums[i].String())
	}
	// Output:
	// {0 1 2 3}
	// {0 1 4 5}
	// {2 3 4 5}
}

// A threshold family's own form decides membership by counting and says
// its w; a listed family of the same quorums is not a Thresholder.
func TestOfThreshold(t *testing.T) {
	f := set.NewThreshold(5, 3)
	sys := Of(f)
	w, ok := ThresholdOf(sys)
	if !ok || w != 3 {
		t.Fatalf("ThresholdOf(Of(3 of 5)) = %d, %v", w, ok)
	}
	g, err := f.Enumerate(100)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ThresholdOf(Of(g)); ok {
		t.Fatal("the listed 3-of-5 claims to be a threshold")
	}
	for m := range 1 << 5 {
		live := set.New(5)
		for i := range 5 {
			if m>>i&1 == 1 {
				live.Add(i)
			}
		}
		if a, b := sys.HasQuorum(live), Of(g).HasQuorum(live); a != b {
			t.Fatalf("live %v: threshold %v, list %v", live, a, b)
		}
	}
}
