package availability

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// MethodRecurrence is the method of the closed forms and recurrences of the
// classic constructions: tree quorums, hierarchical quorum consensus,
// crumbling walls (and the triangle and the wheel), the grid protocol, the
// B-grid and weighted voting (see [TreePolynomial] and its siblings).
const MethodRecurrence Method = "recurrence"

// The polynomials below are built from independent parts. A part over m
// nodes is described by its live count L (L[i] = i-subsets of its nodes on
// which it is live) and its dead count D = (1+t)^m − L. Parts on disjoint
// nodes combine by products: both live is L₁·L₂, one of d identical parts
// at least k live is Σ_{j≥k} C(d,j) L^j D^(d−j), and so on. The products
// of these counting polynomials (non-negative coefficients) go through one
// big multiplication by Kronecker substitution, which keeps a tree of height
// 10 or a wall of 1,000 nodes within milliseconds.
//
// Each recurrence watches its context between products and steps: once it
// is done, the recurrence stops and returns the context's error (the
// values it was computing are dropped).

type poly []*big.Int

// one returns the polynomial 1 (no nodes, always true).
func one() poly { return poly{big.NewInt(1)} }

// mono returns t^k.
func mono(k int) poly {
	p := zeros(k + 1)
	p[k].SetInt64(1)
	return p
}

func zeros(n int) poly {
	p := make(poly, n)
	for i := range p {
		p[i] = new(big.Int)
	}
	return p
}

// binom returns (1+t)^m.
func binom(m int) poly { return poly(binomialRow(m)) }

func (a poly) add(b poly) poly {
	out := zeros(max(len(a), len(b)))
	for i := range out {
		if i < len(a) {
			out[i].Add(out[i], a[i])
		}
		if i < len(b) {
			out[i].Add(out[i], b[i])
		}
	}
	return out
}

func (a poly) sub(b poly) poly {
	out := zeros(max(len(a), len(b)))
	for i := range out {
		if i < len(a) {
			out[i].Add(out[i], a[i])
		}
		if i < len(b) {
			out[i].Sub(out[i], b[i])
		}
	}
	return out
}

func (a poly) scale(c *big.Int) poly {
	out := zeros(len(a))
	for i := range a {
		out[i].Mul(a[i], c)
	}
	return out
}

// mul returns a·b. Both must have non-negative coefficients (counts) when
// they are long enough for the Kronecker substitution.
func (a poly) mul(b poly) poly {
	if len(a) == 0 || len(b) == 0 {
		return poly{}
	}
	if min(len(a), len(b)) <= 8 || a.negative() || b.negative() {
		out := zeros(len(a) + len(b) - 1)
		var t big.Int
		for i, x := range a {
			if x.Sign() == 0 {
				continue
			}
			for j, y := range b {
				if y.Sign() != 0 {
					out[i+j].Add(out[i+j], t.Mul(x, y))
				}
			}
		}
		return out
	}
	// Every coefficient of the product is below 2^slot, so packing each
	// polynomial into one integer with a coefficient every slot bits and
	// multiplying the integers gives the product's coefficients slot by
	// slot, with no carries between them.
	slot := a.maxBits() + b.maxBits() + bits.Len(uint(min(len(a), len(b)))) + 1
	w := (slot + bits.UintSize - 1) / bits.UintSize // words per slot
	x, y := a.pack(w), b.pack(w)
	prod := new(big.Int).Mul(x, y).Bits()
	out := zeros(len(a) + len(b) - 1)
	for i := range out {
		lo := i * w
		if lo >= len(prod) {
			break
		}
		hi := min(lo+w, len(prod))
		out[i].SetBits(append([]big.Word(nil), prod[lo:hi]...))
	}
	return out
}

func (a poly) negative() bool {
	for _, x := range a {
		if x.Sign() < 0 {
			return true
		}
	}
	return false
}

func (a poly) maxBits() int {
	m := 0
	for _, x := range a {
		m = max(m, x.BitLen())
	}
	return m
}

// pack returns Σ a[i]·2^(i·w·UintSize).
func (a poly) pack(w int) *big.Int {
	words := make([]big.Word, len(a)*w)
	for i, x := range a {
		copy(words[i*w:], x.Bits())
	}
	return new(big.Int).SetBits(words)
}

// pow returns a^e by squaring; once ctx is done it stops with a wrong
// value, which the caller drops on seeing ctx's error.
func (a poly) pow(ctx context.Context, e int) poly {
	r := one()
	for b := a; e > 0 && ctx.Err() == nil; e >>= 1 {
		if e&1 == 1 {
			r = r.mul(b)
		}
		if e > 1 {
			b = b.mul(b)
		}
	}
	return r
}

// shift returns t^k·a.
func (a poly) shift(k int) poly {
	out := zeros(len(a) + k)
	for i, x := range a {
		out[i+k].Set(x)
	}
	return out
}

