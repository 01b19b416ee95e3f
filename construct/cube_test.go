package construct

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

func ipow(a, e int) int {
	p := 1
	for range e {
		p *= a
	}
	return p
}

// digits returns the k+1 coordinates of tuple t (x_1 is the least
// significant, t = Σ x_i·a^(i−1)).
func digits(a, d, t int) []int {
	x := make([]int, d)
	for i := range x {
		x[i] = t % a
		t /= a
	}
	return x
}

// inCubeQuorum reports, straight from the paper's definition, whether tuple
// x is in q_{h,k}^b: x agrees with b on some window of z consecutive
// coordinates.
func inCubeQuorum(x, b []int, z int) bool {
	for j := 0; j+z <= len(x); j++ {
		if slices.Equal(x[j:j+z], b[j:j+z]) {
			return true
		}
	}
	return false
}

// bruteQuorum returns q^b as the image, mod n, of every tuple in it.
func bruteQuorum(a, k, z, b, n int) *set.Set {
	d := k + 1
	bd := digits(a, d, b)
	s := new(set.Set)
	for t := range ipow(a, d) {
		if inCubeQuorum(digits(a, d, t), bd, z) {
			s.Add(t % n)
		}
	}
	return s
}

// ieSize counts a quorum of the (k+1)-cube over a^(k+1) nodes made of
// subcubes fixing z consecutive coordinates, by inclusion–exclusion over
// its k+2−z subcubes: the intersection of a set W of them fixes the union
// of their windows, leaving a^(k+1−|∪W|) nodes.
func ieSize(a, k, z int) int64 {
	d := k + 1
	m := d - z + 1
	var total int64
	for mask := 1; mask < 1<<m; mask++ {
		var fixed uint
		for j := range m {
			if mask&(1<<j) != 0 {
				fixed |= (1<<z - 1) << j
			}
		}
		size := int64(ipow(a, d-popcount(fixed)))
		if popcount(uint(mask))%2 == 1 {
			total += size
		} else {
			total -= size
		}
	}
	return total
}

func popcount(x uint) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

func TestCubeZ(t *testing.T) {
	for k := 1; k <= 40; k++ {
		for h := 1; h <= k; h++ {
			// z_h = ⌊(1+k)/(1+k/h)⌋ in exact rationals.
			r := new(big.Rat).Quo(big.NewRat(int64(1+k), 1), new(big.Rat).Add(big.NewRat(1, 1), big.NewRat(int64(k), int64(h))))
			want := new(big.Int).Quo(r.Num(), r.Denom()).Int64()
			if got := CubeZ(k, h); int64(got) != want {
				t.Fatalf("CubeZ(%d, %d) = %d, want %d", k, h, got, want)
			}
		}
		if CubeZ(k, 1) != 1 || CubeZ(k, k) != (k+1)/2 {
			t.Fatalf("k = %d: z_1 = %d, z_k = %d; want 1 and ⌊(k+1)/2⌋", k, CubeZ(k, 1), CubeZ(k, k))
		}
	}
}

