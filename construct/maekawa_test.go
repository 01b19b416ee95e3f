package construct

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/galois"
	"github.com/coterie-dev/coterie/set"
)

// messages is Maekawa's light-demand message count per critical section,
// 3·(mean |S_i| − 1) (Section 8.1; the messages_per_entry of coterie info).
func messages(f *set.Family) float64 {
	return 3 * (float64(totalSize(f))/float64(len(f.Quorums)) - 1)
}

// TestTableII applies Maekawa's own map x ↦ x − (N′−N) to his printed
// Fig. 1 sets and gets Table II: 4.8, 5.5, 8.1, 11.7 messages for N = 5, 6,
// 10, 18.
func TestTableII(t *testing.T) {
	for _, tt := range []struct {
		n, k int
		want string
	}{
		{5, 3, "4.8"},
		{6, 3, "5.5"},
		{10, 4, "8.1"},
		{18, 5, "11.7"},
	} {
		fig := readFig(t, fmt.Sprintf("maekawa-fig1-k%d.txt", tt.k))
		f, err := Degenerate(context.Background(), fig, tt.n, MapPaper)
		if err != nil {
			t.Fatal(err)
		}
		checkIntersecting(t, f)
		checkOwned(t, f)
		if got := fmt.Sprintf("%.1f", messages(f)); got != tt.want {
			t.Errorf("N = %d: %s messages (total size %d), Table II says %s", tt.n, got, totalSize(f), tt.want)
		}
	}
}

// TestMaekawaN5 reproduces the degenerated sets Maekawa prints for N = 5.
func TestMaekawaN5(t *testing.T) {
	fig := readFig(t, "maekawa-fig1-k3.txt")
	got, err := Degenerate(context.Background(), fig, 5, MapPaper)
	if err != nil {
		t.Fatal(err)
	}
	want := readFig(t, "maekawa-n5.txt")
	if !slices.Equal(got.Owners, want.Owners) || !slices.EqualFunc(got.Quorums, want.Quorums,
		func(a, b set.Set) bool { return set.Equal(&a, &b) }) {
		t.Errorf("N = 5: got %v owners %v, printed %v", got, got.Owners, want)
	}
}

// bound is the smallest total quorum size Method 1 can reach from the plane
// of order q with N′ points: each removed point shortens at most one kept
// line, the one through it and its replacement.
func bound(n int) (q, total int) {
	q = PlaneFor(n)
	np := q*q + q + 1
	return q, n*(q+1) - (np - n)
}

// TestMaekawaMin checks our default map for every N up to 400: a valid,
// owned, intersecting system whose total size meets the Method 1 lower
// bound, with no line losing more points than the fewest possible given
// which lines are kept (c, the least load of a removed-point-to-kept-line
// b-matching; it is 1, 2 or 3 up to N = 400); and the paper's map never
// does better.
func TestMaekawaMin(t *testing.T) {
	top := 400
	if testing.Short() {
		top = 120
	}
	for n := 3; n <= top; n++ {
		f, err := Maekawa(n, MapMin)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Validate(); err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
		q, want := bound(n)
		if f.N != n || f.Kind != "maekawa" || f.Params["n"] != n || f.Params["order"] != q {
			t.Fatalf("N = %d: N %d, Kind %q, Params %v", n, f.N, f.Kind, f.Params)
		}
		checkOwned(t, f)
		checkIntersecting(t, f)
		if got := totalSize(f); got != want {
			t.Errorf("N = %d: total size %d, bound %d", n, got, want)
		}
		lo := q + 1
		for i := range f.Quorums {
			lo = min(lo, f.Quorums[i].Len())
		}
		if c := leastLoad(t, n); q+1-lo > c || c > 3 {
			t.Errorf("N = %d: a line lost %d points; the least possible load is %d", n, q+1-lo, c)
		}
		p, err := Maekawa(n, MapPaper)
		if err != nil {
			t.Fatal(err)
		}
		checkOwned(t, p)
		checkIntersecting(t, p)
		if totalSize(p) < totalSize(f) {
			t.Errorf("N = %d: paper's map total %d beats ours %d", n, totalSize(p), totalSize(f))
		}
	}
}

// leastLoad returns the least c for which each point above n gets a kept
// line through it with no line chosen more than c times.
func leastLoad(t *testing.T, n int) int {
	mp, err := newMaekawaPlan(n, MapPaper)
	if err != nil {
		t.Fatal(err)
	}
	lineOwner := make([]int32, mp.pl.n)
	for p, l := range mp.owners {
		lineOwner[l] = int32(p)
	}
	for c := 1; ; c++ {
		if c > mp.pl.q+1 || maxMatching(removedToLines{mp.pl, n, lineOwner, c}).size == mp.pl.n-n {
			return c
		}
	}
}

