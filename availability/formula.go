package availability

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
)

// formulaBuilder makes the BDD of a quorum expression by apply (and, or;
// choose(k, …) by the recurrence "at least j of the last arguments"),
// with a unique table and an operation cache, under a static order.
type formulaBuilder struct {
	ctx    context.Context
	nodes  []bddNode
	unique map[bddNode]uint32
	cache  map[[3]uint32]uint32
	budget int
	steps  int
	err    error
}

const (
	opAnd uint32 = iota
	opOr
)

func (fb *formulaBuilder) level(u uint32) int32 { return fb.nodes[u].level }

func (fb *formulaBuilder) mk(l int32, lo, hi uint32) uint32 {
	if lo == hi {
		return lo
	}
	k := bddNode{level: l, lo: lo, hi: hi}
	if u, ok := fb.unique[k]; ok {
		return u
	}
	if len(fb.nodes) >= fb.budget {
		fb.err = fmt.Errorf("availability: formula bdd: more than %d nodes: %w", fb.budget, ErrBudget)
		return bddFalse
	}
	u := uint32(len(fb.nodes))
	fb.nodes = append(fb.nodes, k)
	fb.unique[k] = u
	return u
}

func (fb *formulaBuilder) apply(op, a, b uint32) uint32 {
	if fb.err != nil {
		return bddFalse
	}
	switch op {
	case opAnd:
		switch {
		case a == bddFalse || b == bddFalse:
			return bddFalse
		case a == bddTrue:
			return b
		case b == bddTrue || a == b:
			return a
		}
	case opOr:
		switch {
		case a == bddTrue || b == bddTrue:
			return bddTrue
		case a == bddFalse:
			return b
		case b == bddFalse || a == b:
			return a
		}
	}
	if a > b {
		a, b = b, a
	}
	key := [3]uint32{op, a, b}
	if r, ok := fb.cache[key]; ok {
		return r
	}
	if fb.steps++; fb.steps%65536 == 0 {
		if err := fb.ctx.Err(); err != nil {
			fb.err = err
			return bddFalse
		}
	}
	la, lb := fb.level(a), fb.level(b)
	l := min(la, lb)
	a0, a1, b0, b1 := a, a, b, b
	if la == l {
		a0, a1 = fb.nodes[a].lo, fb.nodes[a].hi
	}
	if lb == l {
		b0, b1 = fb.nodes[b].lo, fb.nodes[b].hi
	}
	r := fb.mk(l, fb.apply(op, a0, b0), fb.apply(op, a1, b1))
	fb.cache[key] = r
	return r
}

// NewLiftedFormula is [NewLifted] for a side given as a bound expression
// over n nodes: the BDD is made from the formula by apply, each leaf v
// standing for "v and every domain of vars above v are up", under the
// order that puts each domain before what lies below it. No quorum is
// listed, so systems with astronomically many quorums but a compact
// structure (hierarchical quorum consensus along the domains, grids)
// fit. Its tables are hash maps, about four times the memory of the
// apply construction's per node, so it keeps at most a quarter of budget
// nodes (0 means DefaultBudget) and past them stops with an error
// wrapping [ErrBudget].
func NewLiftedFormula(ctx context.Context, e *expr.Expr, n int, t *domain.Tree, vars []int, budget int) (*Lifted, error) {
	if budget <= 0 {
		budget = DefaultBudget
	}
	budget = max(budget/4, 16)
	if t == nil {
		t = domain.New(n)
	}
	idx := map[int]int{}
	for i, d := range vars {
		idx[d] = n + i
	}
	nv := n + len(vars)
	order := make([]int, 0, nv)
	var walk func(d int)
	walk = func(d int) {
		if x, ok := idx[d]; ok {
			order = append(order, x)
		}
		order = append(order, t.Direct(d)...)
		for _, c := range t.Children(d) {
			walk(c)
		}
	}
	for _, d := range t.Roots() {
		walk(d)
	}
	order = append(order, t.Loose()...)
	pos := make([]int32, nv)
	for l, v := range order {
		pos[v] = int32(l)
	}
	fb := &formulaBuilder{ctx: ctx, budget: budget, unique: map[bddNode]uint32{}, cache: map[[3]uint32]uint32{},
		nodes: []bddNode{{level: int32(nv)}, {level: int32(nv)}}}
	variable := func(x int) uint32 { return fb.mk(pos[x], bddFalse, bddTrue) }
	leafMemo := map[int]uint32{}
	leaf := func(v int) uint32 {
		if u, ok := leafMemo[v]; ok {
			return u
		}
		u := variable(v)
		for _, d := range t.Above(v) {
			if x, ok := idx[d]; ok {
				u = fb.apply(opAnd, u, variable(x))
			}
		}
		leafMemo[v] = u
		return u
	}
	root := fb.build(e, n, leaf)
	if fb.err != nil {
		return nil, fb.err
	}
	b := &BDD{n: nv, order: order, root: root, nodes: slices.Clip(fb.nodes)}
	return &Lifted{n: n, tree: t, vars: slices.Clone(vars), bdd: b}, nil
}

