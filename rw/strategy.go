package rw

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/set"
)

// Choice is one quorum of a strategy with its probability.
type Choice struct {
	Quorum *set.Set
	P      *big.Rat
}

// Strategy is an access strategy (Naor and Wool; Whittaker et al.): a
// probability distribution over read quorums and one over write quorums.
// A quorum may be any set that contains a quorum (an f-resilient strategy
// picks larger sets).
type Strategy struct {
	Reads, Writes []Choice
	// Uniform, when set, stands for the uniform strategy over the smallest
	// quorums of each side, which [System.ClosedForm] proves optimal on
	// symmetric systems; Reads and Writes are then empty (there may be far
	// too many quorums to list).
	Uniform bool
}

// Objective names what [System.Optimal] minimises.
type Objective string

// The objectives.
const (
	MinLoad    Objective = "load"
	MinLatency Objective = "latency"
	MinNetwork Objective = "network"
)

// Options say what strategy [System.Optimal] looks for.
type Options struct {
	Workload Workload
	// F > 0 restricts the strategy to f-resilient quorums: sets that hold
	// a quorum after any F of their nodes fail.
	F        int
	Optimize Objective // "" means MinLoad
	// Limits, nil for none: the expected load (1/capacity, see
	// [Metrics]), the expected latency in seconds and the expected number
	// of nodes contacted.
	LoadLimit, LatencyLimit, NetworkLimit *big.Rat
	// ListLimit bounds the quorums listed where the structure does not
	// allow pricing by formula; 0 means DefaultListLimit.
	ListLimit int

	noMarginals bool // tests: price every side by quorum columns
}

// ErrNoStrategy is returned when no strategy meets the limits.
var ErrNoStrategy = errors.New("no strategy meets the limits")

// Metrics are a strategy's figures under a workload (Whittaker et al.,
// quoracle's definitions). For read fraction f, node x's load is
//
//	f·Pr[x ∈ read quorum]/rcap(x) + (1−f)·Pr[x ∈ write quorum]/wcap(x),
//
// the strategy's load at f is the largest node load, and Load is its
// expectation over the workload. Capacity is the expectation of 1/load (so
// for a single read fraction, 1/Load). Latency is the expected latency of
// the quorum contacted at the mean read fraction: a set's latency is the
// time until the responses of its fastest nodes make up a quorum. Network is
// the expected number of nodes contacted.
type Metrics struct {
	Load, Capacity, Latency, Network *big.Rat
	// PerFraction holds the load at each read fraction of the workload.
	PerFraction []*big.Rat
}

// quorumLatency returns the time until the responses from the nodes of s,
// fastest first, contain a quorum of side (nil if s holds none).
func (s *System) quorumLatency(side *Side, q *set.Set) *big.Rat {
	nodes := q.Elements()
	slices.SortStableFunc(nodes, func(a, b int) int { return s.Nodes[a].Latency.Cmp(s.Nodes[b].Latency) })
	prefix := set.New(s.N)
	for _, v := range nodes {
		prefix.Add(v)
		if side.IsQuorum(prefix) {
			return s.Nodes[v].Latency
		}
	}
	return nil
}

