package construct

import (
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// Majority returns the majority coterie over n nodes in threshold form:
// every subset of ⌊n/2⌋+1 nodes (Garcia-Molina and Barbara 1985; Manabe and
// Tajima, Section 2.3). Nothing is enumerated; see [set.Family.Enumerate].
func Majority(n int) (*set.Family, error) {
	if n < 1 || n > set.MaxNodes {
		return nil, paramErrorf("majority", "n", n, "is out of range 1..%d", set.MaxNodes)
	}
	f := set.NewThreshold(n, n/2+1)
	f.Kind = "majority"
	f.Params = set.Params{"n": n}
	return f, nil
}

// UniformSize returns the quorum size of level h of the uniform
// (h,k)-arbiter over n nodes, ⌊kn/(k+h)⌋+1 (Manabe and Tajima, Section 3.2);
// h = 1 gives the uniform k-arbiter's ⌊kn/(k+1)⌋+1, and h = k the majority's
// ⌊n/2⌋+1. It panics unless n ≥ 1 and 1 ≤ h ≤ k.
func UniformSize(n, k, h int) int {
	if n < 1 || h < 1 || h > k {
		panic(fmt.Sprintf("construct: UniformSize(%d, %d, %d)", n, k, h))
	}
	return k*n/(k+h) + 1
}

// checkNK validates the node count and k of a uniform arbiter.
func checkNK(what string, n, k int) error {
	if n < 1 || n > set.MaxNodes {
		return paramErrorf(what, "n", n, "is out of range 1..%d", set.MaxNodes)
	}
	if k < 1 || k > set.MaxNodes {
		return paramErrorf(what, "k", k, "is out of range 1..%d", set.MaxNodes)
	}
	return nil
}

// checkH validates a level h of a k-arbiter.
func checkH(what string, h, k int) error {
	if h < 1 || h > k {
		return paramErrorf(what, "h", h, "is out of range 1..k = %d", k)
	}
	return nil
}

// Uniform returns the uniform k-arbiter over n nodes in threshold form: every
// subset of ⌊kn/(k+1)⌋+1 nodes (Manabe, Baldoni, Raynal and Aoyagi 1998, as
// recalled by Manabe and Tajima, Section 2.3). Any k+1 such subsets meet,
// since together they leave out fewer than n nodes. k = 1 is the majority
// coterie.
func Uniform(n, k int) (*set.Family, error) {
	if err := checkNK("uniform", n, k); err != nil {
		return nil, err
	}
	f := set.NewThreshold(n, UniformSize(n, k, 1))
	f.K = k
	f.Kind = "uniform"
	f.Params = set.Params{"n": n, "k": k}
	return f, nil
}

// UniformHK returns the uniform (h,k)-arbiter over n nodes (Manabe and
// Tajima, Section 3.2): level h, for h = 1..k, is every subset of
// ⌊kn/(k+h)⌋+1 nodes, in threshold form. Theorem 3 of the paper shows that
// quorums of a critical request pattern always share a node.
func UniformHK(n, k int) (*set.HK, error) {
	if err := checkNK("uniform", n, k); err != nil {
		return nil, err
	}
	if k > maxLevels {
		return nil, paramErrorf("uniform", "k", k, "is more levels than an (h,k)-arbiter may have (%d); build one level h instead", maxLevels)
	}
	a := &set.HK{N: n, K: k, Kind: "uniform", Params: set.Params{"n": n, "k": k}}
	for h := 1; h <= k; h++ {
		a.AddLevel(h, set.NewThreshold(n, UniformSize(n, k, h)))
	}
	return a, nil
}

// maxLevels bounds the number of levels of a whole (h,k)-arbiter, so that
// --hk with an absurd k is refused rather than filling memory.
const maxLevels = 1 << 12

// UniformLevel returns level h alone of the uniform (h,k)-arbiter over n
// nodes, as an (h,k)-arbiter with one level (every subset of ⌊kn/(k+h)⌋+1
// nodes); its Params record h.
func UniformLevel(n, k, h int) (*set.HK, error) {
	if err := checkNK("uniform", n, k); err != nil {
		return nil, err
	}
	if err := checkH("uniform", h, k); err != nil {
		return nil, err
	}
	a := &set.HK{N: n, K: k, Kind: "uniform", Params: set.Params{"n": n, "k": k, "h": h}}
	a.AddLevel(h, set.NewThreshold(n, UniformSize(n, k, h)))
	return a, nil
}

// levelArgs reads the --h and --hk parameters shared by uniform and cube:
// h > 0 asks for one level, all for every level; neither asks for the
// k-arbiter.
func levelArgs(what string, a Args, k int) (h int, all bool, err error) {
	h, all = a.Int("h"), a.Bool("hk")
	switch {
	case a.IsSet("h") && all:
		return 0, false, paramErrorf(what, "hk", nil, "excludes h: h builds one level, hk all of them")
	case a.IsSet("h"):
		if err := checkH(what, h, k); err != nil {
			return 0, false, err
		}
		return h, false, nil
	}
	return 0, all, nil
}

var majoritySpec = Spec{
	Name:    "majority",
	Summary: "all ⌊n/2⌋+1-subsets (threshold)",
	Source:  "Garcia-Molina, Barbara 1985",
	Params: []Param{
		{Name: "n", Usage: "number of nodes", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
	},
	Build: func(a Args) (set.System, error) {
		f, err := Majority(a.Int("n"))
		if err != nil {
			return set.System{}, err
		}
		return set.System{Family: f}, nil
	},
}

var uniformSpec = Spec{
	Name:    "uniform",
	Summary: "all ⌊kn/(k+1)⌋+1-subsets (threshold); (h,k)-arbiter with h or hk",
	Source:  "Manabe, Tajima, Sections 2.3, 3.2",
	Params: []Param{
		{Name: "n", Usage: "number of nodes", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "k", Usage: "units of the resource (k of the k-arbiter)", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "h", Usage: "build level h (1..k) of the (h,k)-arbiter", Type: Int, Default: 0, Min: 1, Max: set.MaxNodes},
		{Name: "hk", Usage: "build the whole (h,k)-arbiter, levels 1..k", Type: Bool, Default: false},
	},
	Build: func(a Args) (set.System, error) {
		n, k := a.Int("n"), a.Int("k")
		h, all, err := levelArgs("uniform", a, k)
		switch {
		case err != nil:
			return set.System{}, err
		case all:
			hk, err := UniformHK(n, k)
			return set.System{HK: hk}, err
		case h > 0:
			hk, err := UniformLevel(n, k, h)
			return set.System{HK: hk}, err
		}
		f, err := Uniform(n, k)
		if err != nil {
			return set.System{}, err
		}
		return set.System{Family: f}, nil
	},
}
