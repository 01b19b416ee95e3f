package availability

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/set"
)

// Methods of the exact availability under failure domains.
const (
	// MethodDomainTree is the generating function of the live weight,
	// folded up the domain tree (threshold and weighted-voting systems).
	MethodDomainTree Method = "domain-tree"
	// MethodLiftedBDD is the BDD of the lifted family: every quorum with
	// the domains above its nodes, each domain one more variable.
	MethodLiftedBDD Method = "lifted-bdd"
)

// Model is what fails and how often: node v is up with probability P[v]
// on its own, and each domain of Tree with its own probability; a node
// counts as up iff it and every domain above it are up, and all these
// events are independent. A nil or empty Tree is the independent model.
type Model struct {
	Tree *domain.Tree
	P    []*big.Rat
}

// UniformModel returns the model in which every node is up with
// probability p on its own, with tree t (nil for none).
func UniformModel(n int, p *big.Rat, t *domain.Tree) Model {
	ps := make([]*big.Rat, n)
	for i := range ps {
		ps[i] = p
	}
	return Model{Tree: t, P: ps}
}

func (m Model) check(n int) error {
	if len(m.P) != n {
		return fmt.Errorf("availability: domains: %d node probabilities for %d nodes", len(m.P), n)
	}
	if m.Tree != nil && m.Tree.N() != n {
		return fmt.Errorf("availability: domains: the domain tree has %d nodes, the system %d", m.Tree.N(), n)
	}
	for v, p := range m.P {
		if p == nil || p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
			return fmt.Errorf("availability: domains: node %d: probability not in [0, 1]", v+1)
		}
	}
	return nil
}

// correlated returns the domains that can fail (probability below 1).
func (m Model) correlated() []int {
	if m.Tree == nil {
		return nil
	}
	var out []int
	for d := range m.Tree.Len() {
		if m.Tree.P(d).Cmp(big.NewRat(1, 1)) < 0 {
			out = append(out, d)
		}
	}
	return out
}

// DomainAvailability returns exactly the probability that the nodes that
// are up contain a quorum of f under model m. A threshold family is
// counted by [VoteAvailability] with unit weights; a listed one by the
// BDD of its lifted family (see [LiftedAvailability]), within budget
// nodes (0 means DefaultBudget).
func DomainAvailability(ctx context.Context, f *set.Family, m Model, budget int) (*big.Rat, Method, error) {
	if err := m.check(f.N); err != nil {
		return nil, "", err
	}
	if t := construct.ThresholdForm(f); t != nil {
		av, err := VoteAvailability(ctx, ones(f.N), []int{t.Threshold()}, m)
		if err != nil {
			return nil, "", err
		}
		return av[0], MethodDomainTree, nil
	}
	av, err := LiftedAvailability(ctx, f, m, budget)
	return av, MethodLiftedBDD, err
}

// DomainBoth returns exactly the probabilities that a read quorum, a
// write quorum, and both at once are up under model m. With two
// thresholds the live count decides all three; otherwise
// P(R and W) = P(R) + P(W) − P(R or W), where "R or W" is the family of
// all the quorums of both sides.
func DomainBoth(ctx context.Context, r, w *set.Family, m Model, budget int) (pr, pw, both *big.Rat, err error) {
	if r.N != w.N {
		return nil, nil, nil, fmt.Errorf("availability: domains: reads over %d nodes, writes over %d", r.N, w.N)
	}
	if err := m.check(r.N); err != nil {
		return nil, nil, nil, err
	}
	tr, tw := construct.ThresholdForm(r), construct.ThresholdForm(w)
	if tr != nil && tw != nil {
		av, err := VoteAvailability(ctx, ones(r.N), []int{tr.Threshold(), tw.Threshold(), max(tr.Threshold(), tw.Threshold())}, m)
		if err != nil {
			return nil, nil, nil, err
		}
		return av[0], av[1], av[2], nil
	}
	if pr, _, err = DomainAvailability(ctx, r, m, budget); err != nil {
		return nil, nil, nil, err
	}
	if pw, _, err = DomainAvailability(ctx, w, m, budget); err != nil {
		return nil, nil, nil, err
	}
	u, err := unionFamily(ctx, r, w, tr != nil, tw != nil)
	if err != nil {
		return nil, nil, nil, err
	}
	either, err := LiftedAvailability(ctx, u, m, budget)
	if err != nil {
		return nil, nil, nil, err
	}
	both = new(big.Rat).Add(pr, pw)
	both.Sub(both, either)
	return pr, pw, both, nil
}