// TestMaekawaCrossCheck compares the plane's fast path with the general
// Degenerate on the explicit plane: the paper's map gives the same family,
// and the Hungarian optimum has the same total as ours.
func TestMaekawaCrossCheck(t *testing.T) {
	for n := 3; n <= 60; n++ {
		q := PlaneFor(n)
		plane, err := ProjectivePlane(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, how := range []DegenerateMap{MapPaper, MapMin} {
			fast, err := Maekawa(n, how)
			if err != nil {
				t.Fatal(err)
			}
			general, err := Degenerate(context.Background(), plane, n, how)
			if err != nil {
				t.Fatal(err)
			}
			checkOwned(t, general)
			checkIntersecting(t, general)
			if how == MapPaper && !slices.EqualFunc(lineSets(fast), lineSets(general), slices.Equal) {
				t.Errorf("N = %d: paper's map differs: %v vs %v", n, fast, general)
			}
			if totalSize(fast) != totalSize(general) {
				t.Errorf("N = %d, %v: total %d by the plane, %d by the Hungarian method", n, how, totalSize(fast), totalSize(general))
			}
		}
	}
}

func TestMaekawaPlanes(t *testing.T) {
	// N = K(K−1)+1 with K−1 a prime power is the plane itself.
	for _, q := range []int{1, 2, 3, 4, 5, 7, 8} {
		n := q*q + q + 1
		f, err := Maekawa(n, MapMin)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := ProjectivePlane(q)
		if !slices.EqualFunc(lineSets(f), lineSets(p), slices.Equal) || !slices.Equal(f.Owners, p.Owners) {
			t.Errorf("N = %d is not PG(2,%d)", n, q)
		}
		if _, ok := f.Params["map"]; ok {
			t.Errorf("N = %d: Params %v name a map", n, f.Params)
		}
	}
	// N = 43 = 7·6+1, but there is no plane of order 6: Method 1 from PG(2,7).
	if q := PlaneFor(43); q != 7 {
		t.Errorf("PlaneFor(43) = %d, want 7", q)
	}
	if q := PlaneFor(3); q != 1 {
		t.Errorf("PlaneFor(3) = %d, want 1", q)
	}
}

func TestMaekawaStream(t *testing.T) {
	for _, n := range []int{3, 4, 10, 18, 43, 100} {
		for _, how := range []string{"min", "paper"} {
			args := map[string]any{"n": n, "map": how}
			got := streamed(t, maekawaSpec, args)
			a, _ := NewArgs(maekawaSpec, args)
			sys, err := maekawaSpec.complete().Build(a)
			if err != nil {
				t.Fatal(err)
			}
			want := sys.Family
			if got.N != want.N || fmt.Sprint(got.Params) != fmt.Sprint(want.Params) || !slices.Equal(got.Owners, want.Owners) {
				t.Fatalf("n=%d %s: stream header %v %v", n, how, got.Params, got.Owners)
			}
			for i := range want.Quorums {
				if !set.Equal(&got.Quorums[i], &want.Quorums[i]) {
					t.Fatalf("n=%d %s: quorum %d streamed %v, built %v", n, how, i+1, &got.Quorums[i], &want.Quorums[i])
				}
			}
		}
	}
}

func TestMaekawaErrors(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{
		{2, "construct: maekawa: n = 2 is too small: Maekawa's sets need at least 3 nodes"},
		{-5, "construct: maekawa: n = -5 is too small: Maekawa's sets need at least 3 nodes"},
		{MaxMaekawaNodes + 1, "construct: maekawa: n = 1049602 is too large: the largest plane coterie builds, of order 1024, has 1049601 points"},
		{100000, "construct: maekawa: n = 100000: 100000 quorums over 100000 nodes take 1.16 GiB in memory"},
	} {
		if _, err := Maekawa(tt.n, MapMin); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Maekawa(%d) error = %v, want %q", tt.n, err, tt.want)
		}
	}
	a, _ := NewArgs(maekawaSpec, map[string]any{"n": 10, "map": "best"})
	if _, err := maekawaSpec.complete().Build(a); err == nil || !strings.Contains(err.Error(), `unknown map "best"`) {
		t.Errorf("map best: %v", err)
	}
}

