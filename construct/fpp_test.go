package construct

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/galois"
	"github.com/coterie-dev/coterie/set"
)

// planeOrders returns 1 and every prime power up to max.
func planeOrders(max int) []int {
	qs := []int{1}
	for q := 2; q <= max; q++ {
		if _, _, ok := galois.PrimePower(q); ok {
			qs = append(qs, q)
		}
	}
	return qs
}

func TestProjectivePlaneAxioms(t *testing.T) {
	for _, q := range planeOrders(32) {
		t.Run(fmt.Sprint(q), func(t *testing.T) {
			f, err := ProjectivePlane(q)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Validate(); err != nil {
				t.Fatal(err)
			}
			if f.Kind != "fpp" || f.Params["order"] != q || f.K != 1 {
				t.Errorf("Kind %q, Params %v, K %d; want fpp, order %d, 1", f.Kind, f.Params, f.K, q)
			}
			checkPlane(t, f, q)
			checkOwned(t, f)
			// Maekawa's property (d): every point lies in q+1 lines.
			for v, d := range f.Degrees() {
				if d != q+1 {
					t.Fatalf("point %d lies on %d lines, want %d", v+1, d, q+1)
				}
			}
		})
	}
}

// TestPlaneTables checks the plane's arithmetic helpers against each other:
// linePoint, appendLine and pointLine describe the same incidences.
func TestPlaneTables(t *testing.T) {
	for _, q := range []int{1, 2, 3, 4, 5, 8, 9, 16, 27} {
		pl, err := newPlane(q)
		if err != nil {
			t.Fatal(err)
		}
		on := make([]bool, pl.n*pl.n)
		for l := range pl.n {
			pts := pl.appendLine(nil, l)
			if len(pts) != q+1 {
				t.Fatalf("q=%d: appendLine(%d) has %d points", q, l, len(pts))
			}
			prev := -1
			for k := range q + 1 {
				p := pl.linePoint(l, k)
				if p != pts[k] {
					t.Fatalf("q=%d: line %d: linePoint %d, appendLine %d", q, l, p, pts[k])
				}
				if p <= prev {
					t.Fatalf("q=%d: line %d points not increasing at k=%d", q, l, k)
				}
				prev = p
				on[p*pl.n+l] = true
			}
		}
		for p := range pl.n {
			prev := -1
			for k := range q + 1 {
				l := pl.pointLine(p, k)
				if l <= prev || !on[p*pl.n+l] {
					t.Fatalf("q=%d: pointLine(%d, %d) = %d is wrong", q, p, k, l)
				}
				prev = l
			}
		}
	}
}

// TestFig1 checks Maekawa's printed Fig. 1 sets: each is a projective plane
// with every S_i containing i, and ours have the same parameters. For
// K = 2, 3, 4 our numbering gives exactly the printed lines; for K = 5 the
// printed plane labels GF(4) differently (the rows follow x ↦ x², the
// Frobenius automorphism), so only the parameters agree.
func TestFig1(t *testing.T) {
	for k := 2; k <= 5; k++ {
		t.Run(fmt.Sprintf("K=%d", k), func(t *testing.T) {
			q := k - 1
			fig := readFig(t, fmt.Sprintf("maekawa-fig1-k%d.txt", k))
			for i, o := range fig.Owners {
				if !fig.Quorums[i].Has(o) {
					t.Errorf("printed S_%d = %v does not contain %d", o+1, &fig.Quorums[i], o+1)
				}
			}
			canon := fig.Clone()
			canon.Canonical()
			checkOwned(t, canon)
			checkPlane(t, fig, q)
			ours, err := ProjectivePlane(q)
			if err != nil {
				t.Fatal(err)
			}
			checkPlane(t, ours, q)
			same := slices.EqualFunc(lineSets(fig), lineSets(ours), slices.Equal)
			if want := k <= 4; same != want {
				t.Errorf("our lines equal the printed ones: %v, want %v\nours: %v\nfig:  %v", same, want, lineSets(ours), lineSets(fig))
			}
		})
	}
}

// TestFig1dFrobenius confirms the reading of Fig. 1(d) given above: mapping
// each affine point (x, y) of ours to (x², y) gives the printed lines.
func TestFig1dFrobenius(t *testing.T) {
	fig := readFig(t, "maekawa-fig1-k5.txt")
	ours, err := ProjectivePlane(4)
	if err != nil {
		t.Fatal(err)
	}
	gf := galois.MustNew(4)
	relabel := func(p int) int {
		if p <= 4 {
			return p
		}
		x, y := (p-5)/4, (p-5)%4
		return 5 + gf.Mul(x, x)*4 + y
	}
	mapped := set.NewFamily(21)
	for i := range ours.Quorums {
		var s set.Set
		for p := range ours.Quorums[i].All() {
			s.Add(relabel(p))
		}
		mapped.Add(&s, set.NoOwner)
	}
	if !slices.EqualFunc(lineSets(fig), lineSets(mapped), slices.Equal) {
		t.Errorf("relabelled lines differ from Fig. 1(d):\nours: %v\nfig:  %v", lineSets(mapped), lineSets(fig))
	}
}

