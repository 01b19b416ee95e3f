package protocol

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// System is a quorum system prepared for running protocols: quorums as sorted
// member lists and, per node, the quorums it owns. Build it with
// [NewSystem].
type System struct {
	N, K int
	// HK is true for an (h,k)-arbiter, whose Levels each serve one h; a
	// coterie or k-arbiter has one level, with H = 0, serving every h.
	HK     bool
	Levels []Level
	Labels []string
	Kind   string
}

// Level is one family of quorums: the whole system for a coterie or
// k-arbiter, one Q_{h,k} of an (h,k)-arbiter.
type Level struct {
	H int // the h this level serves, or 0 for every h
	// Quorums lists the quorums, members sorted; nil for a threshold level.
	Quorums [][]int32
	// Threshold, when positive, makes the level "every Threshold-subset".
	Threshold int
	// owned[i] lists the indices of the quorums node i owns.
	owned [][]int32
}

// NewSystem prepares s for the protocols. It refuses a malformed system and
// a level without quorums.
func NewSystem(s set.System) (*System, error) {
	if err := s.Validate(); err != nil {
		return nil, errorf("%w", err)
	}
	sys := &System{N: s.N(), K: s.K(), HK: s.HK != nil, Labels: s.Labels(), Kind: s.Kind()}
	for _, f := range s.Families() {
		l := Level{H: f.H}
		if s.HK == nil {
			l.H = 0
		}
		// A level held by its rule (every w-subset) keeps the rule; a
		// listed one its quorums.
		if typed, err := construct.Typed(f); err == nil {
			if t, ok := typed.(quorum.Thresholder); ok {
				l.Threshold = t.Threshold()
			}
		}
		if l.Threshold == 0 {
			if len(f.Quorums) == 0 {
				return nil, errorf("%s has no quorums", levelName(l))
			}
			l.Quorums = make([][]int32, len(f.Quorums))
			l.owned = make([][]int32, sys.N)
			for i := range f.Quorums {
				for v := range f.Quorums[i].All() {
					l.Quorums[i] = append(l.Quorums[i], int32(v))
				}
				if o := f.Owner(i); o != set.NoOwner {
					l.owned[o] = append(l.owned[o], int32(i))
				}
			}
		}
		sys.Levels = append(sys.Levels, l)
	}
	return sys, nil
}

func levelName(l Level) string {
	if l.H == 0 {
		return "the system"
	}
	return fmt.Sprintf("level h = %d", l.H)
}

// Name returns node i as users number it: its label, or i+1.
func (s *System) Name(i int) string {
	if i >= 0 && i < len(s.Labels) && s.Labels[i] != "" {
		return s.Labels[i]
	}
	return fmt.Sprint(i + 1)
}

// MaxQuorum returns the size of the largest quorum.
func (s *System) MaxQuorum() int {
	m := 0
	for _, l := range s.Levels {
		if l.Threshold > 0 {
			m = max(m, l.Threshold)
		}
		for _, q := range l.Quorums {
			m = max(m, len(q))
		}
	}
	return m
}

// level returns the level serving h.
func (s *System) level(h int) *Level {
	if !s.HK {
		return &s.Levels[0]
	}
	for i := range s.Levels {
		if s.Levels[i].H == h {
			return &s.Levels[i]
		}
	}
	return nil
}

// choose draws the units and quorum of a request of node, following the rule
// in the package documentation. A threshold quorum is written into buf,
// which must have room for it.
func (s *System) choose(r *rand.Rand, node int, units bool, buf []int32) (int, []int32) {
	h := 1
	if units {
		if s.HK {
			h = s.Levels[r.IntN(len(s.Levels))].H
		} else {
			h = 1 + r.IntN(s.K)
		}
	}
	l := s.level(h)
	if l.Threshold > 0 {
		return h, sample(r, s.N, l.Threshold, buf[:0])
	}
	if own := l.owned[node]; len(own) == 1 {
		return h, l.Quorums[own[0]]
	} else if len(own) > 1 {
		return h, l.Quorums[own[r.IntN(len(own))]]
	}
	return h, l.Quorums[r.IntN(len(l.Quorums))]
}

// sample appends a uniformly random w-subset of 0..n-1 to buf in increasing
// order (Knuth's selection sampling, Algorithm S).
func sample(r *rand.Rand, n, w int, buf []int32) []int32 {
	need := w
	for i := 0; i < n && need > 0; i++ {
		if r.IntN(n-i) < need {
			buf = append(buf, int32(i))
			need--
		}
	}
	return buf
}

// option is one way a node may request: h units with quorum q.
type option struct {
	h int
	q []int32
}

// errTooManyOptions is returned by options when a threshold level has more
// subsets than the explorer may try.
var errTooManyOptions = errors.New("too many quorums to try")

// options lists every request node may make, in a fixed order: by h, then
// by quorum. A threshold level is expanded into its subsets, refused beyond
// limit.
func (s *System) options(node int, units bool, limit int) ([]option, error) {
	var hs []int
	switch {
	case !units:
		hs = []int{1}
	case s.HK:
		for _, l := range s.Levels {
			hs = append(hs, l.H)
		}
	default:
		for h := 1; h <= s.K; h++ {
			hs = append(hs, h)
		}
	}
	var out []option
	for _, h := range hs {
		l := s.level(h)
		if l.Threshold > 0 {
			c := set.Binomial(s.N, l.Threshold)
			if !c.IsInt64() || c.Int64() > int64(limit) {
				return nil, errorf("%s has %s quorums (all %d-subsets of %d nodes): %w",
					levelName(*l), c, l.Threshold, s.N, errTooManyOptions)
			}
			idx := make([]int32, l.Threshold)
			for i := range idx {
				idx[i] = int32(i)
			}
			for {
				out = append(out, option{h, append([]int32(nil), idx...)})
				i := len(idx) - 1
				for i >= 0 && int(idx[i]) == s.N-len(idx)+i {
					i--
				}
				if i < 0 {
					break
				}
				idx[i]++
				for j := i + 1; j < len(idx); j++ {
					idx[j] = idx[j-1] + 1
				}
			}
			continue
		}
		own := l.owned[node]
		if len(own) > 0 {
			for _, qi := range own {
				out = append(out, option{h, l.Quorums[qi]})
			}
			continue
		}
		for _, q := range l.Quorums {
			out = append(out, option{h, q})
		}
	}
	return out, nil
}

// has reports whether q (sorted) holds v.
func has(q []int32, v int32) bool {
	for _, x := range q {
		if x == v {
			return true
		}
		if x > v {
			return false
		}
	}
	return false
}

// index returns the position of v in q, or -1.
func index(q []int32, v int32) int {
	for i, x := range q {
		if x == v {
			return i
		}
	}
	return -1
}