func TestDegenerateErrors(t *testing.T) {
	p, _ := ProjectivePlane(3)
	ctx := context.Background()
	for _, tt := range []struct {
		n    int
		want string
	}{
		{14, "n = 14 is out of range 1..13"},
		{0, "n = 0 is out of range 1..13"},
		{6, "n = 6 keeps fewer nodes than it removes (7): Method 1 replaces each removed node by a distinct kept one, so n must be at least 7"},
	} {
		if _, err := Degenerate(ctx, p, tt.n, MapMin); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Degenerate(n = %d) = %v, want %q", tt.n, err, tt.want)
		}
	}
	if _, err := Degenerate(ctx, set.NewThreshold(5, 3), 4, MapMin); err == nil {
		t.Error("Degenerate accepted a threshold family")
	}
	big := set.NewFamily(20000)
	big.Add(set.Full(20000), 0)
	if _, err := Degenerate(ctx, big, 10000, MapMin); err == nil || !strings.Contains(err.Error(), "too large for the optimal map") {
		t.Errorf("Degenerate of 20000 to 10000 nodes = %v, want a refusal", err)
	}
	if g, err := Degenerate(ctx, big, 10000, MapPaper); err != nil || g.N != 10000 || g.Quorums[0].Len() != 10000 {
		t.Errorf("paper's map on 20000 to 10000 nodes = %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Degenerate(cancelled, p, 10, MapMin); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("cancelled Degenerate = %v", err)
	}
}

// TestDegenerateGrid degenerates a system that is not a plane, where shared
// quorums count more than once: the 4×4 grid to 12 nodes. Every pair still
// meets, and the optimal map beats the paper's.
func TestDegenerateGrid(t *testing.T) {
	g, err := Grid(4, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	for n := 8; n <= 16; n++ {
		minF, err := Degenerate(context.Background(), g, n, MapMin)
		if err != nil {
			t.Fatal(err)
		}
		paper, err := Degenerate(context.Background(), g, n, MapPaper)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []*set.Family{minF, paper} {
			checkOwned(t, f)
			checkIntersecting(t, f)
		}
		if totalSize(minF) > totalSize(paper) {
			t.Errorf("n = %d: min map total %d > paper's %d", n, totalSize(minF), totalSize(paper))
		}
		if minF.Kind != "degenerate" || minF.Params["source_kind"] != "grid" || minF.Params["source_n"] != 16 {
			t.Errorf("n = %d: Kind %q Params %v", n, minF.Kind, minF.Params)
		}
	}
}

// TestMaxWeightAssignment checks the Hungarian method against brute force
// over every injective map.
func TestMaxWeightAssignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(1955, 1957)) // fixed seed
	for trial := range 300 {
		r := 1 + rng.IntN(5)
		c := r + rng.IntN(3)
		w := make([]int32, r*c)
		for i := range w {
			w[i] = int32(rng.IntN(4))
		}
		got, err := maxWeightAssignment(context.Background(), w, r, c)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		total := 0
		for i, j := range got {
			if seen[j] || j < 0 || j >= c {
				t.Fatalf("trial %d: assignment %v is not injective", trial, got)
			}
			seen[j] = true
			total += int(w[i*c+j])
		}
		if best := bruteAssign(w, r, c, 0, make([]bool, c)); total != best {
			t.Fatalf("trial %d: total %d, brute force %d (w=%v, r=%d, c=%d)", trial, total, best, w, r, c)
		}
	}
}

func bruteAssign(w []int32, r, c, i int, used []bool) int {
	if i == r {
		return 0
	}
	best := -1
	for j := range c {
		if !used[j] {
			used[j] = true
			best = max(best, int(w[i*c+j])+bruteAssign(w, r, c, i+1, used))
			used[j] = false
		}
	}
	return best
}

// TestMethod1Gaps checks Maekawa's remark in Section 7: for K = L whose L−1
// is not a prime power, the next M with M−1 a prime power is at most 2
// away for K ≤ 20 (L = 15, M = 17) and 4 away for K ≤ 50 (L = 34, M = 38).
func TestMethod1Gaps(t *testing.T) {
	type gap struct{ l, m int }
	widest := func(top int) gap {
		var w gap
		for l := 2; l <= top; l++ {
			m := l
			for _, _, ok := galois.PrimePower(m - 1); !ok && m-1 != 1; _, _, ok = galois.PrimePower(m - 1) {
				m++
			}
			if m-l > w.m-w.l {
				w = gap{l, m}
			}
		}
		return w
	}
	if got := widest(20); got != (gap{15, 17}) {
		t.Errorf("widest gap for K ≤ 20: L = %d, M = %d; Maekawa says 15, 17", got.l, got.m)
	}
	if got := widest(50); got != (gap{34, 38}) {
		t.Errorf("widest gap for K ≤ 50: L = %d, M = %d; Maekawa says 34, 38", got.l, got.m)
	}
}