func TestProjectivePlaneErrors(t *testing.T) {
	for _, tt := range []struct {
		q    int
		want string
	}{
		{6, "construct: fpp: order = 6 is not a prime power; the nearest prime powers are 5 and 7"},
		{0, "construct: fpp: order = 0 must be 1 or a prime power"},
		{-4, "construct: fpp: order = -4 must be 1 or a prime power"},
		{1025, "construct: fpp: order = 1025 exceeds the largest supported order 1024 (1049601 points)"},
		{1000, "nearest prime powers are 997 and 1009"},
		{1023, "nearest prime powers are 1021 and 1024"},
	} {
		_, err := ProjectivePlane(tt.q)
		checkParamError(t, err, "order", tt.want)
	}
	// The galois error stays reachable.
	var oe *galois.OrderError
	if _, err := ProjectivePlane(6); !errors.As(err, &oe) || oe.Below != 5 || oe.Above != 7 {
		t.Errorf("ProjectivePlane(6): %v, want a galois.OrderError with 5 and 7", err)
	}
	// Too large to hold in memory: not a parameter error.
	want := "construct: fpp: order 307: 94557 quorums over 94557 nodes take 1.04 GiB in memory, more than 1 GiB: stream them instead"
	if _, err := ProjectivePlane(307); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ProjectivePlane(307) error = %v, want %q", err, want)
	}
}

// TestStreamPlane checks that the stream gives exactly ProjectivePlane's
// family, header first.
func TestStreamPlane(t *testing.T) {
	for _, q := range []int{1, 2, 3, 4, 7, 8, 9, 16} {
		want, err := ProjectivePlane(q)
		if err != nil {
			t.Fatal(err)
		}
		got := streamed(t, fppSpec, map[string]any{"order": q})
		if got.N != want.N || got.Kind != want.Kind || got.Params["order"] != q {
			t.Fatalf("q=%d: stream header %v %q %v", q, got.N, got.Kind, got.Params)
		}
		if len(got.Quorums) != len(want.Quorums) || !slices.Equal(got.Owners, want.Owners) {
			t.Fatalf("q=%d: streamed %d quorums, owners %v", q, len(got.Quorums), got.Owners)
		}
		for i := range want.Quorums {
			if !set.Equal(&got.Quorums[i], &want.Quorums[i]) {
				t.Fatalf("q=%d: quorum %d streamed %v, built %v", q, i+1, &got.Quorums[i], &want.Quorums[i])
			}
		}
	}
}

// streamed collects what spec.Stream emits into a family.
func streamed(t testing.TB, spec Spec, vals map[string]any) *set.Family {
	t.Helper()
	a, err := NewArgs(spec, vals)
	if err != nil {
		t.Fatal(err)
	}
	f, quorums, err := spec.Stream(a)
	if err != nil {
		t.Fatal(err)
	}
	if f.Quorums != nil {
		t.Fatalf("metadata %v carries quorums", f)
	}
	for q, owner := range quorums {
		f.Add(q, owner) // Add copies q
	}
	return f
}

// TestStreamLarge streams PG(2,64) and checks it without holding the
// incidence matrix: every line has 65 points, contains its owner, and
// every point lies on 65 lines; pairwise meeting is sampled.
func TestStreamLarge(t *testing.T) {
	const q = 64
	n := q*q + q + 1
	a, _ := NewArgs(fppSpec, map[string]any{"order": q})
	deg := make([]int, n)
	var keep []*set.Set
	next := 0
	h, lines, err := fppSpec.Stream(a)
	if err != nil {
		t.Fatal(err)
	}
	if h.N != n {
		t.Fatalf("header N = %d", h.N)
	}
	for s, owner := range lines {
		if owner != next || !s.Has(owner) || s.Len() != q+1 {
			t.Fatalf("line %d: owner %d, %d points", next, owner, s.Len())
		}
		next++
		for v := range s.All() {
			deg[v]++
		}
		if owner%97 == 0 {
			keep = append(keep, s.Clone())
		}
	}
	if next != n {
		t.Fatalf("%d lines, want %d", next, n)
	}
	for v, d := range deg {
		if d != q+1 {
			t.Fatalf("point %d on %d lines", v+1, d)
		}
	}
	for i := range keep {
		for j := i + 1; j < len(keep); j++ {
			if set.IntersectionLen(keep[i], keep[j]) != 1 {
				t.Fatalf("sampled lines %d, %d meet in %d points", i, j, set.IntersectionLen(keep[i], keep[j]))
			}
		}
	}
}

// TestStreamStops checks that breaking out of the range stops the stream,
// and that a second range starts again from the first line.
func TestStreamStops(t *testing.T) {
	a, _ := NewArgs(fppSpec, map[string]any{"order": 3})
	_, lines, err := fppSpec.Stream(a)
	if err != nil {
		t.Fatal(err)
	}
	var owners []int
	for _, owner := range lines {
		owners = append(owners, owner)
		if len(owners) == 4 {
			break
		}
	}
	for _, owner := range lines {
		owners = append(owners, owner)
	}
	if want := 4 + 13; len(owners) != want || !slices.Equal(owners[:4], owners[4:8]) {
		t.Errorf("owners %v: want the first 4, then all 13 again", owners)
	}
}
