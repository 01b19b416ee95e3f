package quorum

import (
	"context"
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// System is a quorum system over the nodes 0..N()-1.
type System interface {
	// N is the number of nodes.
	N() int
	// K is the k of a k-arbiter; 1 for a coterie.
	K() int
	// Labels returns the nodes' names, or nil when they have none.
	Labels() []string
	// HasQuorum reports whether live contains a quorum. It must be
	// monotone: a superset of a set that holds a quorum holds one.
	HasQuorum(live *set.Set) bool
	// Family returns the system as a family, listing at most limit
	// quorums: its own form when it has one (a list, a threshold, an
	// implicit construction), otherwise its minimal quorums in
	// lexicographic order of their sorted members. It wraps
	// [set.ErrTooMany] past the limit and returns ctx's error when ctx
	// ends first.
	Family(ctx context.Context, limit int) (*set.Family, error)
}

// Listed is a system held as a [set.Family]: a list of quorums, a
// threshold, or an implicit construction.
type Listed struct{ F *set.Family }

// N returns the number of nodes.
func (l Listed) N() int { return l.F.N }

// K returns the family's k.
func (l Listed) K() int { return l.F.K }

// Labels returns the family's labels.
func (l Listed) Labels() []string { return l.F.Labels }

// HasQuorum reports whether live contains a quorum of the family. For an
// implicit family it panics: its construction decides (package construct).
func (l Listed) HasQuorum(live *set.Set) bool {
	f := l.F
	if f.IsImplicit() {
		panic("quorum: Listed.HasQuorum on an implicit family")
	}
	if f.IsThreshold() {
		return live.Len() >= f.Threshold
	}
	for i := range f.Quorums {
		if set.Subset(&f.Quorums[i], live) {
			return true
		}
	}
	return false
}

// Family returns the family itself.
func (l Listed) Family(context.Context, int) (*set.Family, error) { return l.F, nil }

// Rule is a system defined by a monotone predicate over the live nodes, as
// a replicated system's configuration defines one (a majority of votes, a
// majority of weight in a majority of groups, ...).
type Rule struct {
	Nodes     int
	NodeNames []string // nil or one per node
	Kind      string   // what defined it, such as "zookeeper"; recorded in files
	Params    set.Params
	// Has reports whether live contains a quorum; it must be monotone.
	Has func(live *set.Set) bool
}

// N returns the number of nodes.
func (r *Rule) N() int { return r.Nodes }

// K returns 1: a rule defines a coterie.
func (r *Rule) K() int { return 1 }

// Labels returns the nodes' names.
func (r *Rule) Labels() []string { return r.NodeNames }

// HasQuorum reports whether live contains a quorum.
func (r *Rule) HasQuorum(live *set.Set) bool { return r.Has(live) }

// Family lists the rule's minimal quorums (see [Minimal]), with the rule's
// labels, kind and params.
func (r *Rule) Family(ctx context.Context, limit int) (*set.Family, error) {
	f, err := Minimal(ctx, r.Nodes, r.Has, limit)
	if err != nil {
		return nil, err
	}
	f.Labels, f.Kind, f.Params = r.NodeNames, r.Kind, r.Params
	return f, nil
}

// ErrNoQuorum is returned by [Minimal] when not even every node together
// holds a quorum.
var ErrNoQuorum = errors.New("quorum: no set of nodes holds a quorum")

// Minimal returns the minimal sets of the monotone predicate has over n
// nodes, in lexicographic order of their sorted members, as a family. It
// wraps [set.ErrTooMany] when there are more than limit of them, returns
// ctx's error when ctx ends first, and [ErrNoQuorum] when has(all nodes)
// is false.
//
// It searches include-first over the nodes in order, pruning a branch as
// soon as even every node still undecided would not complete a quorum, and
// stopping at the first set that holds one: each minimal set is reached
// once, and a set is kept only if no one of its members can be dropped.
func Minimal(ctx context.Context, n int, has func(*set.Set) bool, limit int) (*set.Family, error) {
	f := set.NewFamily(n)
	if !has(set.Full(n)) {
		return nil, ErrNoQuorum
	}
	cur := set.New(n)
	reach := set.Full(n) // cur ∪ the undecided nodes
	steps := 0
	var walk func(i int) error
	walk = func(i int) error {
		if steps++; steps&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if has(cur) {
			if minimal(cur, has) {
				if len(f.Quorums) >= limit {
					return fmt.Errorf("quorum: more than %d minimal quorums: %w", limit, set.ErrTooMany)
				}
				f.Add(cur, set.NoOwner)
			}
			return nil
		}
		if i == n || !has(reach) {
			return nil
		}
		cur.Add(i)
		if err := walk(i + 1); err != nil {
			return err
		}
		cur.Remove(i)
		reach.Remove(i)
		err := walk(i + 1)
		reach.Add(i)
		return err
	}
	if err := walk(0); err != nil {
		return nil, err
	}
	return f, nil
}

// minimal reports whether no member of s can be dropped with s still
// holding a quorum.
func minimal(s *set.Set, has func(*set.Set) bool) bool {
	for _, v := range s.Elements() {
		s.Remove(v)
		ok := has(s)
		s.Add(v)
		if ok {
			return false
		}
	}
	return true
}

// Of returns f as a system in its own form, without asking its
// construction: a [Listed], which for a threshold family (every w-subset
// of its nodes, held without them) is also a [Thresholder]. Package
// construct's Typed and Form add what a construction knows.
func Of(f *set.Family) System {
	if f.IsThreshold() {
		return thresholdListed{Listed{F: f}}
	}
	return Listed{F: f}
}

// thresholdListed is a threshold family as a system.
type thresholdListed struct{ Listed }

// Threshold returns w.
func (t thresholdListed) Threshold() int { return t.F.Threshold }

// ThresholdOf returns w when sys is the threshold system of every
// w-subset of its nodes, held without its quorums listed (a
// [Thresholder]); ok is false otherwise.
func ThresholdOf(sys System) (w int, ok bool) {
	t, ok := sys.(Thresholder)
	if !ok {
		return 0, false
	}
	return t.Threshold(), true
}
