package expr

import "github.com/coterie-dev/coterie/set"

// Without returns e with the nodes of dead failed: every leaf of a dead
// node false, and the operators above it simplified (an and with a false
// argument is false, an or drops it, choose(k, …) keeps its live
// arguments and is false with fewer than k of them). It returns nil when
// the result is false: no quorum avoids the dead nodes. The quorums of
// the result are exactly those of e that avoid dead. e must be bound.
func (e *Expr) Without(dead *set.Set) *Expr {
	switch e.Op {
	case Leaf:
		if dead.Has(e.Node) {
			return nil
		}
		return e
	case And:
		args := make([]*Expr, 0, len(e.Args))
		for _, a := range e.Args {
			b := a.Without(dead)
			if b == nil {
				return nil
			}
			args = append(args, b)
		}
		return NewAnd(args...)
	}
	var args []*Expr
	for _, a := range e.Args {
		if b := a.Without(dead); b != nil {
			args = append(args, b)
		}
	}
	k := 1
	if e.Op == Choose {
		k = e.K
	}
	switch {
	case len(args) < k:
		return nil
	case k == 1:
		return NewOr(args...)
	case k == len(args):
		return NewAnd(args...)
	}
	c, _ := NewChoose(k, args...)
	return c
}
