package rw

import (
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// ErrNoQuorum is returned by [System.Without] when a side has no quorum
// that avoids the failed nodes.
var ErrNoQuorum = errors.New("no quorum survives")

// Without returns the system with the nodes of dead failed: each side
// keeps exactly its quorums that avoid dead, over the same n nodes, so
// that a strategy of the result never uses a dead node and the loads of
// the live nodes carry the whole work. The nodes keep their attributes.
// It returns an error wrapping [ErrNoQuorum] and naming the side when no
// read or no write quorum survives.
func (s *System) Without(dead *set.Set) (*System, error) {
	out := &System{N: s.N, Nodes: s.Nodes, WritesDerived: s.WritesDerived, ReadsDerived: s.ReadsDerived}
	for _, sd := range []struct {
		name     string
		from, to *Side
	}{{"read", &s.Reads, &out.Reads}, {"write", &s.Writes, &out.Writes}} {
		e := sd.from.Expr.Without(dead)
		if e == nil {
			return nil, fmt.Errorf("rw: no %s quorum avoids the failed nodes: %w", sd.name, ErrNoQuorum)
		}
		sd.to.Expr = e
		if l := sd.from.List; l != nil {
			// Not CloneMeta: the rest is no longer the construction its
			// kind names.
			f := set.NewFamily(l.N)
			f.K, f.Labels = l.K, l.Labels
			for _, q := range l.All() {
				if !set.Intersects(q, dead) {
					f.Add(q, set.NoOwner)
				}
			}
			sd.to.List = f
		}
	}
	return out, nil
}
