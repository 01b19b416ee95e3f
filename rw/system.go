package rw

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Node holds one node's attributes. Capacities are in operations per unit
// of time (Whittaker et al.: a node with capacity c serves c reads or
// writes per second); latency is in seconds.
type Node struct {
	Label         string
	ReadCapacity  *big.Rat // > 0
	WriteCapacity *big.Rat // > 0
	Latency       *big.Rat // ≥ 0
	P             *big.Rat // probability the node is up, or nil if not given
}

// DefaultNodes returns n nodes of capacity 1 and latency 1 s (quoracle's
// defaults), unlabelled.
// The nodes share one value of 1 (the package never modifies attributes);
// replace a field's pointer, not its value, to change one node.
func DefaultNodes(n int) []Node {
	one := big.NewRat(1, 1)
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{ReadCapacity: one, WriteCapacity: one, Latency: one}
	}
	return nodes
}

// Side is one side of a read-write system: the read or the write quorums.
type Side struct {
	// Expr is the side as a bound expression over nodes 0..N-1.
	Expr *expr.Expr
	// List holds the minimal quorums explicitly when the side was given
	// as a list or derived from one; nil otherwise (list them with
	// [Side.Family]).
	List *set.Family
}

// Family returns the side's minimal quorums as an explicit family over n
// nodes, refusing (with [set.ErrTooMany]) beyond limit quorums.
func (sd *Side) Family(n, limit int) (*set.Family, error) {
	return sd.FamilyContext(context.Background(), n, limit)
}

// FamilyContext is [Side.Family] under ctx: listing the quorums of a
// formula stops with ctx's error as soon as ctx is done.
func (sd *Side) FamilyContext(ctx context.Context, n, limit int) (*set.Family, error) {
	if sd.List != nil {
		if limit > 0 && len(sd.List.Quorums) > limit {
			return nil, fmt.Errorf("rw: more than %d quorums: %w", limit, set.ErrTooMany)
		}
		return sd.List, nil
	}
	f, ok, err := sd.Expr.FamilyContext(ctx, n, limit)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("rw: more than %d quorums: %w", limit, set.ErrTooMany)
	}
	return f, nil
}

// IsQuorum reports whether s contains a quorum of the side.
func (sd *Side) IsQuorum(s *set.Set) bool { return sd.Expr.IsQuorum(s) }

// System is a read-write quorum system (R, W) over nodes 0..N-1: every read
// quorum should meet every write quorum ([System.Verify] checks it). A
// coterie is the case R = W.
type System struct {
	N      int
	Nodes  []Node
	Reads  Side
	Writes Side
	// WritesDerived is true when the writes were derived as the dual of
	// the reads (or ReadsDerived the reads from the writes).
	WritesDerived, ReadsDerived bool
}

// DefaultListLimit is how many quorums the package lists, by default,
// before it refuses or falls back to a symbolic form.
const DefaultListLimit = 200000

// New returns the system with read quorums reads and write quorums writes
// over n nodes (bound expressions). One side may be nil: it is then the
// dual of the other — the minimal transversals, which is the best choice
// (every other valid side is dominated by it). nodes may be nil for
// default attributes.
func New(n int, reads, writes *expr.Expr, nodes []Node) (*System, error) {
	return NewContext(context.Background(), n, reads, writes, nodes)
}

