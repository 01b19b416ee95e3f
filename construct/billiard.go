package construct

import (
	"context"
	"github.com/coterie-dev/coterie/set"
	"iter"
)

// maxBilliardQ is the largest order whose (q²−1)/2 sites fit in
// set.MaxNodes.
const maxBilliardQ = 5791

// BilliardN returns the number of sites of the q×q modified grid,
// N = (q²−1)/2.
func BilliardN(q int) int { return (q*q - 1) / 2 }

// billiardCheck validates the order of a billiard coterie.
func billiardCheck(q int) error {
	if q < 3 || q%2 == 0 {
		return paramErrorf("billiard", "q", q, "must be odd and at least 3")
	}
	if q > maxBilliardQ {
		return paramErrorf("billiard", "q", q, "gives %d sites, more than the %d nodes a system may have (q ≤ %d)",
			BilliardN(q), set.MaxNodes, maxBilliardQ)
	}
	return nil
}

// billiardCell returns the 1-based cell (i, j) of the modified q×q grid that
// holds site s (0-based), by Proposition 2 of Agrawal, Eğecioğlu and
// El Abbadi: j = 2n mod q (with q in place of 0), i = 1 + (2n − j)/q, for
// the 1-based site n = s+1.
func billiardCell(q, s int) (i, j int) {
	n := s + 1
	j = (2 * n) % q
	if j == 0 {
		j = q
	}
	return 1 + (2*n-j)/q, j
}

// billiardSite returns the 0-based site in cell (i, j), 1-based with i+j
// odd: Proposition 2's n = ((i−1)q + j)/2, minus one.
func billiardSite(q, i, j int) int { return ((i-1)*q+j)/2 - 1 }

// billiardPath appends to buf the q sites (0-based) of the broken billiard
// path of site s and returns the extended slice, in path order: from the
// grid's left column (cells above the anti-diagonal i+j = q+1) or bottom row
// (cells below it) north-east to s, then the two remaining legs of the
// billiard path in swapped order, so that the path has its peak at s.
//
// The paper's worked examples (Fig. 5, q = 9) are the definition:
// S_11 = {23,19,15,11} ∪ {16,21,26} ∪ {22,18} and
// S_34 = {38,34} ∪ {29,24,19} ∪ {15,11,7,3}. In both cases the legs after s
// end where the unbroken billiard path would, and pass through the mirror
// image (q+1−j, q+1−i) of s in the anti-diagonal.
func billiardPath(q, s int, buf []int) []int {
	i, j := billiardCell(q, s)
	walk := func(r, c, dr, dc, steps int) (int, int) {
		for range steps {
			r, c = r+dr, c+dc
			buf = append(buf, billiardSite(q, r, c))
		}
		return r, c
	}
	if i+j < q+1 {
		// Above the anti-diagonal: start in column 1 at (i+j−1, 1), go
		// NE j−1 steps to s, SE q+1−i−j steps, then NE i−1 steps to
		// column q.
		r, c := i+j-1, 1
		buf = append(buf, billiardSite(q, r, c))
		r, c = walk(r, c, -1, +1, j-1)
		r, c = walk(r, c, +1, +1, q+1-i-j)
		walk(r, c, -1, +1, i-1)
	} else {
		// Below it (i+j = q+1 is even, so never on it): start in row q at
		// (q, i+j−q), go NE q−i steps to s, NW i+j−q−1 steps, then NE q−j
		// steps to row 1.
		r, c := q, i+j-q
		buf = append(buf, billiardSite(q, r, c))
		r, c = walk(r, c, -1, +1, q-i)
		r, c = walk(r, c, -1, -1, i+j-q-1)
		walk(r, c, -1, +1, q-j)
	}
	return buf
}

// Billiard returns the billiard coterie of Agrawal, Eğecioğlu and El Abbadi
// ("Billiard quorums on the grid", IPL 1997) for odd q ≥ 3: the N = (q²−1)/2
// sites are the cells (i, j) of a q×q grid with i+j odd, numbered row-major
// (Proposition 2: site n sits in cell (i, j) with n = ((i−1)q + j)/2), and
// site n owns the q sites on its broken billiard path, so that quorum i is
// S_{i+1} in the paper's 1-based numbering. Every quorum has q = ⌈√2·√N⌉
// sites, contains its owner, and meets every other quorum (Proposition 1).
//
// Cost: O(N·q) node insertions and N bitsets of N bits; it refuses orders
// whose explicit family would take more than 1 GiB (q ≥ 431), for
// which [BilliardStream] holds one quorum at a time.
func Billiard(q int) (*set.Family, error) {
	return billiard(context.Background(), q)
}

// billiard is [Billiard] watching ctx.
func billiard(ctx context.Context, q int) (*set.Family, error) {
	if err := billiardCheck(q); err != nil {
		return nil, err
	}
	n := BilliardN(q)
	if err := checkExplicit("billiard", n, n); err != nil {
		return nil, err
	}
	f := billiardHeader(q)
	f.Quorums = make([]set.Set, n)
	f.Owners = make([]int, n)
	buf := make([]int, 0, q)
	stop := poll{ctx: ctx}
	for s := range n {
		if err := stop.stop(); err != nil {
			return nil, err
		}
		qs := &f.Quorums[s]
		qs.Grow(n)
		buf = billiardPath(q, s, buf[:0])
		for _, v := range buf {
			qs.Add(v)
		}
		f.Owners[s] = s
	}
	f.Canonical()
	return f, nil
}

// billiardHeader returns the metadata of the billiard coterie of order q.
func billiardHeader(q int) *set.Family {
	f := set.NewFamily(BilliardN(q))
	f.Kind = "billiard"
	f.Params = set.Params{"q": q}
	return f
}

// BilliardStream produces the billiard coterie of order q as [Billiard]
// does, without holding it: it returns the metadata and each site's quorum
// in canonical order (by owner) with its owner. The sequence reuses one set
// from step to step, so a consumer copies what it keeps.
func BilliardStream(q int) (meta *set.Family, quorums iter.Seq2[*set.Set, int], err error) {
	if err := billiardCheck(q); err != nil {
		return nil, nil, err
	}
	n := BilliardN(q)
	seq := func(yield func(*set.Set, int) bool) {
		qs := set.New(n)
		buf := make([]int, 0, q)
		for s := range n {
			// Clear only the previous path: clearing all N bits per quorum
			// would make the stream quadratic in N.
			for _, v := range buf {
				qs.Remove(v)
			}
			buf = billiardPath(q, s, buf[:0])
			for _, v := range buf {
				qs.Add(v)
			}
			if !yield(qs, s) {
				return
			}
		}
	}
	return billiardHeader(q), seq, nil
}

var billiardSpec = Spec{
	Name:    "billiard",
	Summary: "broken billiard paths on the modified q×q grid, N = (q²−1)/2",
	Source:  "Agrawal, Eğecioğlu, El Abbadi, IPL 1997",
	Layout:  named("billiard"),
	Params: []Param{
		{Name: "q", Usage: "odd grid order ≥ 3 (quorum size)", Type: Int, Required: true, Min: 3, Max: maxBilliardQ},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		f, err := billiard(ctx, a.Int("q"))
		if err != nil {
			return set.System{}, err
		}
		return set.System{Family: f}, nil
	},
	Stream: func(a Args) (*set.Family, iter.Seq2[*set.Set, int], error) {
		return BilliardStream(a.Int("q"))
	},
}
