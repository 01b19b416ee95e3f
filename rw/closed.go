package rw

import (
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/expr"
)

// closedFormNodes is the size from which [System.Optimal] answers a
// symmetric system by the closed form instead of the linear program.
const closedFormNodes = 32

// symmetric reports whether the automorphisms of side act transitively on
// all n nodes, by a sufficient test: the expression is read-once, uses
// every node, and at every operator the arguments have the same shape (so
// permuting equal-shaped arguments moves any node to any other). A
// threshold choose(k, 1..n) and a grid of equal rows are symmetric.
func symmetric(e *expr.Expr, n int) bool {
	if !e.ReadOnce() || e.Nodes().Len() != n {
		return false
	}
	_, ok := shape(e)
	return ok
}

// shape returns a canonical string of e's tree shape, and whether every
// operator below has arguments of one shape.
func shape(e *expr.Expr) (string, bool) {
	if e.Op == expr.Leaf {
		return "x", true
	}
	var first string
	for i, a := range e.Args {
		s, ok := shape(a)
		if !ok || i > 0 && s != first {
			return "", false
		}
		first = s
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(e.Op)))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(e.K))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(len(e.Args)))
	b.WriteByte('(')
	b.WriteString(first)
	b.WriteByte(')')
	return b.String(), true
}

// evenSide returns the size of the side's smallest quorums when a uniform
// strategy loads every node equally: a symmetric expression (uniform over
// the smallest quorums), or a listed side whose quorums have one size and
// whose nodes all lie in equally many of them (uniform over the list, as
// for a projective plane).
func evenSide(sd *Side, n int) (int, bool) {
	if symmetric(sd.Expr, n) {
		size, _ := sd.Expr.MinSize()
		return size, true
	}
	if sd.List != nil && len(sd.List.Quorums) > 0 && sd.List.N == n {
		if st := sd.List.Stats(); st.EqualSize() && st.EqualDegree() && st.MinDegree.Sign() > 0 {
			return st.MinSize, true
		}
	}
	return 0, false
}

// uniformStrategy returns the strategy ClosedForm describes: explicit when
// both sides are listed, otherwise marked Uniform.
func (s *System) uniformStrategy() *Strategy {
	if s.Reads.List == nil || s.Writes.List == nil || symmetric(s.Reads.Expr, s.N) || symmetric(s.Writes.Expr, s.N) {
		return &Strategy{Uniform: true}
	}
	st := &Strategy{}
	for _, side := range []struct {
		f   *Side
		dst *[]Choice
	}{{&s.Reads, &st.Reads}, {&s.Writes, &st.Writes}} {
		p := big.NewRat(1, int64(len(side.f.List.Quorums)))
		for i := range side.f.List.Quorums {
			*side.dst = append(*side.dst, Choice{Quorum: side.f.List.Quorums[i].Clone(), P: p})
		}
	}
	sortChoices(st.Reads)
	sortChoices(st.Writes)
	return st
}

// uniformCapacities returns the common read and write capacities, or ok
// false.
func (s *System) uniformCapacities() (rc, wc *big.Rat, ok bool) {
	rc, wc = s.Nodes[0].ReadCapacity, s.Nodes[0].WriteCapacity
	for _, nd := range s.Nodes[1:] {
		if nd.ReadCapacity.Cmp(rc) != 0 || nd.WriteCapacity.Cmp(wc) != 0 {
			return nil, nil, false
		}
	}
	return rc, wc, true
}

// ClosedForm returns the load-optimal metrics of a system with equal
// capacities whose sides are each symmetric or regular, without a linear
// program, or ok false when it does not apply (f > 0, another objective,
// limits, unequal capacities, or a side whose symmetry the tests cannot
// see).
//
// Every strategy has Σ_x load_x = f·E|r|/rcap + (1−f)·E|w|/wcap ≥
// f·min|R|/rcap + (1−f)·min|W|/wcap, so the load is at least that over n.
// On a node-transitive side (a symmetric expression) the uniform strategy
// over its smallest quorums loads every node equally, and so does the
// uniform strategy over a listed side with quorums of one size and nodes of
// one degree (a projective plane); that attains the bound at every read
// fraction at once. Latency is given only when all nodes have the same
// latency.
func (s *System) ClosedForm(opts Options) (*Metrics, bool) {
	if opts.F != 0 || (opts.Optimize != "" && opts.Optimize != MinLoad) ||
		opts.LoadLimit != nil || opts.LatencyLimit != nil || opts.NetworkLimit != nil || len(opts.Workload) == 0 {
		return nil, false
	}
	rc, wc, ok := s.uniformCapacities()
	if !ok {
		return nil, false
	}
	minR, okR := evenSide(&s.Reads, s.N)
	minW, okW := evenSide(&s.Writes, s.N)
	if !okR || !okW {
		return nil, false
	}
	rsize, wsize := big.NewRat(int64(minR), 1), big.NewRat(int64(minW), 1)
	n := big.NewRat(int64(s.N), 1)
	m := &Metrics{Load: new(big.Rat), Capacity: new(big.Rat)}
	var x, y big.Rat
	for _, f := range opts.Workload {
		x.Mul(f.Read, rsize)
		x.Quo(&x, rc)
		y.Sub(ratOne, f.Read)
		y.Mul(&y, wsize)
		y.Quo(&y, wc)
		load := new(big.Rat).Add(&x, &y)
		load.Quo(load, n)
		m.PerFraction = append(m.PerFraction, load)
		m.Load.Add(m.Load, x.Mul(f.Weight, load))
		if load.Sign() > 0 {
			m.Capacity.Add(m.Capacity, x.Quo(f.Weight, load))
		}
	}
	fr := opts.Workload.Mean()
	m.Network = new(big.Rat).Mul(fr, rsize)
	m.Network.Add(m.Network, x.Mul(new(big.Rat).Sub(ratOne, fr), wsize))
	if !slices.ContainsFunc(s.Nodes, func(nd Node) bool { return nd.Latency.Cmp(s.Nodes[0].Latency) != 0 }) {
		m.Latency = new(big.Rat).Set(s.Nodes[0].Latency)
	}
	return m, true
}
