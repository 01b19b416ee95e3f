package set

import (
	"errors"
	"fmt"
	"slices"
)

// HK is an (h,k)-arbiter (Manabe and Tajima): for each h in 1..K a family of
// quorums that a process uses when it asks for h of the K units. Levels are
// sorted by H and need not cover every h (a single level is a valid file).
// Each level is a [Family] with the same N and K and its own H, so that any
// function on families works on a level.
type HK struct {
	N      int
	K      int
	Kind   string
	Params Params
	Labels []string
	Levels []*Family
}

// Level returns the level for h, or nil if there is none.
func (a *HK) Level(h int) *Family {
	for _, l := range a.Levels {
		if l.H == h {
			return l
		}
	}
	return nil
}

// AddLevel appends l as level h, setting its N, K, H, Kind, Params and
// Labels from a, and keeps Levels sorted by H. It replaces an existing level
// h.
func (a *HK) AddLevel(h int, l *Family) {
	l.N, l.K, l.H = a.N, a.K, h
	l.Kind, l.Params, l.Labels = a.Kind, a.Params, a.Labels
	for i, old := range a.Levels {
		if old.H == h {
			a.Levels[i] = l
			return
		}
	}
	a.Levels = append(a.Levels, l)
	slices.SortFunc(a.Levels, func(x, y *Family) int { return x.H - y.H })
}

// Validate checks that a is well formed: sane N and K, levels with distinct
// h in 1..K, each a valid family.
func (a *HK) Validate() error {
	if a.N < 1 || a.N > MaxNodes {
		return fmt.Errorf("set: n = %d is out of range 1..%d", a.N, MaxNodes)
	}
	if a.K < 1 {
		return fmt.Errorf("set: k = %d must be at least 1", a.K)
	}
	if len(a.Levels) == 0 {
		return errors.New("set: an (h,k)-arbiter needs at least one level")
	}
	for i, l := range a.Levels {
		if l.H < 1 || l.H > a.K {
			return fmt.Errorf("set: level h = %d is out of range 1..%d", l.H, a.K)
		}
		if i > 0 && a.Levels[i-1].H >= l.H {
			return fmt.Errorf("set: level h = %d repeated or out of order", l.H)
		}
		if l.N != a.N || l.K != a.K {
			return fmt.Errorf("set: level h = %d has n = %d, k = %d; the arbiter has n = %d, k = %d",
				l.H, l.N, l.K, a.N, a.K)
		}
		if err := l.Validate(); err != nil {
			return fmt.Errorf("level h = %d: %w", l.H, err)
		}
	}
	return nil
}

// Clone returns a deep copy of a.
func (a *HK) Clone() *HK {
	b := &HK{N: a.N, K: a.K, Kind: a.Kind, Labels: slices.Clone(a.Labels)}
	if a.Params != nil {
		b.Params = make(Params, len(a.Params))
		for k, v := range a.Params {
			b.Params[k] = v
		}
	}
	for _, l := range a.Levels {
		c := l.Clone()
		c.Params, c.Labels = b.Params, b.Labels
		b.Levels = append(b.Levels, c)
	}
	return b
}

// System is what a quorum file holds: exactly one of Family (a coterie or
// k-arbiter) and HK (an (h,k)-arbiter) is non-nil.
type System struct {
	Family *Family
	HK     *HK
}

// N returns the number of nodes.
func (s System) N() int {
	if s.HK != nil {
		return s.HK.N
	}
	return s.Family.N
}

// K returns the k of the system (1 for a coterie).
func (s System) K() int {
	if s.HK != nil {
		return s.HK.K
	}
	return s.Family.K
}

// Kind returns the name of the construction, or "".
func (s System) Kind() string {
	if s.HK != nil {
		return s.HK.Kind
	}
	return s.Family.Kind
}

// Labels returns the node labels, or nil.
func (s System) Labels() []string {
	if s.HK != nil {
		return s.HK.Labels
	}
	return s.Family.Labels
}

// Families returns the system's families: the one family, or the levels.
func (s System) Families() []*Family {
	if s.HK != nil {
		return s.HK.Levels
	}
	return []*Family{s.Family}
}

// Validate checks that exactly one form is set and that it is well formed.
func (s System) Validate() error {
	switch {
	case (s.Family == nil) == (s.HK == nil):
		return errors.New("set: a system is either a family or an (h,k)-arbiter")
	case s.HK != nil:
		return s.HK.Validate()
	default:
		return s.Family.Validate()
	}
}