func TestCubeQuorumSizes(t *testing.T) {
	// For every k ≤ 6, h ≤ k, a ≤ 5 (Manabe and Tajima's claims, Section
	// 3.3): a level-h quorum, as built, equals the paper's definition
	// evaluated tuple by tuple; its size is the inclusion–exclusion count,
	// at most the paper's (k+2−z_h)·a^(k+1−z_h), and no larger than the
	// k-arbiter's. Within a level all quorums have one size (translations
	// x_i ↦ x_i − b_i are automorphisms), so three tuples per level do.
	for k := 1; k <= 6; k++ {
		for a := 2; a <= 5; a++ {
			d := k + 1
			full := ipow(a, d)
			karb := int64(full - ipow(a-1, d)) // the k-arbiter's, by complement
			if ieSize(a, k, 1) != karb {
				t.Fatalf("a = %d, k = %d: inclusion–exclusion %d, complement count %d", a, k, ieSize(a, k, 1), karb)
			}
			for h := 1; h <= k; h++ {
				z := CubeZ(k, h)
				c := newCube(a, k, z)
				want := ieSize(a, k, z)
				for _, b := range []int{0, full / 2, full - 1} {
					q := new(set.Set)
					c.add(q, b, full)
					if !set.Equal(q, bruteQuorum(a, k, z, b, full)) {
						t.Fatalf("a = %d, k = %d, h = %d: quorum of tuple %v differs from the definition", a, k, h, digits(a, d, b))
					}
					if got := int64(q.Len()); got != want {
						t.Fatalf("a = %d, k = %d, h = %d: |q| = %d, inclusion–exclusion gives %d", a, k, h, got, want)
					}
				}
				if bound := int64(CubeBound(a, k, h)); want > bound {
					t.Errorf("a = %d, k = %d, h = %d: |q| = %d exceeds the paper's bound %d", a, k, h, want, bound)
				}
				if want > karb {
					t.Errorf("a = %d, k = %d, h = %d: |q| = %d is larger than the k-arbiter's %d", a, k, h, want, karb)
				}
			}
			// Section 3.3: level k's size is (⌈(k+1)/2⌉+1)·a^⌈(k+1)/2⌉
			// (an upper bound, as the subcubes overlap); Section 2.3: the
			// k-arbiter's is at most (k+1)·n^(k/(k+1)) = (k+1)·a^k.
			c := (k + 2) / 2
			if got, want := CubeBound(a, k, k), (c+1)*ipow(a, c); got != want {
				t.Errorf("a = %d, k = %d: level-k bound %d, paper says %d", a, k, got, want)
			}
			if got, want := CubeBound(a, k, 1), (k+1)*ipow(a, k); got != want {
				t.Errorf("a = %d, k = %d: k-arbiter bound %d, want (k+1)a^k = %d", a, k, got, want)
			}
		}
	}
}

func TestCubeArbiterIntersection(t *testing.T) {
	// Every (k+1) quorums of the cube k-arbiter meet; for a ≥ k+2 some
	// k+2 do not (the quorums of (0,..,0), (1,..,1), ..., (k+1,..,k+1)),
	// so it is not a (k+1)-arbiter and the check can fail.
	for _, tt := range []struct{ a, k int }{
		{2, 1}, {3, 1}, {5, 1}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {2, 3}, {3, 3}, {2, 4},
	} {
		f, err := Cube(tt.a, tt.k, 0)
		if err != nil {
			t.Fatal(err)
		}
		full := ipow(tt.a, tt.k+1)
		if f.N != full || len(f.Quorums) != full || f.K != tt.k || f.Kind != "cube" {
			t.Fatalf("a = %d, k = %d: %v", tt.a, tt.k, f)
		}
		for i := range f.Quorums {
			if f.Owners[i] != i || !f.Quorums[i].Has(i) {
				t.Fatalf("a = %d, k = %d: quorum %d owned by %d, %v", tt.a, tt.k, i+1, f.Owners[i]+1, &f.Quorums[i])
			}
		}
		if w, ok := kwiseWitness(f.Quorums, tt.k); !ok {
			t.Errorf("a = %d, k = %d: quorums %v do not meet", tt.a, tt.k, w)
		}
		if i, j, ok := minimalWitness(f.Quorums); !ok {
			t.Errorf("a = %d, k = %d: quorum %d ⊆ quorum %d", tt.a, tt.k, i+1, j+1)
		}
		if tt.a >= tt.k+2 {
			if _, ok := kwiseWitness(f.Quorums, tt.k+1); ok {
				t.Errorf("a = %d, k = %d: every %d quorums meet", tt.a, tt.k, tt.k+2)
			}
		}
	}
}

// hkLevels returns the quorum lists of an (h,k)-arbiter by level.
func hkLevels(a *set.HK) map[int][]set.Set {
	m := map[int][]set.Set{}
	for _, l := range a.Levels {
		m[l.H] = l.Quorums
	}
	return m
}

