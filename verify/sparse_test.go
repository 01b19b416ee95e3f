package verify

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// randomShaped returns a random family of one of the shapes the sparse
// checks treat differently: quorums meeting by chance (mostly disjoint
// pairs), a star (a node in every quorum), quorums holding two of three
// core nodes (pairwise intersecting with no common node, so the index
// has to be walked), the last with one disjoint pair planted, and a
// projective plane with extra quorums; with repeats, subsets and owners
// here and there (repeats and subsets only when asked).
func randomShaped(rng *rand.Rand, shape, n, m int, repeats bool) *set.Family {
	f := set.NewFamily(n)
	for i := range m {
		var q set.Set
		switch {
		case repeats && i > 0 && rng.IntN(10) == 0:
			q.Copy(&f.Quorums[rng.IntN(i)])
			if rng.IntN(2) == 0 {
				q.Add(rng.IntN(n))
			}
		default:
			for range 1 + rng.IntN(6) {
				q.Add(3 + rng.IntN(n-3))
			}
			switch shape {
			case 1:
				q.Add(0)
			case 2, 3:
				a := rng.IntN(3)
				q.Add(a)
				q.Add((a + 1 + rng.IntN(2)) % 3)
			}
		}
		o := set.NoOwner
		if rng.IntN(3) == 0 {
			o = rng.IntN(n)
		}
		f.Add(&q, o)
	}
	if shape == 3 && m >= 2 {
		// Two quorums off the core, disjoint from each other.
		i, j := rng.IntN(m), rng.IntN(m)
		f.Quorums[i].Clear()
		f.Quorums[i].Add(n - 1)
		if j != i {
			f.Quorums[j].Clear()
			f.Quorums[j].Add(n - 2)
		}
	}
	return f
}

// verifyBoth runs Verify on f as bit sets and as node lists and fails the
// test unless the reports are the same.
func verifyBoth(t *testing.T, what string, f *set.Family) *Report {
	t.Helper()
	ctx := context.Background()
	want, err := Verify(ctx, set.System{Family: f}, Options{})
	if err != nil {
		t.Fatalf("%s: dense: %v", what, err)
	}
	got, err := Verify(ctx, set.System{Family: testsys.Sparse(f)}, Options{})
	if err != nil {
		t.Fatalf("%s: sparse: %v", what, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: sparse report\n%+v\nwant (dense)\n%+v\nquorums %v owners %v", what, got.Checks, want.Checks, f.Quorums, f.Owners)
	}
	return want
}

// The sparse form gives the report the bit-set form gives, witness for
// witness, on random families of every shape.
func TestSparseVerifyMatchesDense(t *testing.T) {
	count := map[string]int{}
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 77))
		shape := int(seed % 4)
		n := 8 + rng.IntN(60)
		m := 2 + rng.IntN(120)
		r := verifyBoth(t, "seed "+string(rune('0'+shape)), randomShaped(rng, shape, n, m, seed%8 < 4))
		for _, c := range r.Checks {
			if c.OK {
				count[c.Name]++
			}
		}
	}
	// The families are varied enough for both verdicts of the checks.
	if count["intersection"] < 40 || count["intersection"] > 360 || count["minimality"] < 20 || count["minimality"] > 380 {
		t.Errorf("verdicts too one-sided to test much: %v", count)
	}
}

// Past bigList quorums minimality goes through set.Family.Redundant on
// both forms; the projective plane of order 2 with its lines repeated
// checks the plane property on the list form.
func TestSparseVerifyMatchesDenseBig(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 78))
		verifyBoth(t, "big", randomShaped(rng, int(seed), 3000, bigList+500, seed%2 == 0))
	}
	fano := set.NewFamily(7)
	for _, l := range [][]int{{0, 1, 2}, {0, 3, 4}, {0, 5, 6}, {1, 3, 5}, {1, 4, 6}, {2, 3, 6}, {2, 4, 5}} {
		fano.Add(set.Of(l...), set.NoOwner)
	}
	if r := verifyBoth(t, "fano", fano); !r.Valid {
		t.Errorf("the Fano plane is not valid: %+v", r.Checks)
	}
	fano.Add(set.Of(0, 1, 3), set.NoOwner)
	verifyBoth(t, "fano plus a quorum", fano)
}

// The size proof on the list form: it holds exactly when the smallest
// quorum is more than half of the nodes in use (k = 1), agrees with the
// bit-set form, and never claims an intersection brute force refutes.
func TestSparsePigeonhole(t *testing.T) {
	for _, tt := range []struct {
		name string
		qs   [][]int
		k    int
		want bool
	}{
		{"two halves", [][]int{{0, 1, 2}, {3, 4, 5}}, 1, false},                         // 2·3 = 6 nodes: no proof, and indeed disjoint
		{"majorities of 7", [][]int{{0, 1, 2, 3}, {3, 4, 5, 6}, {0, 4, 5, 6}}, 1, true}, // 2·4 > 7
		{"majorities, k = 2", [][]int{{0, 1, 2, 3}, {3, 4, 5, 6}, {0, 4, 5, 6}}, 2, false},
		{"wide ids", [][]int{{0, 999_999}, {0, 1}}, 1, false}, // 2·2 = 4 > 3 nodes: true
	} {
		f := set.NewFamily(1_000_000)
		for _, q := range tt.qs {
			f.Add(set.Of(q...), set.NoOwner)
		}
		if tt.name == "wide ids" {
			tt.want = true
		}
		if got := pigeonhole(testsys.Sparse(f), tt.k); got != tt.want || got != pigeonhole(f, tt.k) {
			t.Errorf("%s: sparse pigeonhole %v, dense %v, want %v", tt.name, got, pigeonhole(f, tt.k), tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(26, 2))
	fired := 0
	for range 400 {
		k := 1 + rng.IntN(2)
		f := randomBig(rng, 3+rng.IntN(10), 2+rng.IntN(12), 3+rng.IntN(2), 5, false)
		g := testsys.Sparse(f)
		if pigeonhole(g, k) != pigeonhole(f, k) {
			t.Fatalf("%v: sparse and dense size proofs differ", f.Quorums)
		}
		if !pigeonhole(g, k) {
			continue
		}
		fired++
		if w, err := bruteDisjoint(context.Background(), f, k+1, nil); err != nil || w != nil {
			t.Fatalf("the size proof says every %d quorums of %v meet; brute force: %v, %v", k+1, f.Quorums, w, err)
		}
	}
	if fired < 20 {
		t.Fatalf("the size proof fired %d times: the test checks too little", fired)
	}
}

// A sparse family takes bit sets for what has no list version (k ≥ 2,
// the brute-force method) when they fit, and refuses with the reason
// when they do not.
func TestSparseNeedsBitSets(t *testing.T) {
	f := set.NewFamily(8)
	for _, q := range [][]int{{0, 1, 2}, {1, 2, 3}, {2, 3, 4}} {
		f.Add(set.Of(q...), set.NoOwner)
	}
	f.K = 2
	want, err := Verify(context.Background(), set.System{Family: f}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Verify(context.Background(), set.System{Family: testsys.Sparse(f)}, Options{})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("k = 2 on lists: %+v, %v; want %+v", got, err, want)
	}
	wide := set.NewFamily(set.MaxNodes)
	var l set.Lists
	for i := range int32(200) {
		l.Append([]int32{i, set.MaxNodes - 1 - i})
	}
	wide.Sparse, wide.K = &l, 2
	if _, err := Verify(context.Background(), set.System{Family: wide}, Options{}); err == nil {
		t.Fatal("k = 2 over ids up to 2^24 ran on bit sets of 400 MiB")
	}
}
