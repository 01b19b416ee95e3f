package construct

import (
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// The golden files of TestGolden are not taken on trust: each is read and
// compared, level by level, with the system its paper defines, computed
// here from the definition alone (bit masks over all 2^n subsets, the
// paper's procedure, or its formulas), never with the constructor under
// test.

// quorumKey prints a quorum as its sorted node names (labels when the
// system has them, else 1-based numbers), and its owner after "@".
func quorumKey(names []string, q []int, owner int) string {
	var parts []string
	for _, v := range q {
		parts = append(parts, names[v])
	}
	slices.Sort(parts)
	s := strings.Join(parts, " ")
	if owner != set.NoOwner {
		s += "@" + names[owner]
	}
	return s
}

// goldenLevels reads a golden file into one sorted list of quorum keys per
// level (h = 0 for a coterie or k-arbiter).
func goldenLevels(t *testing.T, file string, withOwners bool) (map[int][]string, []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := format.ReadBytes(data, format.JSON, format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := sys.Labels()
	if names == nil {
		for i := range sys.N() {
			names = append(names, strconv.Itoa(i+1))
		}
	}
	out := map[int][]string{}
	for _, f := range sys.Families() {
		for i, q := range f.All() {
			var nodes []int
			for v := range q.All() {
				nodes = append(nodes, v)
			}
			owner := set.NoOwner
			if withOwners && f.Owners != nil {
				owner = f.Owners[i]
			}
			out[f.H] = append(out[f.H], quorumKey(names, nodes, owner))
		}
		slices.Sort(out[f.H])
	}
	return out, names
}

// subsetsOfSize lists the w-subsets of n nodes, by bit masks.
func subsetsOfSize(n, w int) [][]int {
	var out [][]int
	for mask := uint(0); mask < 1<<n; mask++ {
		if bits.OnesCount(mask) == w {
			var q []int
			for v := range n {
				if mask>>v&1 == 1 {
					q = append(q, v)
				}
			}
			out = append(out, q)
		}
	}
	return out
}

// minimalOnly drops every quorum that contains another one (as the paper's
// modification for n ≠ a^(k+1) says) and repeats, by bit masks.
func minimalOnly(qs []uint) []uint {
	var out []uint
	for i, q := range qs {
		keep := true
		for j, p := range qs {
			if j != i && p&q == p && (p != q || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, q)
		}
	}
	return out
}

func keys(names []string, qs [][]int, owners []int) []string {
	var out []string
	for i, q := range qs {
		owner := set.NoOwner
		if owners != nil {
			owner = owners[i]
		}
		out = append(out, quorumKey(names, q, owner))
	}
	slices.Sort(out)
	return out
}

func maskNodes(m uint) []int {
	var q []int
	for v := 0; m != 0; v, m = v+1, m>>1 {
		if m&1 == 1 {
			q = append(q, v)
		}
	}
	return q
}

// cubeOracle is a level of Manabe and Tajima's (k+1)-cube (h,k)-arbiter,
// Section 3.3 (z = 1 is the k-arbiter of Section 2: k+1 hyperplanes): the
// quorum of tuple b is the union over 0 ≤ j ≤ k+1−z of the subcubes
// {x : x_{i+j} = b_{i+j}, 1 ≤ i ≤ z}; tuple x is process Σ x_i·a^(i−1)
// mod n, and a quorum that contains another is dropped.
func cubeOracle(a, k, n, z int) [][]int {
	dims := k + 1
	tuples := 1
	for range dims {
		tuples *= a
	}
	digits := func(t int) []int {
		d := make([]int, dims)
		for i := range d {
			d[i], t = t%a, t/a
		}
		return d
	}
	var qs []uint
	for b := range tuples {
		bd := digits(b)
		var m uint
		for x := range tuples {
			xd := digits(x)
			for j := 0; j <= dims-z; j++ {
				match := true
				for i := range z {
					if xd[i+j] != bd[i+j] {
						match = false
					}
				}
				if match {
					m |= 1 << (x % n)
					break
				}
			}
		}
		qs = append(qs, m)
	}
	var out [][]int
	for _, m := range minimalOnly(qs) {
		out = append(out, maskNodes(m))
	}
	return out
}

func TestGoldenOracles(t *testing.T) {
	num := func(n int) []string {
		var s []string
		for i := range n {
			s = append(s, strconv.Itoa(i+1))
		}
		return s
	}
	t.Run("billiard-5.json", func(t *testing.T) {
		// Agrawal, Eğecioğlu, El Abbadi: site n's quorum is the broken
		// billiard path that the paper's procedure generate (Fig. 6) lists,
		// owned by n; q = 5 gives N = (q²−1)/2 = 12 sites.
		got, _ := goldenLevels(t, "billiard-5.json", true)
		var qs [][]int
		var owners []int
		for n := 1; n <= 12; n++ {
			var q []int
			for _, s := range generateFig6(5, n) {
				q = append(q, s-1)
			}
			qs, owners = append(qs, q), append(owners, n-1)
		}
		if want := keys(num(12), qs, owners); !slices.Equal(got[0], want) {
			t.Errorf("quorums@owner = %v\nwant (Fig. 6) %v", got[0], want)
		}
	})
	t.Run("majority-5.json", func(t *testing.T) {
		// The majority coterie of 5 nodes: every 3-subset.
		got, _ := goldenLevels(t, "majority-5.json", false)
		if want := keys(num(5), subsetsOfSize(5, 3), nil); !slices.Equal(got[0], want) {
			t.Errorf("quorums = %v\nwant %v", got[0], want)
		}
	})
	t.Run("uniform-7-3-hk.json", func(t *testing.T) {
		// Manabe and Tajima, Section 3.2: level h of the uniform
		// (h,k)-arbiter is every subset of ⌊kn/(k+h)⌋+1 nodes; n = 7, k = 3:
		// 6, 5 and 4 nodes for h = 1, 2, 3.
		got, _ := goldenLevels(t, "uniform-7-3-hk.json", false)
		for h, size := range map[int]int{1: 6, 2: 5, 3: 4} {
			if size != 3*7/(3+h)+1 {
				t.Fatalf("h = %d: %d is not ⌊kn/(k+h)⌋+1", h, size)
			}
			if want := keys(num(7), subsetsOfSize(7, size), nil); !slices.Equal(got[h], want) {
				t.Errorf("h = %d: quorums = %v\nwant %v", h, got[h], want)
			}
		}
		if len(got) != 3 {
			t.Errorf("%d levels, want 3", len(got))
		}
	})
	t.Run("cube-3-1.json", func(t *testing.T) {
		// Section 2: the 2-cube 1-arbiter over a² = 9 processes is the
		// square grid: quorum (b1,b2) = row b1 ∪ column b2.
		got, _ := goldenLevels(t, "cube-3-1.json", false)
		if want := keys(num(9), cubeOracle(3, 1, 9, 1), nil); !slices.Equal(got[0], want) {
			t.Errorf("quorums = %v\nwant %v", got[0], want)
		}
		for _, k := range got[0] {
			if n := len(strings.Fields(k)); n != 5 {
				t.Errorf("quorum %s has %d nodes, want 2a−1 = 5 (a row and a column)", k, n)
			}
		}
	})
	t.Run("cube-2-2-n7-hk.json", func(t *testing.T) {
		// Section 3.3 with the modification for n ≠ a^(k+1): a = 2, k = 2,
		// n = 7; z_h = ⌊(1+k)/(1+k/h)⌋ = 1 for h = 1 and 2.
		got, _ := goldenLevels(t, "cube-2-2-n7-hk.json", false)
		for h, z := range map[int]int{1: 1, 2: 1} {
			if want := keys(num(7), cubeOracle(2, 2, 7, z), nil); !slices.Equal(got[h], want) {
				t.Errorf("h = %d: quorums = %v\nwant %v", h, got[h], want)
			}
		}
	})
	t.Run("join-kuo.json", func(t *testing.T) {
		// Kuo, Section 3: C1 ⊕x C2 = {q1 ∈ C1 : x ∉ q1} ∪ {(q1 \ {x}) ∪ q2 :
		// x ∈ q1, q2 ∈ C2}, here with C1 = every 3-subset of {1,2,3,4},
		// C2 = every 3-subset of {a,b,c,d} and x = 4.
		got, names := goldenLevels(t, "join-kuo.json", false)
		outer := []string{"1", "2", "3", "4"}
		inner := []string{"a", "b", "c", "d"}
		var want []string
		for _, q1 := range subsetsOfSize(4, 3) {
			var left []string
			hasX := false
			for _, v := range q1 {
				if outer[v] == "4" {
					hasX = true
				} else {
					left = append(left, outer[v])
				}
			}
			if !hasX {
				slices.Sort(left)
				want = append(want, strings.Join(left, " "))
				continue
			}
			for _, q2 := range subsetsOfSize(4, 3) {
				q := slices.Clone(left)
				for _, v := range q2 {
					q = append(q, inner[v])
				}
				slices.Sort(q)
				want = append(want, strings.Join(q, " "))
			}
		}
		slices.Sort(want)
		if !slices.Equal(got[0], want) {
			t.Errorf("quorums = %v\nwant %v", got[0], want)
		}
		if !slices.Equal(names, []string{"1", "2", "3", "a", "b", "c", "d"}) {
			t.Errorf("labels %v, want the outer nodes but x, then the inner ones", names)
		}
	})
}