func TestCubeHKIntersection(t *testing.T) {
	// Theorem 1's condition, by brute force over every critical request
	// pattern and quorum assignment; with and without the modification.
	for _, tt := range []struct{ a, k, n int }{
		{2, 1, 0}, {3, 1, 0}, {2, 2, 0}, {3, 2, 0}, {2, 3, 0}, {3, 3, 0}, {2, 4, 0},
		{3, 2, 20}, {3, 3, 17}, {2, 3, 11}, {4, 2, 40},
	} {
		name := fmt.Sprintf("a=%d,k=%d,n=%d", tt.a, tt.k, tt.n)
		hk, err := CubeHK(tt.a, tt.k, tt.n)
		if err != nil {
			t.Fatal(name, err)
		}
		if err := hk.Validate(); err != nil {
			t.Fatal(name, err)
		}
		if len(hk.Levels) != tt.k {
			t.Fatalf("%s: %d levels", name, len(hk.Levels))
		}
		if p, qa, ok := hkWitness(hkLevels(hk), tt.k); !ok {
			t.Errorf("%s: pattern %v, assignment %v share no node", name, p, qa)
		}
		for _, l := range hk.Levels {
			if i, j, ok := minimalWitness(l.Quorums); !ok {
				t.Errorf("%s: level %d: quorum %d ⊆ quorum %d", name, l.H, i+1, j+1)
			}
		}
		// Level 1 is the k-arbiter.
		f, _ := Cube(tt.a, tt.k, tt.n)
		l1 := hk.Level(1).Clone()
		l1.H = 0
		sameFamily(t, f, l1)
	}
	// With windows one coordinate wider than z_h at the top level, the
	// condition fails: the checker can tell.
	a, k := 3, 3
	hk, _ := CubeHK(a, k, 0)
	wide := newCube(a, k, CubeZ(k, k)+1)
	bad := hkLevels(hk)
	bad[k] = make([]set.Set, wide.tuples)
	for t := range wide.tuples {
		wide.add(&bad[k][t], t, wide.tuples)
	}
	if _, _, ok := hkWitness(bad, k); ok {
		t.Errorf("a = %d, k = %d with z = %d at level %d passed Theorem 1", a, k, CubeZ(k, k)+1, k)
	}
}

func TestCubeModification(t *testing.T) {
	// (a−1)^(k+1) < n < a^(k+1): tuple b stands for node Σ b_i a^(i−1)
	// mod n; quorums that contain another go. Compare with the images
	// computed tuple by tuple and minimalized by brute force.
	for _, tt := range []struct{ a, k, n int }{
		{3, 1, 5}, {3, 1, 8}, {4, 1, 10}, {3, 2, 9}, {3, 2, 20}, {3, 2, 26}, {2, 3, 2}, {2, 3, 11}, {4, 2, 28}, {4, 2, 63},
	} {
		name := fmt.Sprintf("a=%d,k=%d,n=%d", tt.a, tt.k, tt.n)
		for h := 1; h <= tt.k; h++ {
			hk, err := CubeLevel(tt.a, tt.k, tt.n, h)
			if err != nil {
				t.Fatal(name, err)
			}
			f := hk.Levels[0]
			if f.N != tt.n || f.Owners != nil || hk.Params["n"] != tt.n || hk.Params["h"] != h {
				t.Fatalf("%s: n %d, owners %v, params %v", name, f.N, f.Owners, hk.Params)
			}
			z := CubeZ(tt.k, h)
			var images []*set.Set
			for b := range ipow(tt.a, tt.k+1) {
				images = append(images, bruteQuorum(tt.a, tt.k, z, b, tt.n))
			}
			want := map[string]bool{}
			for i, q := range images {
				minimal := true
				for j, r := range images {
					// r strictly inside q, or equal and earlier.
					if j != i && set.Subset(r, q) && (!set.Equal(r, q) || j < i) {
						minimal = false
						break
					}
				}
				if minimal {
					want[q.String()] = true
				}
			}
			got := map[string]bool{}
			for i := range f.Quorums {
				got[f.Quorums[i].String()] = true
				if bound := ieSize(tt.a, tt.k, z); int64(f.Quorums[i].Len()) > bound {
					t.Errorf("%s, h = %d: quorum %d has %d nodes, more than the unfolded %d", name, h, i+1, f.Quorums[i].Len(), bound)
				}
			}
			if len(got) != len(f.Quorums) || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s, h = %d: %d quorums %v\nwant %d: %v", name, h, len(f.Quorums), got, len(want), want)
			}
			if h == 1 {
				if w, ok := kwiseWitness(f.Quorums, tt.k); !ok {
					t.Errorf("%s: quorums %v do not meet", name, w)
				}
			}
		}
	}
}

