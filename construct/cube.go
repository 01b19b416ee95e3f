package construct

import (
	"context"
	"fmt"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// maxCubeWork bounds the node insertions of one cube construction (tuples ×
// subcubes × subcube size): about a minute of work. The paper's modification
// with a = 2 allows absurd combinations such as k = 20 for n = 3, which this
// refuses.
const maxCubeWork = 1 << 34

// CubeZ returns z_h = ⌊(1+k)/(1+k/h)⌋ = ⌊h(k+1)/(h+k)⌋, the number of
// consecutive coordinates each subcube of a level-h quorum of the (k+1)-cube
// (h,k)-arbiter fixes (Manabe and Tajima, Section 3.3). z_1 = 1, which gives
// the (k+1)-cube k-arbiter, and z_k = ⌊(k+1)/2⌋. It panics unless
// 1 ≤ h ≤ k.
func CubeZ(k, h int) int {
	if h < 1 || h > k {
		panic(fmt.Sprintf("construct: CubeZ(%d, %d)", k, h))
	}
	return h * (k + 1) / (h + k)
}

// CubeBound returns the paper's size of a level-h quorum of the (k+1)-cube
// (h,k)-arbiter over a^(k+1) nodes, (k+2−z_h)·a^(k+1−z_h): the sum of the
// sizes of its k+2−z_h subcubes. Subcubes overlap, so it is an upper bound;
// for h = 1 it is (k+1)·a^k, the k-arbiter's "(k+1)n^(k/(k+1))". The
// exact size is smaller (for h = 1, a^(k+1) − (a−1)^(k+1)). It panics
// unless a ≥ 1 and 1 ≤ h ≤ k, and may overflow for huge a^k.
func CubeBound(a, k, h int) int {
	z := CubeZ(k, h)
	p := 1
	for range k + 1 - z {
		p *= a
	}
	return (k + 2 - z) * p
}

// cube is the geometry of one level of a (k+1)-cube arbiter: tuples
// (x_1..x_{k+1}) with 0 ≤ x_i < a, tuple index Σ x_i·a^(i−1) (the paper's
// numbering, Section 3.3), and subcubes fixing z consecutive coordinates.
type cube struct {
	a, d, z int // d = k+1 coordinates
	tuples  int // a^d
	pow     []int
	// offsets[j] lists the indices of the tuples that are zero on the
	// window of coordinates j..j+z−1 (0-based): the subcube of window j
	// through tuple b is {base_j(b) + o : o ∈ offsets[j]}.
	offsets [][]int
}

// cubePow returns a^e, or -1 if it exceeds set.MaxNodes.
func cubePow(a, e int) int {
	p := 1
	for range e {
		p *= a
		if p > set.MaxNodes {
			return -1
		}
	}
	return p
}

func newCube(a, k, z int) *cube {
	d := k + 1
	c := &cube{a: a, d: d, z: z, tuples: cubePow(a, d), pow: make([]int, d+1)}
	c.pow[0] = 1
	for i := 1; i <= d; i++ {
		c.pow[i] = c.pow[i-1] * a
	}
	for j := 0; j+z <= d; j++ {
		offs := []int{0}
		for i := range d {
			if i >= j && i < j+z {
				continue
			}
			next := make([]int, 0, len(offs)*a)
			for _, o := range offs {
				for v := range a {
					next = append(next, o+v*c.pow[i])
				}
			}
			offs = next
		}
		c.offsets = append(c.offsets, offs)
	}
	return c
}

// add puts into s the quorum of tuple t, each tuple index reduced mod n.
func (c *cube) add(s *set.Set, t, n int) {
	for j, offs := range c.offsets {
		// The digits of t on the window j..j+z−1, in place.
		base := t / c.pow[j] % c.pow[c.z] * c.pow[j]
		if n == c.tuples {
			for _, o := range offs {
				s.Add(base + o)
			}
			continue
		}
		for _, o := range offs {
			s.Add((base + o) % n)
		}
	}
}

// cubeWork returns the node insertions of building every quorum of a
// level with windows of z coordinates: a^(k+1) tuples × (k+2−z) subcubes ×
// a^(k+1−z) nodes, saturating at maxCubeWork+1. It is computed before
// newCube allocates its offsets.
func cubeWork(a, k, z int) int64 {
	w := int64(k + 2 - z)
	for range 2*(k+1) - z {
		w *= int64(a)
		if w > maxCubeWork {
			return maxCubeWork + 1
		}
	}
	return w
}

// cubeArgs validates a, k and n for the (k+1)-cube arbiters and returns n
// (a^(k+1) when n is 0).
func cubeArgs(a, k, n int) (int, error) {
	if a < 2 {
		return 0, paramErrorf("cube", "a", a, "must be at least 2")
	}
	if k < 1 {
		return 0, paramErrorf("cube", "k", k, "must be at least 1")
	}
	if k+1 > 64 {
		return 0, paramErrorf("cube", "k", k, "gives at least 2^%d tuples, more than %d", k+1, set.MaxNodes)
	}
	full := cubePow(a, k+1)
	if full < 0 {
		return 0, paramErrorf("cube", "a", a, "gives a^(k+1) = %d^%d, more than %d nodes", a, k+1, set.MaxNodes)
	}
	switch {
	case n == 0:
		return full, nil
	case n < 0:
		return 0, paramErrorf("cube", "n", n, "must be positive")
	case n > full:
		return 0, paramErrorf("cube", "n", n, "exceeds a^(k+1) = %d^%d = %d; take a = %d (or leave a out)",
			a, k+1, full, CubeA(n, k))
	case n <= cubePow(a-1, k+1) && CubeA(n, k) < a:
		return 0, paramErrorf("cube", "n", n, "is at most (a−1)^(k+1) = %d^%d = %d, so a = %d is larger than the modification needs (Manabe and Tajima ask (a−1)^(k+1) < n ≤ a^(k+1)); take a = %d (or leave a out)",
			a-1, k+1, cubePow(a-1, k+1), a, CubeA(n, k))
	}
	return n, nil
}

// CubeA returns the smallest a ≥ 2 with a^(k+1) ≥ n: the side of the
// smallest (k+1)-cube that the paper's modification folds onto n nodes.
func CubeA(n, k int) int {
	a := 2
	for {
		p := cubePow(a, k+1)
		if p < 0 || p >= n {
			return a
		}
		a++
	}
}

// cubeLevel builds level h (h = 1 for the k-arbiter) over n nodes; a, k, n
// are validated.
func cubeLevel(ctx context.Context, a, k, n, h int) (*set.Family, error) {
	z := CubeZ(k, h)
	if cubeWork(a, k, z) > maxCubeWork {
		return nil, errorf("cube", "a = %d, k = %d, h = %d needs more than %d node insertions (%d^%d tuples); take a smaller a or k: %w",
			a, k, h, int64(maxCubeWork), a, k+1, set.ErrTooMany)
	}
	c := newCube(a, k, z)
	if b := explicitBytes(n, c.tuples); b > maxExplicitBytes {
		return nil, errorf("cube", "a = %d, k = %d: %d quorums over %d nodes take %.2f GiB in memory, more than %d GiB; take a smaller a or k: %w",
			a, k, c.tuples, n, float64(b)/(1<<30), maxExplicitBytes>>30, set.ErrTooMany)
	}
	f := set.NewFamily(n)
	f.K, f.H = k, 0
	f.Quorums = make([]set.Set, c.tuples)
	exact := n == c.tuples
	if exact {
		f.Owners = make([]int, c.tuples)
	}
	// A step is about 256 insertions: a tuple's quorum takes (k+1)·a^k.
	stop, work := poll{ctx: ctx}, max(1, (k+1)*cubePow(a, k)/256)
	for t := range c.tuples {
		if err := stop.steps(work); err != nil {
			return nil, err
		}
		q := &f.Quorums[t]
		q.Grow(n)
		c.add(q, t, n)
		if exact {
			f.Owners[t] = t
		}
	}
	if !exact {
		// Folding tuples onto n nodes makes some quorums equal to or
		// supersets of others; the paper drops them (Section 3.3).
		if _, err := f.MinimalizeContext(ctx); err != nil {
			return nil, err
		}
	}
	f.Canonical()
	return f, nil
}

func cubeParams(a, k, n, h int) set.Params {
	p := set.Params{"a": a, "k": k}
	if n != cubePow(a, k+1) {
		p["n"] = n
	}
	if h > 0 {
		p["h"] = h
	}
	return p
}

// Cube returns the (k+1)-cube k-arbiter (Manabe, Baldoni, Raynal and Aoyagi
// 1998, as recalled by Manabe and Tajima, Section 2.3). Node t, 0-based, is
// the tuple (x_1, ..., x_{k+1}) with t = Σ x_i·a^(i−1), 0 ≤ x_i < a; the
// quorum of tuple b is the union of the k+1 hyperplanes x_i = b_i, so any
// k+1 quorums share the node that takes its i-th coordinate from the i-th
// quorum. Quorums have a^(k+1) − (a−1)^(k+1) nodes, at most (k+1)·a^k.
//
// n = 0 means n = a^(k+1): then node b owns the quorum of tuple b. Otherwise
// (a−1)^(k+1) < n < a^(k+1) and the paper's modification applies: tuple b
// stands for node (Σ b_i·a^(i−1)) mod n, each quorum is the image of the
// tuple quorum, and quorums that contain another are dropped; the result
// has no owners (several tuples fold onto one node) and quorums of several
// sizes. Cost: a^(k+1) quorums of at most (k+1)·a^k insertions each.
func Cube(a, k, n int) (*set.Family, error) {
	return cubeContext(context.Background(), a, k, n)
}

// cubeContext is [Cube] watching ctx.
func cubeContext(ctx context.Context, a, k, n int) (*set.Family, error) {
	n, err := cubeArgs(a, k, n)
	if err != nil {
		return nil, err
	}
	f, err := cubeLevel(ctx, a, k, n, 1)
	if err != nil {
		return nil, err
	}
	f.Kind, f.Params = "cube", cubeParams(a, k, n, 0)
	return f, nil
}

// CubeHK returns the (k+1)-cube (h,k)-arbiter of Manabe and Tajima
// (Section 3.3) over the nodes of [Cube]: level h's quorum of tuple b is the
// union of the k+2−z_h subcubes {x : x_{j+i} = b_{j+i}, 1 ≤ i ≤ z_h} for
// j = 0..k+1−z_h (see [CubeZ]), of at most [CubeBound] nodes; level 1 is the
// k-arbiter. Theorem 4 shows that any quorum assignment of a critical
// request pattern shares a node. n = 0 or the modification as in [Cube],
// level by level.
func CubeHK(a, k, n int) (*set.HK, error) {
	return cubeHK(context.Background(), a, k, n)
}

// cubeHK is [CubeHK] watching ctx.
func cubeHK(ctx context.Context, a, k, n int) (*set.HK, error) {
	n, err := cubeArgs(a, k, n)
	if err != nil {
		return nil, err
	}
	hk := &set.HK{N: n, K: k, Kind: "cube", Params: cubeParams(a, k, n, 0)}
	for h := 1; h <= k; h++ {
		l, err := cubeLevel(ctx, a, k, n, h)
		if err != nil {
			return nil, err
		}
		hk.AddLevel(h, l)
	}
	return hk, nil
}

// CubeLevel returns level h alone of [CubeHK], as an (h,k)-arbiter with one
// level whose Params record h.
func CubeLevel(a, k, n, h int) (*set.HK, error) {
	return cubeLevelHK(context.Background(), a, k, n, h)
}

// cubeLevelHK is [CubeLevel] watching ctx.
func cubeLevelHK(ctx context.Context, a, k, n, h int) (*set.HK, error) {
	n, err := cubeArgs(a, k, n)
	if err != nil {
		return nil, err
	}
	if err := checkH("cube", h, k); err != nil {
		return nil, err
	}
	l, err := cubeLevel(ctx, a, k, n, h)
	if err != nil {
		return nil, err
	}
	hk := &set.HK{N: n, K: k, Kind: "cube", Params: cubeParams(a, k, n, h)}
	hk.AddLevel(h, l)
	return hk, nil
}

var cubeSpec = Spec{
	Name:    "cube",
	Summary: "(k+1)-cube k-arbiter over a^(k+1) nodes (or n, folded); (h,k)-arbiter with h or hk",
	Source:  "Manabe, Tajima, Sections 2.3, 3.3",
	Layout:  named("cube"),
	Params: []Param{
		{Name: "a", Usage: "side of the cube (default: the smallest with a^(k+1) ≥ n)", Type: Int, Default: 0, Min: 2, Max: set.MaxNodes},
		{Name: "k", Usage: "units of the resource (k of the k-arbiter); the cube has k+1 dimensions", Type: Int, Required: true, Min: 1, Max: 63},
		{Name: "n", Usage: "number of nodes, (a−1)^(k+1) < n ≤ a^(k+1) (default a^(k+1))", Type: Int, Default: 0, Min: 1, Max: set.MaxNodes},
		{Name: "h", Usage: "build level h (1..k) of the (h,k)-arbiter", Type: Int, Default: 0, Min: 1, Max: 63},
		{Name: "hk", Usage: "build the whole (h,k)-arbiter, levels 1..k", Type: Bool, Default: false},
	},
	Typed: func(ar Args) (quorum.System, error) {
		a, k, n, err := cubeSpecArgs(ar)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			n = cubePow(a, k+1)
		}
		if n != cubePow(a, k+1) || ar.IsSet("h") || ar.Bool("hk") {
			return nil, errorf("cube", "only the full (k+1)-cube k-arbiter has a typed form")
		}
		dims := make([]int, k+1)
		for j := range dims {
			dims[j] = a
		}
		return newSlabSystem("cube", cubeParams(a, k, n, 0), dims, k)
	},
	BuildContext: func(ctx context.Context, ar Args) (set.System, error) {
		a, k, n, err := cubeSpecArgs(ar)
		if err != nil {
			return set.System{}, err
		}
		h, all, err := levelArgs("cube", ar, k)
		switch {
		case err != nil:
			return set.System{}, err
		case all:
			hk, err := cubeHK(ctx, a, k, n)
			return set.System{HK: hk}, err
		case h > 0:
			hk, err := cubeLevelHK(ctx, a, k, n, h)
			return set.System{HK: hk}, err
		}
		f, err := cubeContext(ctx, a, k, n)
		if err != nil {
			return set.System{}, err
		}
		return set.System{Family: f}, nil
	},
}

// cubeSpecArgs reads --a, --k and --n: without --a, a is the smallest with
// a^(k+1) ≥ n.
func cubeSpecArgs(ar Args) (a, k, n int, err error) {
	a, k, n = ar.Int("a"), ar.Int("k"), ar.Int("n")
	switch {
	case ar.IsSet("a"):
	case ar.IsSet("n"):
		a = CubeA(n, k)
	default:
		return 0, 0, 0, paramErrorf("cube", "a", nil, "is required unless n is given (a^(k+1) nodes)")
	}
	return a, k, n, nil
}
