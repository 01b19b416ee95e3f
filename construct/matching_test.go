package construct

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// kuhn returns the size of a maximum matching by the simple augmenting-path
// algorithm, one DFS per left vertex: an independent oracle.
func kuhn(g *adjacency) int {
	matchR := make([]int, g.right())
	for i := range matchR {
		matchR[i] = -1
	}
	var try func(u int, seen []bool) bool
	try = func(u int, seen []bool) bool {
		for _, v := range g.row(u) {
			if seen[v] {
				continue
			}
			seen[v] = true
			if matchR[v] < 0 || try(matchR[v], seen) {
				matchR[v] = u
				return true
			}
		}
		return false
	}
	size := 0
	for u := range g.left() {
		if try(u, make([]bool, g.right())) {
			size++
		}
	}
	return size
}

func randomGraph(rng *rand.Rand, nl, nr int, p float64) *adjacency {
	a := &adjacency{nr: nr, off: []int32{0}}
	for range nl {
		for v := range nr {
			if rng.Float64() < p {
				a.adj = append(a.adj, int32(v))
			}
		}
		a.off = append(a.off, int32(len(a.adj)))
	}
	return a
}

// checkMatching fails t unless m is a valid matching of g.
func checkMatching(t *testing.T, g bipartite, m *matching) {
	t.Helper()
	size := 0
	for u, v := range m.l {
		if v == unmatched {
			continue
		}
		size++
		if int(m.r[v]) != u {
			t.Fatalf("l[%d] = %d but r[%d] = %d", u, v, v, m.r[v])
		}
		found := false
		for k := range g.degree(u) {
			if g.neighbor(u, k) == int(v) {
				found = true
			}
		}
		if !found {
			t.Fatalf("matched %d–%d is not an edge", u, v)
		}
	}
	for v, u := range m.r {
		if u != unmatched && int(m.l[u]) != v {
			t.Fatalf("r[%d] = %d but l[%d] = %d", v, u, u, m.l[u])
		}
	}
	if size != m.size {
		t.Fatalf("size %d, counted %d", m.size, size)
	}
}

func TestMaxMatchingRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1973, 2)) // fixed seed
	for i := range 600 {
		nl, nr := 1+rng.IntN(40), 1+rng.IntN(40)
		p := []float64{0.02, 0.05, 0.1, 0.3}[i%4]
		g := randomGraph(rng, nl, nr, p)
		m := maxMatching(g)
		checkMatching(t, g, m)
		if want := kuhn(g); m.size != want {
			t.Fatalf("graph %d (%d×%d): Hopcroft–Karp %d, Kuhn %d", i, nl, nr, m.size, want)
		}
		x := hallViolator(g, m)
		if (x == nil) != (m.size == nl) {
			t.Fatalf("graph %d: violator %v with matching %d of %d", i, x, m.size, nl)
		}
		if x != nil {
			nb := map[int32]bool{}
			for _, u := range x {
				for _, v := range g.row(u) {
					nb[v] = true
				}
			}
			// König: the deficiency of X is exactly what the matching misses.
			if len(x)-len(nb) != nl-m.size {
				t.Fatalf("graph %d: |X| = %d, |N(X)| = %d, deficiency %d", i, len(x), len(nb), nl-m.size)
			}
		}
	}
}

// coldIncidence hides the seed, so that Hopcroft–Karp starts from the plain
// greedy matching.
type coldIncidence struct{ g incidence }

func (c coldIncidence) left() int             { return c.g.left() }
func (c coldIncidence) right() int            { return c.g.right() }
func (c coldIncidence) degree(u int) int      { return c.g.degree(u) }
func (c coldIncidence) neighbor(u, k int) int { return c.g.neighbor(u, k) }

// TestPlaneOwnerSeed cross-checks the structural owner assignment against
// Hopcroft–Karp from a cold start: for q ≥ 3 the seed alone is a perfect
// matching; both are perfect matchings of the incidence graph.
func TestPlaneOwnerSeed(t *testing.T) {
	for _, q := range planeOrders(128) {
		pl, err := newPlane(q)
		if err != nil {
			t.Fatal(err)
		}
		g := incidence{pl}
		owned := make([]bool, pl.n)
		complete := true
		for p := range pl.n {
			k := g.seed(p)
			if k < 0 {
				complete = false
				continue
			}
			l := pl.pointLine(p, k)
			if owned[l] {
				t.Fatalf("q=%d: line %d seeded twice", q, l)
			}
			owned[l] = true
		}
		if complete != (q != 2) {
			t.Errorf("q=%d: seed complete = %v", q, complete)
		}
		warm := maxMatching(g)
		checkMatching(t, g, warm)
		cold := maxMatching(coldIncidence{g})
		checkMatching(t, g, cold)
		if warm.size != pl.n || cold.size != pl.n {
			t.Fatalf("q=%d: matchings of %d and %d, want %d", q, warm.size, cold.size, pl.n)
		}
	}
}

func TestAssignOwners(t *testing.T) {
	// Maekawa's Fig. 1(c) without its owners: a matching is found and every
	// node gets a line through itself.
	fig := readFig(t, "maekawa-fig1-k4.txt")
	fig.Owners = nil
	if err := AssignOwners(fig); err != nil {
		t.Fatal(err)
	}
	checkOwned(t, fig)
	checkPlane(t, fig, 3)

	// Nodes 1, 2, 3 lie only in {1,2} and {2,3}: Hall's condition fails.
	f := set.NewFamily(4)
	for _, q := range [][]int{{0, 1}, {1, 2}, {3}, {3}} {
		f.Add(set.Of(q...), set.NoOwner)
	}
	err := AssignOwners(f)
	if err == nil || !strings.Contains(err.Error(), "nodes 1, 2, 3 lie in only 2 quorums between them") {
		t.Errorf("AssignOwners = %v, want a Hall violation naming nodes 1, 2, 3", err)
	}
	if f.Owners != nil {
		t.Errorf("failed AssignOwners changed the owners to %v", f.Owners)
	}
	if err := AssignOwners(set.NewThreshold(5, 3)); err == nil {
		t.Error("AssignOwners accepted a threshold family")
	}

	// More quorums than nodes: the extra ones stay unowned, after the owned.
	g := set.NewFamily(2)
	for _, q := range [][]int{{0, 1}, {1}, {0}} {
		g.Add(set.Of(q...), set.NoOwner)
	}
	if err := AssignOwners(g); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %v %v", g.Owners, &g.Quorums[0], &g.Quorums[1]); got != "[0 1 -1] {0 1} {1}" {
		t.Errorf("owners of {1,2},{2},{1} = %s", got)
	}
}

func BenchmarkMaxMatching(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	g := randomGraph(rng, 2000, 2000, 0.003)
	b.ReportAllocs()
	for b.Loop() {
		maxMatching(g)
	}
}