func TestCubeDeterministic(t *testing.T) {
	for _, n := range []int{0, 50} {
		a, err := CubeHK(4, 2, n)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := CubeHK(4, 2, n)
		sameSystem(t, set.System{HK: a}, set.System{HK: b})
	}
}

func TestCubeErrors(t *testing.T) {
	for _, tt := range []struct {
		a, k, n     int
		param, want string
	}{
		{1, 2, 0, "a", "a = 1 must be at least 2"},
		{0, 2, 0, "a", "a = 0 must be at least 2"},
		{3, 0, 0, "k", "k = 0 must be at least 1"},
		{3, 2, 28, "n", "n = 28 exceeds a^(k+1) = 3^3 = 27; take a = 4"},
		{4, 2, 27, "n", "n = 27 is at most (a−1)^(k+1) = 3^3 = 27"},
		{300, 2, 0, "a", "more than 16777216 nodes"},
		{3, 2, -1, "n", "n = -1 must be positive"},
	} {
		_, err := Cube(tt.a, tt.k, tt.n)
		checkParamError(t, err, tt.param, tt.want)
	}
	// Too much work is not a parameter's fault alone.
	if _, err := Cube(2, 20, 3); err == nil || !strings.Contains(err.Error(), "node insertions") {
		t.Errorf("Cube(2, 20, 3) error %v", err)
	}
	for _, h := range []int{0, 3, -1} {
		_, err := CubeLevel(3, 2, 0, h)
		checkParamError(t, err, "h", "out of range 1..k = 2")
	}
	if _, err := Cube(2, 20, 3); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("Cube(2, 20, 3) error %v does not wrap ErrTooMany", err)
	}
	// n = 1 has no a with (a−1)^(k+1) < 1; a = 2 folds everything onto it.
	if f, err := Cube(2, 1, 1); err != nil || len(f.Quorums) != 1 || f.Quorums[0].Len() != 1 {
		t.Errorf("Cube(2, 1, 1) = %v, %v", f, err)
	}
}

func TestCubeA(t *testing.T) {
	for _, tt := range []struct{ n, k, want int }{
		{1, 1, 2}, {4, 1, 2}, {5, 1, 3}, {9, 1, 3}, {10, 1, 4}, {27, 2, 3}, {28, 2, 4}, {1296, 3, 6}, {1297, 3, 7},
	} {
		if got := CubeA(tt.n, tt.k); got != tt.want {
			t.Errorf("CubeA(%d, %d) = %d, want %d", tt.n, tt.k, got, tt.want)
		}
	}
}

func BenchmarkCube6k3(b *testing.B) {
	// a = 6, k = 3: 1,296 nodes and quorums.
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cube(6, 3, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCubeHK6k3(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CubeHK(6, 3, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCube6k3Folded(b *testing.B) {
	// The modification onto 1,000 nodes: minimalization included.
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cube(6, 3, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCubeK1IsGrid(t *testing.T) {
	// Manabe and Tajima, Section 2.3: the 2-cube 1-arbiter is the square
	// grid coterie. With node x_1 + a·x_2 (column x_1, row x_2) it is
	// Maekawa's grid node by node and owner by owner.
	for a := 2; a <= 9; a++ {
		c, err := Cube(a, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Grid(a, a, 0)
		if err != nil {
			t.Fatal(err)
		}
		g.Kind, g.Params = c.Kind, c.Params
		sameFamily(t, c, g)
	}
}
