package rw

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// SearchOptions say what [Search] looks for.
type SearchOptions struct {
	Options
	// Resilience is the least overall resilience a system must have.
	Resilience int
	// Seed drives the random node orders tried for grids (Shuffles of
	// them per shape); the same seed gives the same search.
	Seed     uint64
	Shuffles int
	// P is the probability a node is up where its attributes give none,
	// for the availability of the Pareto front; 0 means 0.99.
	P float64
	// MaxPartitionNodes bounds the systems over partitions of the nodes
	// (quoracle's two-level expressions), which number Bell(n); 0 means 7.
	MaxPartitionNodes int
	// Domains, if not nil, are the nodes' failure domains: candidates
	// with the domains of each level as groups are tried too, and every
	// candidate's domain resilience is given. A candidate must survive
	// any SurviveK domains of level SurviveLevel failing (search_domains.go).
	Domains                *domain.Tree
	SurviveLevel, SurviveK int
}

// Candidate is one system the search evaluated.
type Candidate struct {
	Reads, Writes *expr.Expr
	// Source says where the candidate came from ("threshold",
	// "grid 2×3 rows read, by capacity", "plane of order 2", …).
	Source                          string
	Strategy                        *Strategy
	Metrics                         *Metrics
	ReadResilience, WriteResilience int
	// DomainResilience is the resilience at each level of the domains
	// (reads, writes), when the search has domains.
	DomainResilience [][2]domain.Resilience
	// Availability is the least of the read and write availability at
	// the nodes' probabilities.
	Availability float64
}

// SearchResult is what [Search] found.
type SearchResult struct {
	Best *Candidate
	// Pareto holds the candidates no other beats on load, latency and
	// availability together (smaller load and latency, higher
	// availability), best objective first.
	Pareto []*Candidate
	// Tried counts the candidates evaluated, Feasible those meeting the
	// resilience and the limits; TriedBy and FeasibleBy split them by
	// family ("threshold", "grid", "construction", "two-level").
	Tried, Feasible     int
	TriedBy, FeasibleBy map[string]int
	// Complete is false when ctx ended the search before every candidate
	// was tried.
	Complete bool
}

// Search looks for the read-write system over the given nodes whose
// optimal strategy best meets opts, among a real candidate space, tried in
// this order: thresholds (read k of n, write the dual); every grid shape
// r×c with r·c = n, rows read or rows written, with the nodes in order of
// capacity, of latency, and in Shuffles seeded random orders; the
// projective plane and Maekawa's grid when n fits (n ≤ 16); and, for n ≤
// MaxPartitionNodes, quoracle's two-level expressions choose(k, E1, …, Em)
// over each partition of the nodes (nodes by capacity), each Ei a
// choose(ki) of its block. Each is scored by [System.Optimal]; systems
// below the resilience or without a strategy within the limits are
// skipped. When ctx ends, Search returns what it has with Complete false
// and ctx's error.
func Search(ctx context.Context, nodes []Node, opts SearchOptions) (*SearchResult, error) {
	n := len(nodes)
	if n == 0 {
		return nil, errors.New("rw: search: no nodes")
	}
	if opts.Shuffles == 0 {
		opts.Shuffles = 2
	}
	if opts.P == 0 {
		opts.P = 0.99
	}
	if opts.MaxPartitionNodes == 0 {
		opts.MaxPartitionNodes = 7
	}
	res := &SearchResult{TriedBy: map[string]int{}, FeasibleBy: map[string]int{}}
	seen := map[string]bool{}
	var stop error
	family := ""
	try := func(reads *expr.Expr, source string) bool {
		if err := ctx.Err(); err != nil {
			stop = err
			return false
		}
		key := reads.String()
		if seen[key] {
			return true
		}
		seen[key] = true
		res.Tried++
		res.TriedBy[family]++
		c, err := evaluate(ctx, nodes, reads, source, opts)
		if err != nil {
			if ctx.Err() != nil {
				stop = ctx.Err()
				return false
			}
			return true // infeasible or unsupported: skip
		}
		res.Feasible++
		res.FeasibleBy[family]++
		res.consider(c, opts.Optimize)
		return true
	}
	for _, gen := range []struct {
		family string
		run    func(func(*expr.Expr, string) bool) bool
	}{
		{"threshold", func(y func(*expr.Expr, string) bool) bool { return thresholds(n, y) }},
		{"grid", func(y func(*expr.Expr, string) bool) bool { return grids(nodes, opts, y) }},
		{"construction", func(y func(*expr.Expr, string) bool) bool { return constructions(n, y) }},
		{"domains", func(y func(*expr.Expr, string) bool) bool { return domainCandidates(opts.Domains, y) }},
		{"domain-vote", func(y func(*expr.Expr, string) bool) bool { return domainVotes(opts.Domains, y) }},
		{"two-level", func(y func(*expr.Expr, string) bool) bool {
			if n > opts.MaxPartitionNodes {
				return true
			}
			return partitions(byCapacity(nodes), y)
		}},
	} {
		family = gen.family
		if !gen.run(try) {
			break
		}
	}
	res.Complete = stop == nil
	slices.SortStableFunc(res.Pareto, func(a, b *Candidate) int { return compareObjective(a, b, opts.Optimize) })
	if stop != nil {
		return res, stop
	}
	if res.Best == nil {
		return res, fmt.Errorf("rw: search: %w", ErrNoStrategy)
	}
	return res, nil
}