// NewContext is [New] under ctx: listing the dual of a side that uses
// some node twice stops with ctx's error as soon as ctx is done.
func NewContext(ctx context.Context, n int, reads, writes *expr.Expr, nodes []Node) (*System, error) {
	if reads == nil && writes == nil {
		return nil, errors.New("rw: neither read nor write quorums given")
	}
	s := &System{N: n, Nodes: nodes}
	if s.Nodes == nil {
		s.Nodes = DefaultNodes(n)
	}
	if len(s.Nodes) != n {
		return nil, fmt.Errorf("rw: %d node attributes for %d nodes", len(s.Nodes), n)
	}
	for v, nd := range s.Nodes {
		if nd.ReadCapacity == nil || nd.ReadCapacity.Sign() <= 0 || nd.WriteCapacity == nil || nd.WriteCapacity.Sign() <= 0 {
			return nil, fmt.Errorf("rw: node %d: capacities must be positive", v+1)
		}
		if nd.Latency == nil || nd.Latency.Sign() < 0 {
			return nil, fmt.Errorf("rw: node %d: latency must be non-negative", v+1)
		}
	}
	for _, e := range []*expr.Expr{reads, writes} {
		if e != nil && e.MaxNode() >= n {
			return nil, fmt.Errorf("rw: node %d in %s is not in 1..%d", e.MaxNode()+1, e, n)
		}
	}
	switch {
	case writes == nil:
		s.Reads.Expr, s.Writes.Expr, s.WritesDerived = reads, reads.Dual(), true
		if err := listDual(ctx, n, &s.Reads, &s.Writes); err != nil {
			return nil, err
		}
	case reads == nil:
		s.Reads.Expr, s.Writes.Expr, s.ReadsDerived = writes.Dual(), writes, true
		if err := listDual(ctx, n, &s.Writes, &s.Reads); err != nil {
			return nil, err
		}
	default:
		s.Reads.Expr, s.Writes.Expr = reads, writes
	}
	return s, nil
}

// listDual lists the dual of a given side that uses some node twice (such
// as a list of quorums written as a sum of products) by MMCS, up to
// DefaultListLimit quorums on each side: listing it from the symbolic dual
// would multiply out every product. A read-once side keeps its symbolic
// dual, which is read-once too. The only error is ctx's.
func listDual(ctx context.Context, n int, given, dual *Side) error {
	if given.Expr.ReadOnce() {
		return nil
	}
	if w, k, ok := voteOf(n, given.Expr); ok {
		// A weighted vote (a node repeated for its weight) with more
		// minimal quorums than the limit keeps its symbolic dual, as
		// the listing below would, without trying to list them.
		if c, ok := availability.MinimalVoteCount(w, k); ok && c.Cmp(big.NewInt(DefaultListLimit)) > 0 {
			return nil
		}
	}
	f, ok, err := given.Expr.FamilyContext(ctx, n, DefaultListLimit)
	if err != nil || !ok {
		return err
	}
	t, err := transversals(ctx, f, DefaultListLimit)
	if err != nil {
		return ctx.Err()
	}
	if e := expr.FromFamily(t); e != nil {
		given.List, dual.List, dual.Expr = f, t, e
	}
	return nil
}

// FromFamilies returns the system with read quorums r and write quorums w
// (explicit or threshold families over the same nodes). w may be nil: the
// writes are then the minimal transversals of r, listed by MMCS
// (domination.Transversals) up to DefaultListLimit, and kept symbolic
// beyond. A coterie is FromFamilies(f, f, nil).
func FromFamilies(ctx context.Context, r, w *set.Family, nodes []Node) (*System, error) {
	re := expr.FromFamily(r)
	if re == nil {
		return nil, errors.New("rw: the read quorums are empty")
	}
	var we *expr.Expr
	if w != nil {
		if we = expr.FromFamily(w); we == nil {
			return nil, errors.New("rw: the write quorums are empty")
		}
		if w.N != r.N {
			return nil, fmt.Errorf("rw: reads over %d nodes, writes over %d", r.N, w.N)
		}
	}
	s, err := NewContext(ctx, r.N, re, we, nodes)
	if err != nil {
		return nil, err
	}
	// A side given by its rule (every w-subset of the nodes) stays a
	// formula; a listed side keeps its minimal quorums.
	rListed := !isThreshold(r)
	if rListed {
		if s.Reads.List, err = minimalCopy(ctx, r); err != nil {
			return nil, err
		}
	}
	switch {
	case w != nil && !isThreshold(w):
		if s.Writes.List, err = minimalCopy(ctx, w); err != nil {
			return nil, err
		}
	case w == nil && rListed:
		t, err := transversals(ctx, r, DefaultListLimit)
		if err != nil && !errors.Is(err, set.ErrTooMany) {
			return nil, err
		}
		if t != nil {
			s.Writes.List = t
			s.Writes.Expr = expr.FromFamily(t)
		}
	}
	return s, nil
}