// polynomial returns a as the Polynomial over n nodes.
func (a poly) polynomial(n int) *Polynomial {
	p := NewPolynomial(n)
	for i, x := range a {
		if i > n {
			if x.Sign() != 0 {
				panic(fmt.Sprintf("availability: degree %d over %d nodes", i, n))
			}
			continue
		}
		p.A[i].Set(x)
	}
	return p
}

// atLeast returns the live count of "at least k of d identical independent
// parts are live", each part with live count l and dead count dead:
// Σ_{j≥k} C(d,j) l^j dead^(d−j). Once ctx is done it stops with a wrong
// value, as pow does.
func atLeast(ctx context.Context, l, dead poly, d, k int) poly {
	if k <= 0 {
		return l.add(dead).pow(ctx, d)
	}
	lp := make([]poly, d+1) // l^j
	lp[0] = one()
	for j := 1; j <= d; j++ {
		if ctx.Err() != nil {
			return poly{}
		}
		lp[j] = lp[j-1].mul(l)
	}
	sum := poly{}
	dp := one() // dead^(d−j), from j = d down
	for j := d; j >= k; j-- {
		if ctx.Err() != nil {
			return poly{}
		}
		c := new(big.Int).Binomial(int64(d), int64(j))
		sum = sum.add(lp[j].mul(dp).scale(c))
		dp = dp.mul(dead)
	}
	return sum
}

// TreePolynomial returns the availability polynomial of the tree quorums of
// degree d ≥ 2 and height h ≥ 0 (construct.Tree: a quorum is a root-to-leaf
// path, a failed node replaced by paths through all its children), by the
// recurrence on the height: a leaf is live when it is up (L₀ = t); a tree
// whose subtrees have live count L and dead count D over m nodes each is
// live when its root is up and some subtree is live, or when every subtree
// is live:
//
//	L' = t·((1+t)^(dm) − D^d) + L^d.
//
// All subtrees of a level are alike, so the cost is a few polynomial
// products per level: milliseconds for the binary tree of height 10
// (2,047 nodes).
func TreePolynomial(ctx context.Context, d, h int) (*Polynomial, error) {
	if d < 2 || h < 0 {
		return nil, fmt.Errorf("availability: tree: degree %d and height %d: need degree ≥ 2 and height ≥ 0", d, h)
	}
	n := 1
	l, dead := mono(1), one()
	for range h {
		m := n
		n = d*m + 1
		if n > 1<<20 {
			return nil, fmt.Errorf("availability: tree: degree %d and height %d: more than %d nodes", d, h, 1<<20)
		}
		some := binom(d * m).sub(dead.pow(ctx, d))
		l = some.shift(1).add(l.pow(ctx, d))
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dead = binom(n).sub(l)
	}
	return l.polynomial(n), nil
}

// HQCPolynomial returns the availability polynomial of Kumar's hierarchical
// quorum consensus with group sizes levels (construct.HQC): a group of g
// subgroups is live when at least ⌊g/2⌋+1 of them are, computed bottom up
// with the identical subgroups of a level merged.
func HQCPolynomial(ctx context.Context, levels []int) (*Polynomial, error) {
	if len(levels) == 0 {
		return nil, errors.New("availability: hqc: no levels")
	}
	n := 1
	l, dead := mono(1), one()
	for i := len(levels) - 1; i >= 0; i-- {
		g := levels[i]
		if g < 1 || n*g > 1<<20 {
			return nil, fmt.Errorf("availability: hqc: group size %d: need 1 ≤ g and at most %d nodes", g, 1<<20)
		}
		n *= g
		l = atLeast(ctx, l, dead, g, g/2+1)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dead = binom(n).sub(l)
	}
	return l.polynomial(n), nil
}

// WallPolynomial returns the availability polynomial of the crumbling wall
// with rows of widths n_1..n_d from the top (construct.Wall; the triangle
// and the wheel are walls). The wall is live when some row i is all up and
// every row below it has a node up. Going up from the bottom row, the state
// of the rows seen so far is (E, L): E, every row seen has a node up; L,
// some row seen is all up with every row below it non-empty. A row of width
// w is all up (count t^w), up in part (C(w,j) for 0 < j < w) or all down
// (count 1), and
//
//	E' = E ∧ (row not all down),  L' = L ∨ (row all up ∧ E).
//
// AV counts the states with L. This is the row-by-row recursion of Peleg
// and Wool's availability analysis of crumbling walls, kept exact: three
// polynomials and only additions per row (a product by (1+t)^w is w
// rounds of adjacent sums), well under a second for 1,000 nodes.
func WallPolynomial(ctx context.Context, widths []int) (*Polynomial, error) {
	if len(widths) == 0 {
		return nil, errors.New("availability: wall: no rows")
	}
	n := 0
	for _, w := range widths {
		if w < 1 {
			return nil, fmt.Errorf("availability: wall: row width %d: must be at least 1", w)
		}
		n += w
		if n > 1<<20 {
			return nil, fmt.Errorf("availability: wall: more than %d nodes", 1<<20)
		}
	}
	// s11, s10, s01 for (E, L) = (1, 1), (1, 0), (0, 1); (0, 0) never
	// becomes live. With "all" the row's (1+t)^w, "part" = all − full − 1.
	s11, s10, s01 := zeros(1), one(), zeros(1)
	for i := len(widths) - 1; i >= 0; i-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w := widths[i]
		a11, a10 := s11.timesBinom(w), s10.timesBinom(w)
		f10 := s10.shift(w)
		t11 := a11.sub(s11).add(f10)
		t10 := a10.sub(f10).sub(s10)
		s01 = s01.timesBinom(w).add(s11)
		s11, s10 = t11, t10
	}
	return s11.add(s01).polynomial(n), nil
}

