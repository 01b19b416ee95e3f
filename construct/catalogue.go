package construct

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/set"
)

// MaxCatalogueQuorums is the most quorums the constructions of the classic
// catalogue (tree, hqc, wall, triangle, wheel, vote, cgrid, bgrid, mgrid)
// list. Most of these families grow exponentially with the number of nodes
// (a binary tree of height 5 already has 2^32 − 1 quorums); past the limit
// the constructor refuses with the count, and the closed forms of package
// availability and measure still apply to the parameters.
const MaxCatalogueQuorums = 1 << 21

// ParseInts parses the comma-separated list of integers s, such as the
// "3,3,3" of hqc's levels, each at least lo. A bad list is a [*ParamError]
// for the parameter param of the construction kind.
func ParseInts(kind, param, s string, lo int) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, paramErrorf(kind, param, nil, "is an empty list")
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, paramErrorf(kind, param, s, "has %q, not an integer", strings.TrimSpace(f))
		}
		if v < lo {
			return nil, paramErrorf(kind, param, s, "has %d, below %d", v, lo)
		}
		out = append(out, v)
	}
	return out, nil
}

// shortInts formats a list for a message, eliding the middle of a long one.
func shortInts(v []int) string {
	if len(v) <= 12 {
		return joinInts(v)
	}
	return joinInts(v[:5]) + ",…," + joinInts(v[len(v)-5:]) + fmt.Sprintf(" (%d values)", len(v))
}

// joinInts formats a list as ParseInts reads it.
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// checkCount refuses a family of count quorums over n nodes when it is
// larger than MaxCatalogueQuorums or would not fit in memory.
func checkCount(what string, count *big.Int, n int) error {
	if n < 1 || n > set.MaxNodes {
		return fmt.Errorf("construct: %s: %d nodes is out of range 1..%d", what, n, set.MaxNodes)
	}
	if !count.IsInt64() || count.Int64() > MaxCatalogueQuorums {
		c := count.String()
		if count.BitLen() > 64 {
			c = fmt.Sprintf("more than 2^%d", count.BitLen()-1)
		}
		return fmt.Errorf("construct: %s: %s quorums; coterie lists at most %d",
			what, c, MaxCatalogueQuorums)
	}
	return checkExplicit(what, n, int(count.Int64()))
}

// product calls k after adding to s one node of each of the groups, in
// every way (the groups are disjoint); nodes are removed again.
func product(s *set.Set, groups [][]int, k func()) {
	if len(groups) == 0 {
		k()
		return
	}
	for _, v := range groups[0] {
		s.Add(v)
		product(s, groups[1:], k)
		s.Remove(v)
	}
}

// combinations calls k with every m-subset of 0..g−1 in lexicographic order;
// k must not keep the slice.
func combinations(g, m int, k func([]int)) {
	c := make([]int, m)
	var rec func(i, start int)
	rec = func(i, start int) {
		if i == m {
			k(c)
			return
		}
		for v := start; v <= g-(m-i); v++ {
			c[i] = v
			rec(i+1, v+1)
		}
	}
	rec(0, 0)
}

// tooMany returns 2^4096, a count past every limit, for families whose
// exact count is not worth computing.
func tooMany() *big.Int { return new(big.Int).Lsh(big.NewInt(1), 4096) }

func bigPow(a *big.Int, e int) *big.Int { return new(big.Int).Exp(a, big.NewInt(int64(e)), nil) }

func system(f *set.Family, err error) (set.System, error) {
	if err != nil {
		return set.System{}, err
	}
	return set.System{Family: f}, nil
}