// Evaluate returns the metrics of st under workload w. It returns an error
// if a chosen set holds no quorum of its side, a probability is negative,
// or a side's probabilities do not sum to 1.
func (s *System) Evaluate(st *Strategy, w Workload) (*Metrics, error) {
	if st.Uniform {
		m, ok := s.ClosedForm(Options{Workload: w})
		if !ok {
			return nil, strategyErrorf("the uniform strategy is only evaluated on symmetric systems with equal capacities")
		}
		return m, nil
	}
	n := s.N
	rp, wp := make([]*big.Rat, n), make([]*big.Rat, n)
	for i := range n {
		rp[i], wp[i] = new(big.Rat), new(big.Rat)
	}
	fr := w.Mean()
	fw := new(big.Rat).Sub(ratOne, fr)
	m := &Metrics{Latency: new(big.Rat), Network: new(big.Rat), Load: new(big.Rat), Capacity: new(big.Rat)}
	var prod big.Rat
	for _, side := range []struct {
		name    string
		choices []Choice
		sd      *Side
		prob    []*big.Rat
		frac    *big.Rat
	}{{"read", st.Reads, &s.Reads, rp, fr}, {"write", st.Writes, &s.Writes, wp, fw}} {
		sum := new(big.Rat)
		for _, c := range side.choices {
			if c.P.Sign() < 0 {
				return nil, strategyErrorf("negative probability %s", c.P.RatString())
			}
			if mx, ok := c.Quorum.Max(); ok && mx >= n {
				return nil, strategyErrorf("node %d is not in 1..%d", mx+1, n)
			}
			lat := s.quorumLatency(side.sd, c.Quorum)
			if lat == nil {
				return nil, strategyErrorf("%s holds no %s quorum", s.format(c.Quorum), side.name)
			}
			sum.Add(sum, c.P)
			for v := range c.Quorum.All() {
				side.prob[v].Add(side.prob[v], c.P)
			}
			m.Latency.Add(m.Latency, prod.Mul(prod.Mul(c.P, lat), side.frac))
			m.Network.Add(m.Network, prod.Mul(prod.Mul(c.P, big.NewRat(int64(c.Quorum.Len()), 1)), side.frac))
		}
		if sum.Cmp(ratOne) != 0 {
			return nil, strategyErrorf("the %s probabilities sum to %s, not 1", side.name, sum.RatString())
		}
	}
	var x, y big.Rat
	for _, f := range w {
		g := new(big.Rat).Sub(ratOne, f.Read)
		load := new(big.Rat)
		for v := range n {
			x.Mul(f.Read, rp[v])
			x.Quo(&x, s.Nodes[v].ReadCapacity)
			y.Mul(g, wp[v])
			y.Quo(&y, s.Nodes[v].WriteCapacity)
			x.Add(&x, &y)
			if x.Cmp(load) > 0 {
				load.Set(&x)
			}
		}
		m.PerFraction = append(m.PerFraction, load)
		m.Load.Add(m.Load, prod.Mul(f.Weight, load))
		if load.Sign() > 0 {
			m.Capacity.Add(m.Capacity, prod.Quo(f.Weight, load))
		}
	}
	return m, nil
}

func (s *System) format(q *set.Set) string {
	out := "{"
	for i, v := range q.Elements() {
		if i > 0 {
			out += ", "
		}
		out += s.Label(v)
	}
	return out + "}"
}

// oracle finds, for node weights and a latency price, the quorum of one
// side with the least Σ weights + price·latency.
type oracle interface {
	best(weight []*big.Rat, latPrice *big.Rat) (*set.Set, *big.Rat)
}

// listOracle scans a list of sets.
type listOracle struct {
	sets []*set.Set
	lat  []*big.Rat
}

func (o *listOracle) best(weight []*big.Rat, latPrice *big.Rat) (*set.Set, *big.Rat) {
	var bq *set.Set
	var bc *big.Rat
	var prod big.Rat
	for i, q := range o.sets {
		c := new(big.Rat)
		for v := range q.All() {
			c.Add(c, weight[v])
		}
		if latPrice.Sign() != 0 {
			c.Add(c, prod.Mul(latPrice, o.lat[i]))
		}
		if bq == nil || c.Cmp(bc) < 0 {
			bq, bc = q, c
		}
	}
	return bq, bc
}

// exprOracle prices by the formula of a separable side (exact there): for
// each latency cap t among the nodes' latencies, the lightest quorum of
// nodes no slower than t, plus price·t.
type exprOracle struct {
	s    *System
	side *Side
	lats []*big.Rat // distinct latencies, increasing
}

func (o *exprOracle) best(weight []*big.Rat, latPrice *big.Rat) (*set.Set, *big.Rat) {
	caps := o.lats
	if latPrice.Sign() == 0 {
		caps = caps[len(caps)-1:]
	}
	var bq *set.Set
	var bc *big.Rat
	var prod big.Rat
	for _, t := range caps {
		q, c := o.side.Expr.MinQuorum(func(v int) (*big.Rat, bool) {
			return weight[v], o.s.Nodes[v].Latency.Cmp(t) <= 0
		})
		if q == nil {
			continue
		}
		q = shrink(o.side.Expr, q)
		c = new(big.Rat)
		for v := range q.All() {
			c.Add(c, weight[v])
		}
		c.Add(c, prod.Mul(latPrice, o.s.quorumLatency(o.side, q)))
		if bq == nil || c.Cmp(bc) < 0 {
			bq, bc = q, c
		}
	}
	return bq, bc
}

