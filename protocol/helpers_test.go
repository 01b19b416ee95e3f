package protocol

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// owned builds a coterie over n nodes from 1-based quorums, quorum i owned by
// owners[i] (1-based; 0 for none). A nil owners means no owners.
func owned(n int, owners []int, qs ...[]int) *set.Family {
	f := set.NewFamily(n)
	for i, q := range qs {
		s := set.New(n)
		for _, v := range q {
			s.Add(v - 1)
		}
		o := set.NoOwner
		if owners != nil && owners[i] > 0 {
			o = owners[i] - 1
		}
		f.Add(s, o)
	}
	return f
}

// fig reads Maekawa's Fig. 1 sets for K = k (testdata/maekawa-fig1-kK.txt,
// each S_i owned by node i), or another file of the repository's testdata.
func fig(t testing.TB, k int) *set.Family {
	t.Helper()
	return readTestdata(t, "maekawa-fig1-k"+string(rune('0'+k))+".txt").Family
}

func readTestdata(t testing.TB, name string) set.System {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := format.Detect(name)
	s, err := format.ReadBytes(data, f, format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// triangle is {{1,2},{2,3},{1,3}} with no owners: a coterie, and no
// 2-arbiter (its three quorums share nothing).
func triangle(k int) *set.Family {
	f := owned(3, nil, []int{1, 2}, []int{2, 3}, []int{1, 3})
	f.K = k
	return f
}

// cut is Maekawa's Fig. 1(b) with node 6 taken out of S_3 = {3,5,6}: S_3 and
// S_6 = {1,6,7} no longer meet.
func cut() *set.Family {
	return owned(7, []int{1, 4, 6, 2, 5, 7, 3},
		[]int{1, 2, 3}, []int{1, 4, 5}, []int{1, 6, 7}, []int{2, 4, 6},
		[]int{2, 5, 7}, []int{3, 4, 7}, []int{3, 5})
}

// plane returns PG(2,q).
func plane(t testing.TB, q int) *set.Family { return testsys.Plane(t, q) }

// method1 is Maekawa's Method 1 with his own map (x ↦ x − (N′−N)) on his
// Fig. 1 set for K = k: the systems of Table II.
func method1(t testing.TB, n, k int) *set.Family {
	t.Helper()
	f, err := construct.Degenerate(context.Background(), fig(t, k), n, construct.MapPaper)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func system(t testing.TB, f *set.Family) *System {
	t.Helper()
	s, err := NewSystem(set.System{Family: f})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func hkSystem(t testing.TB, a *set.HK) *System {
	t.Helper()
	s, err := NewSystem(set.System{HK: a})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSpec(t testing.TB, name string) Spec {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no protocol %q", name)
	}
	return s
}

func run(t testing.TB, name string, sys *System, cfg Config) *Result {
	t.Helper()
	r, err := Simulate(context.Background(), mustSpec(t, name), sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func explore(t testing.TB, name string, sys *System, cfg ExploreConfig) *ExploreResult {
	t.Helper()
	r, err := Explore(context.Background(), mustSpec(t, name), sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var (
	light = Load{Kind: Light}
	heavy = Load{Kind: Heavy}
)

func poisson(rate float64) Load { return Load{Kind: Poisson, Rate: rate} }

func constDelay(d float64) *Dist { return &Dist{Kind: Const, A: d} }