// build makes the BDD of e, leaf(v) standing for node v.
func (fb *formulaBuilder) build(e *expr.Expr, n int, leaf func(v int) uint32) uint32 {
	if fb.err != nil {
		return bddFalse
	}
	switch e.Op {
	case expr.Leaf:
		if e.Node < 0 || e.Node >= n {
			fb.err = fmt.Errorf("availability: formula bdd: node %d is not in 1..%d", e.Node+1, n)
			return bddFalse
		}
		return leaf(e.Node)
	case expr.And, expr.Or:
		op := opAnd
		if e.Op == expr.Or {
			op = opOr
		}
		r := fb.build(e.Args[0], n, leaf)
		for _, a := range e.Args[1:] {
			r = fb.apply(op, r, fb.build(a, n, leaf))
		}
		return r
	}
	// choose(k, E1..Em): at[j] is "at least j of the arguments seen so
	// far (from the last) hold".
	k := e.K
	at := make([]uint32, k+1)
	at[0] = bddTrue
	for j := 1; j <= k; j++ {
		at[j] = bddFalse
	}
	for i := len(e.Args) - 1; i >= 0; i-- {
		x := fb.build(e.Args[i], n, leaf)
		for j := k; j >= 1; j-- {
			at[j] = fb.apply(opOr, at[j], fb.apply(opAnd, x, at[j-1]))
		}
	}
	return at[k]
}

// DomainKill returns a smallest set of the domains ds (all of one level
// of t) whose failure makes the bound expression e over n nodes false, as
// indices into ds, and false when no failure of them does. The BDD of e
// with each leaf replaced by the variable of its node's domain in ds (a
// node in none of them never fails) has one variable per domain; a
// smallest killing set is a cheapest path to false, a down branch
// costing 1 and an up branch (or a skipped domain) nothing; among
// cheapest paths it fails the earliest domains of ds. It stops
// with an error wrapping [ErrBudget] past budget nodes (0 means
// DefaultBudget).
func DomainKill(ctx context.Context, e *expr.Expr, n int, t *domain.Tree, ds []int, budget int) ([]int, bool, error) {
	if budget <= 0 {
		budget = DefaultBudget
	}
	m := len(ds)
	fb := &formulaBuilder{ctx: ctx, budget: budget, unique: map[bddNode]uint32{}, cache: map[[3]uint32]uint32{},
		nodes: []bddNode{{level: int32(m)}, {level: int32(m)}}}
	of := map[int]int{}
	for i, d := range ds {
		of[d] = i
	}
	leaf := func(v int) uint32 {
		for _, d := range t.Above(v) {
			if i, ok := of[d]; ok {
				return fb.mk(int32(i), bddFalse, bddTrue)
			}
		}
		return bddTrue
	}
	root := fb.build(e, n, leaf)
	if fb.err != nil {
		return nil, false, fb.err
	}
	const inf = math.MaxInt32
	cost := make([]int32, len(fb.nodes))
	down := make([]bool, len(fb.nodes))
	cost[bddFalse], cost[bddTrue] = 0, inf
	for u := 2; u < len(fb.nodes); u++ {
		nd := fb.nodes[u]
		c := cost[nd.hi]
		if lo := cost[nd.lo]; lo != inf && lo+1 <= c {
			c, down[u] = lo+1, true
		}
		cost[u] = c
	}
	if cost[root] == inf {
		return nil, false, nil
	}
	var kill []int
	for u := root; u > bddTrue; {
		nd := fb.nodes[u]
		if down[u] {
			kill = append(kill, int(nd.level))
			u = nd.lo
		} else {
			u = nd.hi
		}
	}
	return kill, true, nil
}
