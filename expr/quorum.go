package expr

import (
	"context"
	"iter"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// IsQuorum reports whether the nodes in s satisfy the bound expression e
// (contain a quorum).
func (e *Expr) IsQuorum(s *set.Set) bool {
	switch e.Op {
	case Leaf:
		return s.Has(e.Node)
	case Or:
		for _, a := range e.Args {
			if a.IsQuorum(s) {
				return true
			}
		}
		return false
	case And:
		for _, a := range e.Args {
			if !a.IsQuorum(s) {
				return false
			}
		}
		return true
	default:
		need, left := e.K, len(e.Args)
		for _, a := range e.Args {
			if a.IsQuorum(s) {
				need--
				if need == 0 {
					return true
				}
			}
			left--
			if left < need {
				return false
			}
		}
		return false
	}
}

// Nodes returns the set of bound nodes in e.
func (e *Expr) Nodes() *set.Set {
	s := new(set.Set)
	e.Leaves(func(l *Expr) { s.Add(l.Node) })
	return s
}

// Separable reports whether every * and choose of e joins arguments over
// pairwise disjoint nodes (an or may share nodes between its arguments).
// Then every quorum e generates is the disjoint union of its parts, which
// makes [Expr.MinQuorum] exact. A read-once expression (no node twice) and
// a list of quorums written as a sum of products are separable.
func (e *Expr) Separable() bool {
	ok, _ := e.separable()
	return ok
}

func (e *Expr) separable() (bool, *set.Set) {
	if e.Op == Leaf {
		return true, set.Of(e.Node)
	}
	all := new(set.Set)
	for _, a := range e.Args {
		ok, s := a.separable()
		if !ok {
			return false, nil
		}
		if e.Op != Or && set.Intersects(all, s) {
			return false, nil
		}
		all.Union(all, s)
	}
	return true, all
}

// ReadOnce reports whether no node appears twice in e.
func (e *Expr) ReadOnce() bool {
	seen := new(set.Set)
	ok := true
	e.Leaves(func(l *Expr) {
		if seen.Has(l.Node) {
			ok = false
		}
		seen.Add(l.Node)
	})
	return ok
}

// MinimalQuorums returns the inclusion-minimal quorums of the bound
// expression e, each once, lazily: stop ranging to stop the work. The order
// is fixed by the expression (the same expression gives the same
// sequence). The sets yielded are fresh and may be kept.
//
// The candidates are generated from the formula (products of the
// arguments' quorums). For a read-once expression ([Expr.ReadOnce]) they
// are exactly the minimal quorums, each once, and nothing is stored;
// otherwise each candidate is kept only if removing any one node leaves no
// quorum, and repeats are dropped with a table of the quorums yielded so
// far. The number of quorums can be exponential in the
// size of e.
func (e *Expr) MinimalQuorums() iter.Seq[*set.Set] {
	return e.MinimalQuorumsContext(context.Background())
}

// MinimalQuorumsContext is [Expr.MinimalQuorums] under ctx: the sequence
// ends early once ctx is done, which the caller tells from ctx.Err(). The
// context is checked at every candidate, so that a formula whose
// candidates are mostly not minimal (a product of many overlapping sums,
// which yields nothing for a long time) still stops at once.
func (e *Expr) MinimalQuorumsContext(ctx context.Context) iter.Seq[*set.Set] {
	return func(yield func(*set.Set) bool) {
		readOnce := e.ReadOnce()
		if !readOnce && e.Op == Choose && leaves(e.Args) {
			// A weighted vote: its minimal quorums straight away, in
			// the order the candidates would give them.
			e.voteQuorums(ctx, yield)
			return
		}
		e.generalQuorums(ctx, readOnce, yield)
	}
}

// generalQuorums yields the minimal quorums from the candidates.
func (e *Expr) generalQuorums(ctx context.Context, readOnce bool, yield func(*set.Set) bool) {
	seen := map[uint64][]*set.Set{}
	probe := new(set.Set)
	e.candidates(new(set.Set), func(q *set.Set) bool {
		if ctx.Err() != nil {
			return false
		}
		if !readOnce {
			if !e.minimal(q, probe) {
				return true
			}
			h := q.Hash()
			for _, s := range seen[h] {
				if set.Equal(s, q) {
					return true
				}
			}
			seen[h] = append(seen[h], q.Clone())
		}
		return yield(q.Clone())
	})
}

// voteQuorums yields the minimal quorums of choose(K, leaves), a node
// appearing w times weighing w: the sets S of weight at least K that
// lose it without any one node. The candidates (K argument positions, in
// lexicographic order) first give S as the first K positions of its
// nodes' leaves, so S is yielded when its positions are picked: a depth
// first walk over the positions that picks (before skipping) a node not
// yet decided, must pick every later position of a node picked, and
// never one of a node skipped.
func (e *Expr) voteQuorums(ctx context.Context, yield func(*set.Set) bool) {
	args := e.Args
	weight := map[int]int{}
	for _, a := range args {
		weight[a.Node]++
	}
	state := map[int]int8{} // 1 picked, −1 skipped
	s := new(set.Set)
	var rec func(p, c, w int) bool
	rec = func(p, c, w int) bool {
		if c == e.K {
			if ctx.Err() != nil {
				return false
			}
			for v := range s.All() {
				if w-weight[v] >= e.K {
					return true
				}
			}
			return yield(s.Clone())
		}
		if len(args)-p < e.K-c {
			return true
		}
		v := args[p].Node
		switch state[v] {
		case 1:
			return rec(p+1, c+1, w)
		case -1:
			return rec(p+1, c, w)
		}
		state[v] = 1
		s.Add(v)
		ok := rec(p+1, c+1, w+weight[v])
		s.Remove(v)
		if !ok {
			state[v] = 0
			return false
		}
		state[v] = -1
		ok = rec(p+1, c, w)
		state[v] = 0
		return ok
	}
	rec(0, 0, 0)
}

// minimal reports whether quorum q of e stays a quorum after removing any
// one node (monotonicity makes one removal enough).
func (e *Expr) minimal(q, probe *set.Set) bool {
	for v := range q.All() {
		probe.Copy(q)
		probe.Remove(v)
		if e.IsQuorum(probe) {
			return false
		}
	}
	return true
}

// candidates calls yield with acc ∪ q for every quorum q the formula
// generates (a superset of each minimal quorum, every minimal quorum among
// them). It returns false when yield stopped it. acc is not modified.
func (e *Expr) candidates(acc *set.Set, yield func(*set.Set) bool) bool {
	switch e.Op {
	case Leaf:
		s := acc.Clone()
		s.Add(e.Node)
		return yield(s)
	case Or:
		for _, a := range e.Args {
			if !a.candidates(acc, yield) {
				return false
			}
		}
		return true
	case And:
		return product(e.Args, acc, yield)
	default:
		pick := make([]*Expr, e.K)
		var rec func(start, i int) bool
		rec = func(start, i int) bool {
			if i == e.K {
				return product(pick, acc, yield)
			}
			for j := start; j <= len(e.Args)-(e.K-i); j++ {
				pick[i] = e.Args[j]
				if !rec(j+1, i+1) {
					return false
				}
			}
			return true
		}
		return rec(0, 0)
	}
}

func product(args []*Expr, acc *set.Set, yield func(*set.Set) bool) bool {
	if len(args) == 0 {
		return yield(acc)
	}
	return args[0].candidates(acc, func(s *set.Set) bool {
		return product(args[1:], s, yield)
	})
}

// Family returns the minimal quorums of e as an explicit family over n
// nodes, in the order of [Expr.MinimalQuorums], or ok false if there are
// more than limit (limit ≤ 0: no limit).
func (e *Expr) Family(n, limit int) (f *set.Family, ok bool) {
	f, ok, _ = e.FamilyContext(context.Background(), n, limit)
	return f, ok
}

// FamilyContext is [Expr.Family] under ctx: it returns ctx's error as
// soon as ctx is done (see [Expr.MinimalQuorumsContext]).
func (e *Expr) FamilyContext(ctx context.Context, n, limit int) (f *set.Family, ok bool, err error) {
	f = set.NewFamily(n)
	for q := range e.MinimalQuorumsContext(ctx) {
		if limit > 0 && len(f.Quorums) == limit {
			return nil, false, nil
		}
		f.Add(q, set.NoOwner)
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	return f, true, nil
}

// MinQuorum returns a quorum of e of least total weight, with that weight,
// where weight(v) is node v's weight (non-negative) and ok false if v may
// not be used. It returns nil if no quorum uses only allowed nodes. The
// answer is exact when e is separable ([Expr.Separable]); otherwise the
// weight returned is an upper bound for the quorum returned, which need not
// be the lightest. Cost: linear in the size of e, plus a sort per choose.
func (e *Expr) MinQuorum(weight func(v int) (w *big.Rat, ok bool)) (*set.Set, *big.Rat) {
	switch e.Op {
	case Leaf:
		w, ok := weight(e.Node)
		if !ok {
			return nil, nil
		}
		return set.Of(e.Node), w
	case Or:
		var best *set.Set
		var bw *big.Rat
		for _, a := range e.Args {
			q, w := a.MinQuorum(weight)
			if q != nil && (best == nil || w.Cmp(bw) < 0) {
				best, bw = q, w
			}
		}
		return best, bw
	case And:
		all, sum := new(set.Set), new(big.Rat)
		for _, a := range e.Args {
			q, w := a.MinQuorum(weight)
			if q == nil {
				return nil, nil
			}
			all.Union(all, q)
			sum.Add(sum, w)
		}
		return all, sum
	default:
		type part struct {
			q *set.Set
			w *big.Rat
			i int
		}
		var parts []part
		for i, a := range e.Args {
			if q, w := a.MinQuorum(weight); q != nil {
				parts = append(parts, part{q, w, i})
			}
		}
		if len(parts) < e.K {
			return nil, nil
		}
		slices.SortStableFunc(parts, func(x, y part) int { return x.w.Cmp(y.w) })
		all, sum := new(set.Set), new(big.Rat)
		for _, p := range parts[:e.K] {
			all.Union(all, p.q)
			sum.Add(sum, p.w)
		}
		return all, sum
	}
}

// MinSize returns the size of a smallest quorum of e, exactly when e is
// separable (otherwise an upper bound), with such a quorum.
func (e *Expr) MinSize() (int, *set.Set) {
	one := big.NewRat(1, 1)
	q, w := e.MinQuorum(func(int) (*big.Rat, bool) { return one, true })
	if q == nil {
		return 0, nil
	}
	return int(w.Num().Int64()), q
}

// AsThreshold reports whether e is choose(k, …) (or a plain sum or product)
// of n distinct leaves, and returns k and the leaves' nodes.
func (e *Expr) AsThreshold() (k int, nodes []int, ok bool) {
	if e.Op == Leaf {
		return 1, []int{e.Node}, true
	}
	seen := new(set.Set)
	for _, a := range e.Args {
		if a.Op != Leaf || seen.Has(a.Node) {
			return 0, nil, false
		}
		seen.Add(a.Node)
		nodes = append(nodes, a.Node)
	}
	switch e.Op {
	case Or:
		k = 1
	case And:
		k = len(e.Args)
	default:
		k = e.K
	}
	return k, nodes, true
}

// FromFamily returns the sum of products that lists f's quorums, each
// product in increasing node order, or choose(w, 1..n) for a threshold
// family. It returns nil for an empty family or one with an empty quorum.
func FromFamily(f *set.Family) *Expr {
	e, _ := FromFamilyContext(context.Background(), f)
	return e
}

// FromFamilyContext is [FromFamily] watching ctx: once ctx is done it
// returns nil and ctx's error.
func FromFamilyContext(ctx context.Context, f *set.Family) (*Expr, error) {
	if w, ok := quorum.ThresholdOf(quorum.Of(f)); ok {
		if w < 1 || w > f.N {
			return nil, nil
		}
		return Threshold(f.N, w), nil
	}
	var terms []*Expr
	for i := range f.Quorums {
		if i&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		var leaves []*Expr
		for v := range f.Quorums[i].All() {
			leaves = append(leaves, labelled(v, f.Labels))
		}
		if len(leaves) == 0 {
			return nil, nil
		}
		terms = append(terms, NewAnd(leaves...))
	}
	if len(terms) == 0 {
		return nil, nil
	}
	return NewOr(terms...), nil
}

// FamilyBytes is about what [FromFamily] takes for f: a node for each
// quorum and each of its members.
func FamilyBytes(f *set.Family) int64 {
	if _, ok := quorum.ThresholdOf(quorum.Of(f)); ok {
		return int64(f.N+1) * nodeBytes
	}
	nodes := int64(1 + len(f.Quorums))
	for i := range f.Quorums {
		nodes += int64(f.Quorums[i].Len())
	}
	return nodes * nodeBytes
}

func labelled(v int, labels []string) *Expr {
	l := Node(v)
	if v < len(labels) && labels[v] != "" {
		l.Name = labels[v]
	}
	return l
}

// Count returns the number of minimal quorums of a read-once expression
// ([Expr.ReadOnce]) without listing them: ors add, ands multiply, and
// choose(k) takes the k-th elementary symmetric sum of its arguments'
// counts. ok is false for an expression that is not read-once.
func (e *Expr) Count() (c *big.Int, ok bool) {
	if !e.ReadOnce() {
		return nil, false
	}
	return e.count(), true
}

func (e *Expr) count() *big.Int {
	switch e.Op {
	case Leaf:
		return big.NewInt(1)
	case Or:
		c := new(big.Int)
		for _, a := range e.Args {
			c.Add(c, a.count())
		}
		return c
	case And:
		c := big.NewInt(1)
		for _, a := range e.Args {
			c.Mul(c, a.count())
		}
		return c
	default:
		// es[j] is the j-th elementary symmetric sum of the counts so far.
		es := make([]*big.Int, e.K+1)
		for j := range es {
			es[j] = new(big.Int)
		}
		es[0].SetInt64(1)
		var t big.Int
		for _, a := range e.Args {
			c := a.count()
			for j := e.K; j >= 1; j-- {
				es[j].Add(es[j], t.Mul(es[j-1], c))
			}
		}
		return es[e.K]
	}
}