// maxUnionList bounds the quorums a threshold side may be listed into
// when it meets a listed side in [DomainBoth].
const maxUnionList = 1 << 20

// unionFamily is the family of the quorums of r and w; rThreshold and
// wThreshold say which of them are threshold families, listed here.
func unionFamily(ctx context.Context, r, w *set.Family, rThreshold, wThreshold bool) (*set.Family, error) {
	u := set.NewFamily(r.N)
	sides := []struct {
		f         *set.Family
		threshold bool
	}{{r, rThreshold}, {w, wThreshold}}
	for _, side := range sides {
		f := side.f
		if side.threshold {
			e, err := f.Enumerate(maxUnionList)
			if err != nil {
				return nil, fmt.Errorf("availability: domains: both sides: %w", err)
			}
			f = e
		} else {
			// An implicit side is listed by its construction.
			e, err := explicitFamily(ctx, f)
			if err != nil {
				return nil, err
			}
			f = e
		}
		for _, q := range f.All() {
			u.Add(q, 0)
		}
	}
	return u, nil
}

func ones(n int) []int {
	w := make([]int, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// dist is a distribution of live weight, capped: num[x]/den is the
// probability that the weight is x (or at least x for the last index).
type dist struct {
	num []*big.Int
	den *big.Int
}

func delta0() dist { return dist{num: []*big.Int{big.NewInt(1)}, den: big.NewInt(1)} }

// addNode folds in a node of weight w up with probability a/b.
func (d *dist) addNode(w int, a, b *big.Int, top int) {
	size := min(len(d.num)-1+w, top) + 1
	out := make([]*big.Int, size)
	for i := range out {
		out[i] = new(big.Int)
	}
	fail := new(big.Int).Sub(b, a)
	var t big.Int
	for x, c := range d.num {
		if c.Sign() == 0 {
			continue
		}
		out[x].Add(out[x], t.Mul(c, fail))
		y := min(x+w, top)
		out[y].Add(out[y], t.Mul(c, a))
	}
	d.num = out
	d.den = new(big.Int).Mul(d.den, b)
}

// conv folds in an independent part e.
func (d *dist) conv(e dist, top int) {
	size := min(len(d.num)+len(e.num)-2, top) + 1
	out := make([]*big.Int, size)
	for i := range out {
		out[i] = new(big.Int)
	}
	var t big.Int
	for x, c := range d.num {
		if c.Sign() == 0 {
			continue
		}
		for y, f := range e.num {
			if f.Sign() == 0 {
				continue
			}
			z := min(x+y, top)
			out[z].Add(out[z], t.Mul(c, f))
		}
	}
	d.num = out
	d.den = new(big.Int).Mul(d.den, e.den)
}

// gate makes d the weight seen through a domain up with probability a/b:
// all of it when the domain is up, none when it is down.
func (d *dist) gate(a, b *big.Int) {
	fail := new(big.Int).Sub(b, a)
	for _, c := range d.num {
		c.Mul(c, a)
	}
	d.num[0].Add(d.num[0], new(big.Int).Mul(fail, d.den))
	d.den = new(big.Int).Mul(d.den, b)
}

// VoteAvailability returns, for each threshold t of ts, exactly the
// probability that the live nodes' weights sum to at least t under model
// m: the generating function of the live weight, folded from the nodes
// up the domain tree (a domain's weight is its parts' when it is up and
// 0 when it is down), capped at the largest threshold. Weights must be
// non-negative and thresholds positive. The cost is about (number of
// domains) × (largest threshold)² multiplications of integers as long as
// the product of the probabilities' denominators.
func VoteAvailability(ctx context.Context, weights, ts []int, m Model) ([]*big.Rat, error) {
	n := len(weights)
	if err := m.check(n); err != nil {
		return nil, err
	}
	top := 0
	for _, t := range ts {
		if t < 1 {
			return nil, fmt.Errorf("availability: domains: threshold %d is not positive", t)
		}
		top = max(top, t)
	}
	for v, w := range weights {
		if w < 0 {
			return nil, fmt.Errorf("availability: domains: node %d has negative weight %d", v+1, w)
		}
	}
	var rec func(d int) (dist, error)
	tr := m.Tree
	rec = func(d int) (dist, error) {
		if err := ctx.Err(); err != nil {
			return dist{}, err
		}
		acc := delta0()
		for _, v := range tr.Direct(d) {
			acc.addNode(weights[v], m.P[v].Num(), m.P[v].Denom(), top)
		}
		for _, c := range tr.Children(d) {
			sub, err := rec(c)
			if err != nil {
				return dist{}, err
			}
			acc.conv(sub, top)
		}
		if p := tr.P(d); p.Cmp(big.NewRat(1, 1)) < 0 {
			acc.gate(p.Num(), p.Denom())
		}
		return acc, nil
	}
	acc := delta0()
	loose := make([]int, 0, n)
	if tr == nil {
		for v := range n {
			loose = append(loose, v)
		}
	} else {
		loose = tr.Loose()
		for _, d := range tr.Roots() {
			sub, err := rec(d)
			if err != nil {
				return nil, err
			}
			acc.conv(sub, top)
		}
	}
	for _, v := range loose {
		acc.addNode(weights[v], m.P[v].Num(), m.P[v].Denom(), top)
	}
	out := make([]*big.Rat, len(ts))
	for i, t := range ts {
		s := new(big.Int)
		for x := t; x < len(acc.num); x++ {
			s.Add(s, acc.num[x])
		}
		out[i] = new(big.Rat).SetFrac(s, acc.den)
	}
	return out, nil
}

// Lift returns the lifted family of f under t over the nodes and the
// domains in vars (a domain's variable is f.N + its index in vars): each
// quorum with the domains of vars above any of its nodes. It also
// returns a variable order that puts each domain just before the nodes
// and domains below it. An implicit family is listed by its construction
// first; one with more than construct.ListLimit quorums gives nil, nil
// ([NewLifted] says why).
func Lift(f *set.Family, t *domain.Tree, vars []int) (*set.Family, []int) {
	f, err := explicitFamily(context.Background(), f)
	if err != nil {
		return nil, nil
	}
	idx := map[int]int{}
	for i, d := range vars {
		idx[d] = f.N + i
	}
	nv := f.N + len(vars)
	lf := set.NewFamily(nv)
	lf.K = f.K
	for _, q := range f.All() {
		lq := set.New(nv)
		lq.Union(lq, q)
		for v := range q.All() {
			for _, d := range t.Above(v) {
				if x, ok := idx[d]; ok {
					lq.Add(x)
				}
			}
		}
		lf.Add(lq, 0)
	}
	// The order: a depth-first walk of the tree, each domain (if it is a
	// variable) before its nodes and children; loose nodes last.
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
	return lf, order
}

// LiftedAvailability returns exactly the probability that a quorum of the
// listed family f is up under model m: the family is lifted (each quorum
// Q becomes Q with the domains above its nodes, a domain being one more
// variable up with its own probability), so that "some lifted quorum is
// all up" is a monotone function of independent variables; its BDD is
// built under an order that puts each domain before what lies below it,
// and one bottom-up pass sums the probabilities exactly, every value kept
// as an integer over the product of the denominators below its level.
// Domains that are always up are left out. It stops with an error
// wrapping [ErrBudget] past budget BDD nodes (0 means DefaultBudget).
func LiftedAvailability(ctx context.Context, f *set.Family, m Model, budget int) (*big.Rat, error) {
	if err := m.check(f.N); err != nil {
		return nil, err
	}
	l, err := NewLifted(ctx, f, m.Tree, m.correlated(), budget)
	if err != nil {
		return nil, err
	}
	return l.At(ctx, m)
}

// Lifted is the BDD of a lifted family (see [LiftedAvailability]), built
// once and evaluated under many models that share its tree and its
// variable domains.
type Lifted struct {
	n    int
	tree *domain.Tree
	vars []int
	bdd  *BDD
}

// NewLifted builds the BDD of f lifted by the domains vars of t (nil for
// none), within budget nodes. An implicit family is listed by its
// construction first (a *construct.ListError, wrapping set.ErrTooMany,
// when it has more than construct.ListLimit quorums).
func NewLifted(ctx context.Context, f *set.Family, t *domain.Tree, vars []int, budget int) (*Lifted, error) {
	if construct.ThresholdForm(f) != nil {
		return nil, errors.New("availability: domains: lifted BDD of a threshold family: use VoteAvailability")
	}
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if t == nil {
		t = domain.New(f.N)
	}
	l := &Lifted{n: f.N, tree: t, vars: slices.Clone(vars)}
	if f.Len() == 0 {
		return l, nil
	}
	lf, order := Lift(f, t, vars)
	b, err := BuildBDD(ctx, lf, BDDOptions{Order: order, Budget: budget})
	if err != nil {
		return nil, err
	}
	l.bdd = b
	return l, nil
}

// At returns the availability under model m, whose tree must be the one
// the BDD was built with (its probabilities may differ, but a domain left
// out must still be always up).
func (l *Lifted) At(ctx context.Context, m Model) (*big.Rat, error) {
	if err := m.check(l.n); err != nil {
		return nil, err
	}
	if l.bdd == nil {
		return new(big.Rat), nil
	}
	probs := slices.Clone(m.P)
	in := map[int]bool{}
	for _, d := range l.vars {
		in[d] = true
		probs = append(probs, l.treeP(m, d))
	}
	for _, d := range m.correlated() {
		if !in[d] {
			return nil, fmt.Errorf("availability: domains: domain %s can fail but is not a variable of the lifted BDD", l.tree.Path(d))
		}
	}
	return l.bdd.exactProbability(ctx, probs)
}

func (l *Lifted) treeP(m Model, d int) *big.Rat {
	if m.Tree == nil {
		return big.NewRat(1, 1)
	}
	return m.Tree.P(d)
}

// exactProbability is [BDD.Probability] in exact arithmetic.
func (b *BDD) exactProbability(ctx context.Context, p []*big.Rat) (*big.Rat, error) {
	n := b.n
	// pre[k] is the product of the denominators of the variables at
	// levels below k; the value of a node at level l is kept as its
	// probability times the product over levels l..n−1.
	pre := make([]*big.Int, n+1)
	pre[0] = big.NewInt(1)
	for l := range n {
		pre[l+1] = new(big.Int).Mul(pre[l], p[b.order[l]].Denom())
	}
	span := map[[2]int32]*big.Int{}
	gap := func(x, y int32) *big.Int {
		if x == y {
			return nil
		}
		k := [2]int32{x, y}
		if g, ok := span[k]; ok {
			return g
		}
		g := new(big.Int).Quo(pre[y], pre[x])
		span[k] = g
		return g
	}
	val := make([]*big.Int, len(b.nodes))
	val[bddFalse] = new(big.Int)
	val[bddTrue] = big.NewInt(1)
	levelOf := func(i uint32) int32 {
		if i <= bddTrue {
			return int32(n)
		}
		return b.nodes[i].level
	}
	var t big.Int
	for i := 2; i < len(b.nodes); i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nd := b.nodes[i]
		x := p[b.order[nd.level]]
		a, den := x.Num(), x.Denom()
		v := new(big.Int)
		if hi := val[nd.hi]; hi.Sign() != 0 && a.Sign() != 0 {
			t.Mul(a, hi)
			if g := gap(nd.level+1, levelOf(nd.hi)); g != nil {
				t.Mul(&t, g)
			}
			v.Add(v, &t)
		}
		if lo := val[nd.lo]; lo.Sign() != 0 {
			fail := new(big.Int).Sub(den, a)
			t.Mul(fail, lo)
			if g := gap(nd.level+1, levelOf(nd.lo)); g != nil {
				t.Mul(&t, g)
			}
			v.Add(v, &t)
		}
		val[i] = v
	}
	// The levels above the root are free: their factors cancel.
	l := levelOf(b.root)
	return new(big.Rat).SetFrac(val[b.root], new(big.Int).Quo(pre[n], pre[l])), nil
}

// Exact holds an availability as an exact rational, with its
// unavailability, nines and downtime.
type Exact struct{ AV *big.Rat }

// Unavailability returns 1 − AV exactly.
func (e Exact) Unavailability() *big.Rat { return new(big.Rat).Sub(big.NewRat(1, 1), e.AV) }

// Nines returns −log10(1 − AV) (+Inf when AV = 1).
func (e Exact) Nines() float64 {
	return Nines(new(big.Float).SetPrec(ninesPrec).SetRat(e.Unavailability()))
}

// Downtime returns the expected seconds per year (of [YearSeconds]) with
// no quorum up.
func (e Exact) Downtime() float64 {
	return Downtime(new(big.Float).SetPrec(ninesPrec).SetRat(e.Unavailability()))
}

// Float returns AV as the float64 nearest to it.
func (e Exact) Float() float64 {
	f, _ := e.AV.Float64()
	return f
}
