package construct

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// checkEnumerated enumerates a threshold family and checks the count
// C(n, w), the sizes and that the quorums are distinct.
func checkEnumerated(t *testing.T, f *set.Family) *set.Family {
	t.Helper()
	if !f.IsThreshold() || f.Quorums != nil {
		t.Fatalf("%v is not in threshold form", f)
	}
	g, err := f.Enumerate(1 << 16)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Binomial(int64(f.N), int64(f.Threshold))
	if int64(len(g.Quorums)) != want.Int64() {
		t.Fatalf("%v: %d quorums, want C(%d,%d) = %s", f, len(g.Quorums), f.N, f.Threshold, want)
	}
	seen := map[string]bool{}
	for i := range g.Quorums {
		if g.Quorums[i].Len() != f.Threshold {
			t.Fatalf("%v: quorum %v has %d nodes", f, &g.Quorums[i], g.Quorums[i].Len())
		}
		seen[g.Quorums[i].String()] = true
	}
	if len(seen) != len(g.Quorums) {
		t.Fatalf("%v: repeated quorums", f)
	}
	return g
}

func TestMajority(t *testing.T) {
	for n := 1; n <= 9; n++ {
		f, err := Majority(n)
		if err != nil {
			t.Fatal(err)
		}
		if f.Threshold != n/2+1 || f.K != 1 || f.Kind != "majority" || f.Params["n"] != n || f.Validate() != nil {
			t.Fatalf("Majority(%d) = %v %q %v", n, f, f.Kind, f.Params)
		}
		g := checkEnumerated(t, f)
		if i, j, ok := pairwiseWitness(g.Quorums); !ok {
			t.Fatalf("n = %d: %v ∩ %v = ∅", n, &g.Quorums[i], &g.Quorums[j])
		}
	}
	// Kuo's Theorem 7 example: the majority of 7 nodes has AV(1/2) = 1/2,
	// i.e. exactly half of the 2^7 subsets hold a quorum.
	f, _ := Majority(7)
	holding := new(big.Int)
	for i := f.Threshold; i <= 7; i++ {
		holding.Add(holding, new(big.Int).Binomial(7, int64(i)))
	}
	if holding.Int64() != 64 {
		t.Errorf("majority of 7: %s of 128 subsets hold a quorum, want 64", holding)
	}
	for _, n := range []int{0, -1, set.MaxNodes + 1} {
		if _, err := Majority(n); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("Majority(%d) error %v", n, err)
		}
	}
}

func TestUniformSizes(t *testing.T) {
	for n := 1; n <= 200; n++ {
		for k := 1; k <= 6; k++ {
			f, err := Uniform(n, k)
			if err != nil {
				t.Fatal(err)
			}
			w := f.Threshold
			// Kuo writes the same size as ⌈(kN+1)/(k+1)⌉ (Section 5).
			if kuo := (k*n + 1 + k) / (k + 1); w != kuo {
				t.Fatalf("n = %d, k = %d: %d, Kuo's form gives %d", n, k, w, kuo)
			}
			if f.K != k || f.Kind != "uniform" || f.Params["k"] != k || w < 1 || w > n {
				t.Fatalf("Uniform(%d, %d) = %v %v", n, k, f, f.Params)
			}
			hk, err := UniformHK(n, k)
			if err != nil {
				t.Fatal(err)
			}
			if err := hk.Validate(); err != nil {
				t.Fatal(err)
			}
			for h := 1; h <= k; h++ {
				l := hk.Level(h)
				if l == nil || l.Threshold != k*n/(k+h)+1 {
					t.Fatalf("n = %d, k = %d: level %d = %v", n, k, h, l)
				}
				// Section 3.2: no larger than the uniform k-arbiter's.
				if l.Threshold > w {
					t.Errorf("n = %d, k = %d, h = %d: %d > %d", n, k, h, l.Threshold, w)
				}
				one, err := UniformLevel(n, k, h)
				if err != nil || len(one.Levels) != 1 || one.Levels[0].Threshold != l.Threshold || one.Params["h"] != h {
					t.Fatalf("UniformLevel(%d, %d, %d) = %v, %v", n, k, h, one, err)
				}
			}
			if hk.Level(1).Threshold != w {
				t.Errorf("n = %d, k = %d: level 1 is not the k-arbiter", n, k)
			}
			// Level k is the majority coterie's size.
			if hk.Level(k).Threshold != n/2+1 {
				t.Errorf("n = %d, k = %d: level k has %d, want ⌊n/2⌋+1", n, k, hk.Level(k).Threshold)
			}
			// The proof of Theorem 3 in counts: the quorums of a critical
			// pattern leave out fewer than n nodes in all, so they meet.
			for _, p := range criticalPatterns(k) {
				left := 0
				for _, h := range p {
					left += n - hk.Level(h).Threshold
				}
				if left >= n {
					t.Fatalf("n = %d, k = %d: pattern %v leaves out %d ≥ n nodes", n, k, p, left)
				}
			}
		}
	}
}

func TestUniformIntersectionBruteForce(t *testing.T) {
	// Enumerated small uniform arbiters, checked quorum by quorum: the
	// k-arbiter's (k+1)-wise intersection and the (h,k) condition.
	for n := 1; n <= 7; n++ {
		for k := 1; k <= 3; k++ {
			name := fmt.Sprintf("n=%d,k=%d", n, k)
			f, _ := Uniform(n, k)
			g := checkEnumerated(t, f)
			if w, ok := kwiseWitness(g.Quorums, k); !ok {
				t.Errorf("%s: quorums %v do not meet", name, w)
			}
			hk, _ := UniformHK(n, k)
			levels := map[int][]set.Set{}
			for _, l := range hk.Levels {
				levels[l.H] = checkEnumerated(t, l).Quorums
			}
			if p, qa, ok := hkWitness(levels, k); !ok {
				t.Errorf("%s: pattern %v, assignment %v share no node", name, p, qa)
			}
		}
	}
	// One node fewer at level k = 3 over 7 nodes (3 instead of ⌊7/2⌋+1 =
	// 4) lets the pattern {3,3} pick two disjoint quorums, {1,2,3} and
	// {4,5,6}: the checker must see it.
	hk, _ := UniformHK(7, 3)
	levels := map[int][]set.Set{}
	for _, l := range hk.Levels {
		l = l.Clone()
		if l.H == 3 {
			l.Threshold--
		}
		levels[l.H] = checkEnumerated(t, l).Quorums
	}
	if p, _, ok := hkWitness(levels, 3); ok || fmt.Sprint(p) != "[3 3]" {
		t.Errorf("uniform (h,k) with level 3 one node short: witness pattern %v, ok %v; want [3 3]", p, ok)
	}
}

func TestUniformErrors(t *testing.T) {
	for _, tt := range []struct {
		n, k, h int
		want    string
	}{
		{0, 2, 1, "n = 0 is out of range"},
		{5, 0, 1, "k = 0 is out of range"},
		{5, 2, 3, "h = 3 is out of range 1..k = 2"},
		{5, 2, 0, "h = 0 is out of range 1..k = 2"},
	} {
		_, err := UniformLevel(tt.n, tt.k, tt.h)
		checkParamError(t, err, tt.want[:1], tt.want)
	}
	if _, err := Uniform(5, 0); err == nil {
		t.Error("Uniform(5, 0) did not fail")
	}
	_, err := UniformHK(5, maxLevels+1)
	checkParamError(t, err, "k", "build one level h instead")
}