func objective(c *Candidate, obj Objective) *big.Rat {
	switch obj {
	case MinLatency:
		return c.Metrics.Latency
	case MinNetwork:
		return c.Metrics.Network
	}
	return c.Metrics.Load
}

// compareObjective orders candidates by the objective, then network load,
// then load; earlier candidates win ties (the sort is stable).
func compareObjective(a, b *Candidate, obj Objective) int {
	if c := cmpRat(objective(a, obj), objective(b, obj)); c != 0 {
		return c
	}
	if c := cmpRat(a.Metrics.Network, b.Metrics.Network); c != 0 {
		return c
	}
	return cmpRat(a.Metrics.Load, b.Metrics.Load)
}

// cmpRat compares, with nil (unknown) after every number.
func cmpRat(a, b *big.Rat) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return a.Cmp(b)
}

// dominates reports whether a is at least as good as b on load, latency
// and availability and better on one.
func dominates(a, b *Candidate) bool {
	l, t := cmpRat(a.Metrics.Load, b.Metrics.Load), cmpRat(a.Metrics.Latency, b.Metrics.Latency)
	av := cmp.Compare(b.Availability, a.Availability)
	return l <= 0 && t <= 0 && av <= 0 && (l < 0 || t < 0 || av < 0)
}

func (r *SearchResult) consider(c *Candidate, obj Objective) {
	if r.Best == nil || compareObjective(c, r.Best, obj) < 0 {
		r.Best = c
	}
	for _, p := range r.Pareto {
		if dominates(p, c) || !dominates(c, p) && cmpRat(p.Metrics.Load, c.Metrics.Load) == 0 &&
			cmpRat(p.Metrics.Latency, c.Metrics.Latency) == 0 && p.Availability == c.Availability {
			return
		}
	}
	r.Pareto = slices.DeleteFunc(r.Pareto, func(p *Candidate) bool { return dominates(c, p) })
	r.Pareto = append(r.Pareto, c)
}

// evaluate scores the system with the given reads (writes: the dual).
func evaluate(ctx context.Context, nodes []Node, reads *expr.Expr, source string, opts SearchOptions) (*Candidate, error) {
	s, err := New(len(nodes), reads, nil, nodes)
	if err != nil {
		return nil, err
	}
	rr, err := s.ReadResilience(ctx)
	if err != nil {
		return nil, err
	}
	wr, err := s.WriteResilience(ctx)
	if err != nil {
		return nil, err
	}
	if min(rr.F, wr.F) < opts.Resilience {
		return nil, ErrNoStrategy
	}
	survives, dres, err := surviveDomains(ctx, s, opts)
	if err != nil {
		return nil, err
	}
	if !survives {
		return nil, ErrNoStrategy
	}
	st, m, err := s.Optimal(ctx, opts.Options)
	if err != nil {
		return nil, err
	}
	c := &Candidate{Reads: s.Reads.Expr, Writes: s.Writes.Expr, Source: source, Strategy: st, Metrics: m,
		ReadResilience: rr.F, WriteResilience: wr.F, DomainResilience: dres}
	if c.Availability, err = searchAvailability(ctx, s, opts); err != nil {
		return nil, err
	}
	return c, nil
}

// availability returns the smaller of the read and the write
// availability, each node up with its P (or p).
func (s *System) availability(ctx context.Context, p float64) (float64, error) {
	probs := make([]float64, s.N)
	for v, nd := range s.Nodes {
		probs[v] = p
		if nd.P != nil {
			probs[v], _ = nd.P.Float64()
		}
	}
	least := 1.0
	for _, sd := range []*Side{&s.Reads, &s.Writes} {
		if sd.Expr.ReadOnce() {
			least = min(least, sd.Expr.Probability(func(v int) float64 { return probs[v] }))
			continue
		}
		var fam *set.Family
		if k, nodes, ok := sd.Expr.AsThreshold(); ok && len(nodes) == s.N {
			fam = set.NewThreshold(s.N, k)
		} else {
			var err error
			if fam, err = sd.FamilyContext(ctx, s.N, DefaultListLimit); err != nil {
				return 0, err
			}
		}
		r, err := availability.Compute(ctx, fam, availability.Options{})
		if err != nil {
			return 0, err
		}
		av, _, err := r.Probability(ctx, probs, 0)
		if err != nil {
			return 0, err
		}
		least = min(least, av)
	}
	return least, nil
}

func thresholds(n int, yield func(*expr.Expr, string) bool) bool {
	for k := 1; k <= n; k++ {
		if !yield(expr.Threshold(n, k), fmt.Sprintf("threshold: read %d of %d, write %d", k, n, n-k+1)) {
			return false
		}
	}
	return true
}