// isThreshold reports whether f's typed form ([construct.Typed]) is a
// [quorum.Thresholder]: every w-subset of its nodes, held without its
// quorums listed.
func isThreshold(f *set.Family) bool {
	sys, err := construct.Typed(f)
	if err != nil {
		return false
	}
	_, ok := sys.(quorum.Thresholder)
	return ok
}

// minimalCopy returns a copy of f without its redundant quorums, or ctx's
// error.
func minimalCopy(ctx context.Context, f *set.Family) (*set.Family, error) {
	g := set.NewFamily(f.N)
	g.Labels = f.Labels
	for i := range f.Quorums {
		if i&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		g.Add(&f.Quorums[i], set.NoOwner)
	}
	if _, err := g.MinimalizeContext(ctx); err != nil {
		return nil, err
	}
	return g, nil
}

// transversals lists the minimal transversals of f, or refuses beyond
// limit.
func transversals(ctx context.Context, f *set.Family, limit int) (*set.Family, error) {
	t := set.NewFamily(f.N)
	t.Labels = f.Labels
	tooMany := false
	err := domination.Transversals(ctx, f, func(s *set.Set) bool {
		if len(t.Quorums) == limit {
			tooMany = true
			return false
		}
		t.Add(s, set.NoOwner)
		return true
	})
	if err != nil {
		return nil, err
	}
	if tooMany {
		return nil, fmt.Errorf("rw: more than %d minimal transversals: %w", limit, set.ErrTooMany)
	}
	return t, nil
}

// Label returns node v's label, or its 1-based id.
func (s *System) Label(v int) string {
	if v < len(s.Nodes) && s.Nodes[v].Label != "" {
		return s.Nodes[v].Label
	}
	return fmt.Sprint(v + 1)
}

// Labels returns every node's [System.Label], or nil when no node has a
// label of its own.
func (s *System) Labels() []string {
	for v := range s.N {
		if s.Nodes[v].Label != "" {
			labels := make([]string, s.N)
			for u := range labels {
				labels[u] = s.Label(u)
			}
			return labels
		}
	}
	return nil
}

// SideQuorums returns the minimal quorums of sd, a side of s, as a
// coterie file would hold them: a family over s's nodes with k = 1 and
// s's [System.Labels]. It is a copy (the side's own list is not
// changed); beyond limit quorums (0: no limit) it returns an error
// wrapping [set.ErrTooMany].
func (s *System) SideQuorums(sd *Side, limit int) (*set.Family, error) {
	f, err := sd.Family(s.N, limit)
	if err != nil {
		return nil, err
	}
	g := f.Clone()
	g.K, g.H = 1, 0
	g.Labels = s.Labels()
	return g, nil
}

// Intersection is the result of [System.Verify]'s read-write check (or of
// the write-write check): OK, or a read quorum and a write quorum (two
// write quorums) that do not meet.
type Intersection struct {
	OK          bool
	Read, Write *set.Set // the witness pair when not OK
}

// ErrTooLarge is wrapped when a check would have to list more quorums than
// allowed on both sides.
var ErrTooLarge = errors.New("too many quorums on both sides")

// ReadWrite checks that every read quorum meets every write quorum. A write
// quorum w misses some read quorum exactly when the nodes outside w hold a
// read quorum, so it lists the side with fewer quorums (at most limit;
// thresholds are decided by r + w > n) and tests the other side's formula
// on each complement; the witness read quorum is shrunk to a minimal one.
func (s *System) ReadWrite(ctx context.Context, limit int) (Intersection, error) {
	return s.meet(ctx, &s.Reads, &s.Writes, limit)
}

// WriteWrite checks that every two write quorums meet (not required of a
// read-write system, but what a coterie has).
func (s *System) WriteWrite(ctx context.Context, limit int) (Intersection, error) {
	return s.meet(ctx, &s.Writes, &s.Writes, limit)
}

