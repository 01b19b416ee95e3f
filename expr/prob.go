package expr

import "math/big"

// Probability returns the probability that the nodes up contain a quorum
// of the read-once expression e ([Expr.ReadOnce]) when node v is up with
// probability p(v), independently: leaves are independent, so an or fails
// when all its arguments fail, an and holds when all hold, and choose(k)
// counts the arguments that hold. It panics if e is not read-once. Cost:
// linear in the size of e (quadratic in a choose's width).
func (e *Expr) Probability(p func(v int) float64) float64 {
	if !e.ReadOnce() {
		panic("expr: Probability of an expression that repeats a node")
	}
	return e.prob(p)
}

func (e *Expr) prob(p func(int) float64) float64 {
	switch e.Op {
	case Leaf:
		return p(e.Node)
	case Or:
		fail := 1.0
		for _, a := range e.Args {
			fail *= 1 - a.prob(p)
		}
		return 1 - fail
	case And:
		all := 1.0
		for _, a := range e.Args {
			all *= a.prob(p)
		}
		return all
	default:
		// dist[j] = P(exactly j of the arguments so far hold), j capped at
		// K (K or more).
		dist := make([]float64, e.K+1)
		dist[0] = 1
		for _, a := range e.Args {
			q := a.prob(p)
			for j := e.K; j >= 0; j-- {
				stay := dist[j] * (1 - q)
				if j == e.K {
					stay = dist[j] // K or more stays K or more
				}
				if j > 0 {
					stay += dist[j-1] * q
				}
				dist[j] = stay
			}
		}
		return dist[e.K]
	}
}

// Coefficients returns, for the read-once expression e over its own nodes
// (m of them, [Expr.Nodes]), c[i] = the number of i-subsets of those nodes
// that contain a quorum, exactly: the availability polynomial's
// coefficients (Kuo 2001) by composition, without listing quorums — an
// or's failing subsets are products of its arguments' failing ones, an
// and's holding subsets products of holding ones. It panics if e is not
// read-once. Cost: O(m²) big-integer products per operator.
func (e *Expr) Coefficients() []*big.Int {
	if !e.ReadOnce() {
		panic("expr: Coefficients of an expression that repeats a node")
	}
	hold, _ := e.counts()
	return hold
}

// counts returns the number of holding and failing subsets of e's nodes by
// size.
func (e *Expr) counts() (hold, fail []*big.Int) {
	if e.Op == Leaf {
		return []*big.Int{big.NewInt(0), big.NewInt(1)}, []*big.Int{big.NewInt(1), big.NewInt(0)}
	}
	switch e.Op {
	case Or, And:
		// Or fails when every argument fails; And holds when every
		// argument holds. The other count is the complement within the
		// binomials.
		var acc []*big.Int
		m := 0
		for i, a := range e.Args {
			h, f := a.counts()
			m += len(h) - 1
			part := f
			if e.Op == And {
				part = h
			}
			if i == 0 {
				acc = part
				continue
			}
			acc = convolve(acc, part)
		}
		other := complement(acc, m)
		if e.Op == Or {
			return other, acc
		}
		return acc, other
	default:
		if leaves(e.Args) {
			// K of m nodes: the subsets of size at least K hold.
			m := len(e.Args)
			hold := make([]*big.Int, m+1)
			for i := range hold {
				hold[i] = new(big.Int)
				if i >= e.K {
					hold[i].Binomial(int64(m), int64(i))
				}
			}
			return hold, complement(hold, m)
		}
		// dist[j][i] = subsets of size i of the arguments so far in which
		// exactly j arguments hold (j capped at K).
		dist := [][]*big.Int{{big.NewInt(1)}}
		for range e.K {
			dist = append(dist, []*big.Int{big.NewInt(0)})
		}
		m := 0
		for _, a := range e.Args {
			h, f := a.counts()
			m += len(h) - 1
			next := make([][]*big.Int, e.K+1)
			for j := range next {
				next[j] = convolve(dist[j], f)
				if j > 0 {
					next[j] = add(next[j], convolve(dist[j-1], h))
				}
				if j == e.K {
					next[j] = add(next[j], convolve(dist[j], h))
				}
			}
			dist = next
		}
		hold := pad(dist[e.K], m+1)
		return hold, complement(hold, m)
	}
}

// leaves reports whether every argument is a leaf.
func leaves(args []*Expr) bool {
	for _, a := range args {
		if a.Op != Leaf {
			return false
		}
	}
	return true
}

func convolve(a, b []*big.Int) []*big.Int {
	out := make([]*big.Int, len(a)+len(b)-1)
	for i := range out {
		out[i] = new(big.Int)
	}
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

func add(a, b []*big.Int) []*big.Int {
	n := max(len(a), len(b))
	out := make([]*big.Int, n)
	for i := range out {
		out[i] = new(big.Int)
		if i < len(a) {
			out[i].Add(out[i], a[i])
		}
		if i < len(b) {
			out[i].Add(out[i], b[i])
		}
	}
	return out
}

func pad(a []*big.Int, n int) []*big.Int {
	for len(a) < n {
		a = append(a, new(big.Int))
	}
	return a[:n]
}

// complement returns C(m, i) − a[i] for i = 0..m.
func complement(a []*big.Int, m int) []*big.Int {
	a = pad(a, m+1)
	out := make([]*big.Int, m+1)
	for i := range out {
		out[i] = new(big.Int).Binomial(int64(m), int64(i))
		out[i].Sub(out[i], a[i])
	}
	return out
}

// CoefficientsOver returns [Expr.Coefficients] over n nodes, of which e
// uses m (n ≥ m): the other n−m nodes are free, so
// A[i] = Σ_j c[j]·C(n−m, i−j). It panics if e is not read-once.
func (e *Expr) CoefficientsOver(n int) []*big.Int {
	c, m := e.Coefficients(), e.Nodes().Len()
	out := make([]*big.Int, n+1)
	var t, b big.Int
	for i := range out {
		a := new(big.Int)
		for j := max(0, i-(n-m)); j <= min(i, m); j++ {
			b.Binomial(int64(n-m), int64(i-j))
			a.Add(a, t.Mul(c[j], &b))
		}
		out[i] = a
	}
	return out
}