// timesBinom returns a·(1+t)^w by w steps of a[i] + a[i−1]: additions
// only, cheaper than a product for small w.
func (a poly) timesBinom(w int) poly {
	if w > 64 {
		return a.mul(binom(w))
	}
	out := zeros(len(a) + w)
	for i, x := range a {
		out[i].Set(x)
	}
	for k := 1; k <= w; k++ {
		for i := len(a) + k - 1; i > 0; i-- {
			out[i].Add(out[i], out[i-1])
		}
	}
	return out
}

// CGridPolynomial returns the availability polynomial of the grid protocol
// on rows×cols nodes (construct.CGrid): live when some column is all up
// and every column has a node up. With a column's counts T = (1+t)^rows,
// non-empty N = T − 1 and full F = t^rows, independent columns give
//
//	L = N^cols − (N − F)^cols.
func CGridPolynomial(ctx context.Context, rows, cols int) (*Polynomial, error) {
	if rows < 1 || cols < 1 || rows*cols > 1<<20 {
		return nil, fmt.Errorf("availability: cgrid: %d rows and %d columns: need both ≥ 1 and at most %d nodes", rows, cols, 1<<20)
	}
	ne := binom(rows)
	ne[0].SetInt64(0)
	notFull := ne.sub(mono(rows))
	l := ne.pow(ctx, cols).sub(notFull.pow(ctx, cols))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return l.polynomial(rows * cols), nil
}

// BGridPolynomial returns the availability polynomial of Naor and Wool's
// B-grid (construct.BGrid) of cols columns and bands bands of bandRows rows:
// live when every band has a mini-column all up and some band has a node up
// in each of its mini-columns. Per band, with a mini-column's counts T, N =
// T − 1 (non-empty) and F (full), "has a full mini-column" is H = T^c −
// (T−F)^c and "has one and covers every mini-column" is C = N^c − (N−F)^c,
// and the bands are independent:
//
//	L = H^bands − (H − C)^bands.
func BGridPolynomial(ctx context.Context, cols, bands, bandRows int) (*Polynomial, error) {
	if cols < 1 || bands < 1 || bandRows < 1 || cols*bands*bandRows > 1<<20 {
		return nil, fmt.Errorf("availability: bgrid: %d columns, %d bands of %d rows: need all ≥ 1 and at most %d nodes", cols, bands, bandRows, 1<<20)
	}
	t := binom(bandRows)
	f := mono(bandRows)
	ne := binom(bandRows)
	ne[0].SetInt64(0)
	h := t.pow(ctx, cols).sub(t.sub(f).pow(ctx, cols))
	c := ne.pow(ctx, cols).sub(ne.sub(f).pow(ctx, cols))
	l := h.pow(ctx, bands).sub(h.sub(c).pow(ctx, bands))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return l.polynomial(cols * bands * bandRows), nil
}

// VotePolynomial returns the availability polynomial of weighted voting
// (construct.Vote): the live sets are those holding at least t of the
// votes (t = 0: more than half). A dynamic program over the nodes keeps,
// per number of votes so far (capped at t), the count of subsets by size.
// Cost: n²·t big-integer additions.
func VotePolynomial(ctx context.Context, weights []int, t int) (*Polynomial, error) {
	n, total := len(weights), 0
	for _, w := range weights {
		if w < 0 {
			return nil, fmt.Errorf("availability: vote: negative weight %d", w)
		}
		total += w
	}
	if n == 0 || total == 0 {
		return nil, errors.New("availability: vote: no votes")
	}
	if t == 0 {
		t = total/2 + 1
	}
	if t < 1 || t > 1<<20 || int64(n)*int64(n)*int64(t) > 1<<32 {
		return nil, fmt.Errorf("availability: vote: threshold %d over %d nodes is out of range for the votes recurrence", t, n)
	}
	// dp[v][i]: subsets of the nodes seen with min(votes, t) = v and i nodes.
	dp := make([]poly, t+1)
	for v := range dp {
		dp[v] = zeros(n + 1)
	}
	dp[0][0].SetInt64(1)
	for k, w := range weights {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for v := t; v >= 0; v-- {
			to := min(v+w, t)
			for i := k; i >= 0; i-- {
				if dp[v][i].Sign() == 0 {
					continue
				}
				if w == 0 {
					dp[v][i+1].Add(dp[v][i+1], dp[v][i])
				} else {
					dp[to][i+1].Add(dp[to][i+1], dp[v][i])
				}
			}
		}
	}
	return dp[t].polynomial(n), nil
}