// oracleFor returns the pricing oracle of a side for f-resilient
// strategies.
func (s *System) oracleFor(ctx context.Context, side *Side, f, limit int) (oracle, error) {
	var sets []*set.Set
	switch {
	case f > 0:
		var err error
		if sets, err = s.resilientSets(ctx, side, f, limit); err != nil {
			return nil, err
		}
		if len(sets) == 0 {
			return nil, fmt.Errorf("rw: no %d-resilient quorums: %w", f, ErrNoStrategy)
		}
	case side.List == nil && side.Expr.Separable():
		seen := map[string]bool{}
		var lats []*big.Rat
		for _, nd := range s.Nodes {
			if k := nd.Latency.RatString(); !seen[k] {
				seen[k] = true
				lats = append(lats, nd.Latency)
			}
		}
		slices.SortFunc(lats, func(a, b *big.Rat) int { return a.Cmp(b) })
		return &exprOracle{s: s, side: side, lats: lats}, nil
	default:
		fam, err := side.FamilyContext(ctx, s.N, limit)
		if err != nil {
			return nil, err
		}
		for i := range fam.Quorums {
			sets = append(sets, &fam.Quorums[i])
		}
	}
	o := &listOracle{sets: sets}
	for _, q := range sets {
		o.lat = append(o.lat, s.quorumLatency(side, q))
	}
	return o, nil
}

// maxResilientNodes bounds the brute-force listing of f-resilient sets.
const maxResilientNodes = 22

// resilientSets lists the minimal f-resilient sets of a side: sets that
// hold a quorum after any f of their nodes fail. For choose(k, all n
// nodes) they are the (k+f)-subsets; otherwise they are found among all
// subsets, smallest first, so n is limited to maxResilientNodes.
func (s *System) resilientSets(ctx context.Context, side *Side, f, limit int) ([]*set.Set, error) {
	if k, nodes, ok := side.Expr.AsThreshold(); ok && len(nodes) == s.N {
		if k+f > s.N {
			return nil, nil
		}
		c := set.Binomial(s.N, k+f)
		if !c.IsInt64() || c.Int64() > int64(limit) {
			return nil, fmt.Errorf("rw: %s %d-resilient quorums: %w", c, f, set.ErrTooMany)
		}
		var out []*set.Set
		fam, _ := set.NewThreshold(s.N, k+f).Enumerate(limit)
		for i := range fam.Quorums {
			out = append(out, &fam.Quorums[i])
		}
		return out, nil
	}
	if s.N > maxResilientNodes {
		return nil, fmt.Errorf("rw: %d-resilient quorums of a non-threshold system over more than %d nodes are not supported", f, maxResilientNodes)
	}
	var found []*set.Set
	masks := make([]uint32, 0, 1<<s.N)
	for m := range uint32(1) << s.N {
		masks = append(masks, m)
	}
	slices.SortStableFunc(masks, func(a, b uint32) int { return popcount(a) - popcount(b) })
	cur, probe := set.New(s.N), set.New(s.N)
	for i, m := range masks {
		if i%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		cur.Clear()
		for v := range s.N {
			if m&(1<<v) != 0 {
				cur.Add(v)
			}
		}
		if slices.ContainsFunc(found, func(q *set.Set) bool { return set.Subset(q, cur) }) {
			continue
		}
		if resilient(side, cur, probe, f) {
			if len(found) == limit {
				return nil, fmt.Errorf("rw: more than %d %d-resilient quorums: %w", limit, f, set.ErrTooMany)
			}
			found = append(found, cur.Clone())
		}
	}
	return found, nil
}

func popcount(m uint32) int {
	c := 0
	for ; m != 0; m &= m - 1 {
		c++
	}
	return c
}

// resilient reports whether q minus any f of its nodes holds a quorum.
func resilient(side *Side, q, probe *set.Set, f int) bool {
	nodes := q.Elements()
	if len(nodes) < f {
		return false
	}
	idx := make([]int, f)
	for i := range idx {
		idx[i] = i
	}
	for {
		probe.Copy(q)
		for _, i := range idx {
			probe.Remove(nodes[i])
		}
		if !side.IsQuorum(probe) {
			return false
		}
		// Next f-combination of positions.
		i := f - 1
		for i >= 0 && idx[i] == len(nodes)-f+i {
			i--
		}
		if i < 0 {
			return true
		}
		idx[i]++
		for j := i + 1; j < f; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}