// byCapacity orders the nodes by decreasing capacity (read plus write),
// then by id.
func byCapacity(nodes []Node) []int {
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ca := new(big.Rat).Add(nodes[a].ReadCapacity, nodes[a].WriteCapacity)
		cb := new(big.Rat).Add(nodes[b].ReadCapacity, nodes[b].WriteCapacity)
		return cb.Cmp(ca)
	})
	return order
}

func byLatency(nodes []Node) []int {
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return nodes[a].Latency.Cmp(nodes[b].Latency) })
	return order
}

// gridOf lays order out in r rows of c and returns the sum of the rows'
// products (rows read) or the product of the rows' sums (rows written).
func gridOf(order []int, r, c int, rowsRead bool) *expr.Expr {
	var rows []*expr.Expr
	for i := range r {
		var leaves []*expr.Expr
		for j := range c {
			leaves = append(leaves, expr.Node(order[i*c+j]))
		}
		if rowsRead {
			rows = append(rows, expr.NewAnd(leaves...))
		} else {
			rows = append(rows, expr.NewOr(leaves...))
		}
	}
	if rowsRead {
		return expr.NewOr(rows...)
	}
	return expr.NewAnd(rows...)
}

func grids(nodes []Node, opts SearchOptions, yield func(*expr.Expr, string) bool) bool {
	n := len(nodes)
	orders := []struct {
		name  string
		order []int
	}{{"by capacity", byCapacity(nodes)}, {"by latency", byLatency(nodes)}}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15))
	for i := range opts.Shuffles {
		orders = append(orders, struct {
			name  string
			order []int
		}{fmt.Sprintf("shuffle %d of seed %d", i+1, opts.Seed), rng.Perm(n)})
	}
	for r := 2; r <= n/2; r++ {
		if n%r != 0 {
			continue
		}
		c := n / r
		for _, o := range orders {
			for _, rowsRead := range []bool{true, false} {
				how := "rows read"
				if !rowsRead {
					how = "rows written"
				}
				if !yield(gridOf(o.order, r, c, rowsRead), fmt.Sprintf("grid %d×%d, %s, nodes %s", r, c, how, o.name)) {
					return false
				}
			}
		}
	}
	return true
}

// maxConstructionNodes bounds the constructions the search tries: their
// writes are listed as minimal transversals (MMCS), whose number grows
// fast with n.
const maxConstructionNodes = 16

// constructions yields coterie's constructions that fit n nodes exactly:
// the projective plane (n = q²+q+1) and Maekawa's grid, as read quorums,
// for n up to maxConstructionNodes.
func constructions(n int, yield func(*expr.Expr, string) bool) bool {
	if n > maxConstructionNodes {
		return true
	}
	for q := 2; q*q+q+1 <= n; q++ {
		if q*q+q+1 != n {
			continue
		}
		if f, err := construct.ProjectivePlane(q); err == nil {
			if !yield(expr.FromFamily(f), fmt.Sprintf("projective plane of order %d", q)) {
				return false
			}
		}
	}
	if n >= 4 {
		r, c := construct.GridShape(n)
		if f, err := construct.Grid(r, c, n); err == nil {
			if !yield(expr.FromFamily(f), fmt.Sprintf("Maekawa grid %d×%d", r, c)) {
				return false
			}
		}
	}
	return true
}

// partitions yields quoracle's two-level expressions: for each partition
// of the nodes (in the given order) into blocks, choose(k, E1, …, Em) for
// every k, where block i's Ei is a single node or choose(ki, block) for
// each ki.
func partitions(order []int, yield func(*expr.Expr, string) bool) bool {
	var blocks [][]int
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(order) {
			if len(blocks) < 2 {
				return true
			}
			return blockExprs(blocks, yield)
		}
		for b := range blocks {
			blocks[b] = append(blocks[b], order[i])
			ok := rec(i + 1)
			blocks[b] = blocks[b][:len(blocks[b])-1]
			if !ok {
				return false
			}
		}
		blocks = append(blocks, []int{order[i]})
		ok := rec(i + 1)
		blocks = blocks[:len(blocks)-1]
		return ok
	}
	return rec(0)
}

func blockExprs(blocks [][]int, yield func(*expr.Expr, string) bool) bool {
	args := make([]*expr.Expr, len(blocks))
	var rec func(b int) bool
	rec = func(b int) bool {
		if b == len(blocks) {
			for k := 1; k <= len(args); k++ {
				if !yield(chooseOf(k, slices.Clone(args)), "two-level expression") {
					return false
				}
			}
			return true
		}
		blk := blocks[b]
		if len(blk) == 1 {
			args[b] = expr.Node(blk[0])
			return rec(b + 1)
		}
		leaves := make([]*expr.Expr, len(blk))
		for i, v := range blk {
			leaves[i] = expr.Node(v)
		}
		for k := 1; k <= len(blk); k++ {
			args[b] = chooseOf(k, leaves)
			if !rec(b + 1) {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// chooseOf is choose(k, args) written simply: a sum for k = 1, a product
// for k = len(args).
func chooseOf(k int, args []*expr.Expr) *expr.Expr {
	switch k {
	case 1:
		return expr.NewOr(args...)
	case len(args):
		return expr.NewAnd(args...)
	}
	e, _ := expr.NewChoose(k, args...)
	return e
}