func (s *System) meet(ctx context.Context, a, b *Side, limit int) (Intersection, error) {
	if ka, na, ok := a.Expr.AsThreshold(); ok && len(na) == s.N {
		if kb, nb, ok := b.Expr.AsThreshold(); ok && len(nb) == s.N {
			if ka+kb > s.N {
				return Intersection{OK: true}, nil
			}
			r, w := set.New(s.N), set.New(s.N)
			for i := range ka {
				r.Add(na[i])
			}
			for i := range kb {
				w.Add(nb[len(nb)-1-i])
			}
			return Intersection{Read: r, Write: w}, nil
		}
	}
	// List b and test a on the complements; if b is too long, the other
	// way round.
	for _, swap := range []bool{false, true} {
		if swap && a == b {
			break // listing the same side again cannot help
		}
		list, test := b, a
		if swap {
			list, test = a, b
		}
		fam, err := list.FamilyContext(ctx, s.N, limit)
		if errors.Is(err, set.ErrTooMany) {
			continue
		}
		if err != nil {
			return Intersection{}, err
		}
		comp := new(set.Set)
		for i := range fam.Quorums {
			if i%1024 == 1023 {
				if err := ctx.Err(); err != nil {
					return Intersection{}, err
				}
			}
			q := &fam.Quorums[i]
			comp.Complement(q, s.N)
			if !test.IsQuorum(comp) {
				continue
			}
			other := shrink(test.Expr, comp)
			if swap {
				return Intersection{Read: q.Clone(), Write: other}, nil
			}
			return Intersection{Read: other, Write: q.Clone()}, nil
		}
		return Intersection{OK: true}, nil
	}
	return Intersection{}, fmt.Errorf("rw: intersection: %w (limit %d)", ErrTooLarge, limit)
}

// shrink returns a minimal quorum of e inside the quorum-holding set s.
func shrink(e *expr.Expr, s *set.Set) *set.Set {
	q := s.Clone()
	for _, v := range s.Elements() {
		q.Remove(v)
		if !e.IsQuorum(q) {
			q.Add(v)
		}
	}
	return q
}

// Resilience is the resilience of one side: the largest F such that any F
// failures leave a quorum; Witness is a smallest set of nodes (F+1 of
// them) whose failure leaves none.
type Resilience struct {
	F       int
	Witness *set.Set
}

// ReadResilience returns the read resilience: one less than the smallest
// transversal of the read quorums.
func (s *System) ReadResilience(ctx context.Context) (Resilience, error) {
	return s.resilience(ctx, &s.Reads, &s.Writes, s.WritesDerived)
}

// WriteResilience returns the write resilience.
func (s *System) WriteResilience(ctx context.Context) (Resilience, error) {
	return s.resilience(ctx, &s.Writes, &s.Reads, s.ReadsDerived)
}

// resilience finds a smallest transversal of side: a smallest quorum of
// its dual when that is exact (the dual is separable, or other is the
// derived dual, listed), otherwise the smallest transversal of the listed
// quorums (domination.MinTransversal, exponential in the worst case).
func (s *System) resilience(ctx context.Context, side, other *Side, otherIsDual bool) (Resilience, error) {
	if otherIsDual && other.List != nil {
		best := -1
		for i := range other.List.Quorums {
			if best < 0 || other.List.Quorums[i].Len() < other.List.Quorums[best].Len() {
				best = i
			}
		}
		if best >= 0 {
			w := other.List.Quorums[best].Clone()
			return Resilience{F: w.Len() - 1, Witness: w}, nil
		}
	}
	if d := side.Expr.Dual(); d.Separable() {
		size, w := d.MinSize()
		return Resilience{F: size - 1, Witness: w}, nil
	}
	f, err := side.FamilyContext(ctx, s.N, DefaultListLimit)
	if err != nil {
		return Resilience{}, err
	}
	t, err := domination.MinTransversal(ctx, f)
	if err != nil {
		return Resilience{}, err
	}
	return Resilience{F: t.Len() - 1, Witness: t}, nil
}

// OwnLabels returns the labels the nodes were given, "" for a node
// without one.
func OwnLabels(nodes []Node) []string {
	labels := make([]string, len(nodes))
	for v := range nodes {
		labels[v] = nodes[v].Label
	}
	return labels
}
