package set

import (
	"iter"
	"math/bits"
	"strconv"
	"strings"

	"github.com/bits-and-blooms/bitset"
)

// Set is a set of nodes, numbered from 0. The zero value is an empty set
// ready to use. Methods follow math/big: the receiver holds the result
// (s.Intersect(a, b) sets s = a ∩ b) and predicates allocate nothing.
//
// A Set must not be copied by value once it holds elements: the copy would
// share storage with the original. Use [Set.Clone] or [Set.Copy].
type Set struct {
	b bitset.BitSet
}

// Of returns a new set holding the given nodes. It panics if a node is
// negative.
func Of(nodes ...int) *Set {
	s := new(Set)
	for _, v := range nodes {
		s.Add(v)
	}
	return s
}

// New returns an empty set with room for nodes 0..n-1 preallocated, so that
// adding them does not reallocate.
func New(n int) *Set {
	s := new(Set)
	s.Grow(n)
	return s
}

// Full returns the set {0, ..., n-1}.
func Full(n int) *Set {
	s := New(n)
	if n > 0 {
		s.b.FlipRange(0, uint(n))
	}
	return s
}

// Grow makes room for nodes 0..n-1 without changing the elements.
func (s *Set) Grow(n int) {
	if n > 0 && s.b.Len() < uint(n) {
		// Set then clear the top bit: BitSet grows its storage once.
		had := s.b.Test(uint(n - 1))
		s.b.Set(uint(n - 1))
		if !had {
			s.b.Clear(uint(n - 1))
		}
	}
}

func check(i int) uint {
	if i < 0 {
		panic("set: negative node " + strconv.Itoa(i))
	}
	return uint(i)
}

// Add puts node i into s. It panics if i is negative.
func (s *Set) Add(i int) { s.b.Set(check(i)) }

// Remove takes node i out of s. It panics if i is negative.
func (s *Set) Remove(i int) { s.b.Clear(check(i)) }

// Has reports whether node i is in s. It panics if i is negative.
func (s *Set) Has(i int) bool { return s.b.Test(check(i)) }

// Len returns the number of nodes in s.
func (s *Set) Len() int { return int(s.b.Count()) }

// IsEmpty reports whether s has no nodes.
func (s *Set) IsEmpty() bool { return s.b.None() }

// Clear removes every node from s, keeping its storage.
func (s *Set) Clear() { s.b.ClearAll() }

// Clone returns a new set with the same nodes as s.
func (s *Set) Clone() *Set {
	c := new(Set)
	c.Copy(s)
	return c
}

// Copy sets s to a and returns s.
func (s *Set) Copy(a *Set) *Set {
	if s == a {
		return s
	}
	aw := a.b.Words()
	sw := s.words(len(aw))
	copy(sw, aw)
	clear(sw[len(aw):])
	return s
}

// words returns s's storage, grown to at least n words. The bitset's
// length grows with it even when its words were already there (a set
// whose largest node was 130 has 3 words and a length of 131): a bit
// written past the length would be in Words but not seen by Has.
func (s *Set) words(n int) []uint64 {
	if s.b.Len() >= uint(n*64) {
		return s.b.Words()
	}
	s.Grow(n * 64)
	return s.b.Words()
}

// Intersect sets s = a ∩ b and returns s. Any of s, a, b may be the same set.
func (s *Set) Intersect(a, b *Set) *Set {
	aw, bw := a.b.Words(), b.b.Words()
	m := min(len(aw), len(bw))
	sw := s.words(m)
	// Re-read: growing s may not move a or b, but a or b may be s.
	aw, bw = a.b.Words(), b.b.Words()
	for i := range m {
		sw[i] = aw[i] & bw[i]
	}
	clear(sw[m:])
	return s
}

// Union sets s = a ∪ b and returns s. Any of s, a, b may be the same set.
func (s *Set) Union(a, b *Set) *Set {
	aw, bw := a.b.Words(), b.b.Words()
	if len(aw) < len(bw) {
		aw, bw = bw, aw
	}
	sw := s.words(len(aw))
	aw, bw = a.b.Words(), b.b.Words()
	if len(aw) < len(bw) {
		aw, bw = bw, aw
	}
	for i := range bw {
		sw[i] = aw[i] | bw[i]
	}
	copy(sw[len(bw):], aw[len(bw):])
	clear(sw[len(aw):])
	return s
}

// Difference sets s = a \ b and returns s. Any of s, a, b may be the same set.
func (s *Set) Difference(a, b *Set) *Set {
	aw := a.b.Words()
	sw := s.words(len(aw))
	aw, bw := a.b.Words(), b.b.Words()
	for i := range aw {
		if i < len(bw) {
			sw[i] = aw[i] &^ bw[i]
		} else {
			sw[i] = aw[i]
		}
	}
	clear(sw[len(aw):])
	return s
}

// Complement sets s = {0..n-1} \ a and returns s; s may be a.
func (s *Set) Complement(a *Set, n int) *Set {
	nw := (n + 63) / 64
	sw := s.words(nw)
	aw := a.b.Words()
	for i := range nw {
		var v uint64
		if i < len(aw) {
			v = aw[i]
		}
		sw[i] = ^v
	}
	if r := n % 64; r != 0 {
		sw[nw-1] &= 1<<r - 1
	}
	clear(sw[nw:])
	return s
}

// Intersects reports whether a and b share a node. It allocates nothing.
func Intersects(a, b *Set) bool {
	aw, bw := a.b.Words(), b.b.Words()
	m := min(len(aw), len(bw))
	for i := range m {
		if aw[i]&bw[i] != 0 {
			return true
		}
	}
	return false
}

// IntersectionLen returns |a ∩ b| without allocating.
func IntersectionLen(a, b *Set) int {
	aw, bw := a.b.Words(), b.b.Words()
	m := min(len(aw), len(bw))
	c := 0
	for i := range m {
		c += bits.OnesCount64(aw[i] & bw[i])
	}
	return c
}

// Subset reports whether a ⊆ b. It allocates nothing.
func Subset(a, b *Set) bool {
	aw, bw := a.b.Words(), b.b.Words()
	for i, w := range aw {
		var v uint64
		if i < len(bw) {
			v = bw[i]
		}
		if w&^v != 0 {
			return false
		}
	}
	return true
}

// Equal reports whether a and b hold the same nodes.
func Equal(a, b *Set) bool {
	aw, bw := a.b.Words(), b.b.Words()
	if len(aw) < len(bw) {
		aw, bw = bw, aw
	}
	for i, w := range aw {
		var v uint64
		if i < len(bw) {
			v = bw[i]
		}
		if w != v {
			return false
		}
	}
	return true
}

// Compare orders sets lexicographically by their sorted node lists, a proper
// prefix first: {0,1} < {0,1,5} < {0,2} < {1}. It returns -1, 0 or +1.
func Compare(a, b *Set) int {
	aw, bw := a.b.Words(), b.b.Words()
	n := max(len(aw), len(bw))
	for i := range n {
		var x, y uint64
		if i < len(aw) {
			x = aw[i]
		}
		if i < len(bw) {
			y = bw[i]
		}
		if x == y {
			continue
		}
		// e is the smallest node in exactly one of the two sets. The set
		// holding it comes first unless the other set has nothing beyond e,
		// in which case the other one is a proper prefix and comes first.
		e := bits.TrailingZeros64(x ^ y)
		above := ^uint64(0) << e << 1 // bits strictly above e
		if e == 63 {
			above = 0
		}
		aHas := x&(1<<e) != 0
		otherWords, otherWord := bw, y
		if !aHas {
			otherWords, otherWord = aw, x
		}
		beyond := otherWord&above != 0
		for j := i + 1; !beyond && j < len(otherWords); j++ {
			beyond = otherWords[j] != 0
		}
		if aHas == beyond {
			return -1
		}
		return 1
	}
	return 0
}

// Min returns the smallest node of s, and false if s is empty.
func (s *Set) Min() (int, bool) {
	i, ok := s.b.NextSet(0)
	return int(i), ok
}

// Max returns the largest node of s, and false if s is empty.
func (s *Set) Max() (int, bool) {
	w := s.b.Words()
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] != 0 {
			return i*64 + 63 - bits.LeadingZeros64(w[i]), true
		}
	}
	return 0, false
}

// Next returns the smallest node of s that is ≥ i, and false if there is none.
func (s *Set) Next(i int) (int, bool) {
	j, ok := s.b.NextSet(check(i))
	return int(j), ok
}

// All yields the nodes of s in increasing order. s must not change during
// the iteration.
func (s *Set) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i, w := range s.b.Words() {
			for w != 0 {
				t := bits.TrailingZeros64(w)
				if !yield(i*64 + t) {
					return
				}
				w &= w - 1
			}
		}
	}
}

// AppendTo appends the nodes of s in increasing order to buf and returns the
// extended slice.
func (s *Set) AppendTo(buf []int) []int {
	for i, w := range s.b.Words() {
		for w != 0 {
			buf = append(buf, i*64+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return buf
}

// Elements returns the nodes of s in increasing order.
func (s *Set) Elements() []int { return s.AppendTo(make([]int, 0, s.Len())) }

// String formats s as "{0 3 5}" with the 0-based nodes of this package.
func (s *Set) String() string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	for v := range s.All() {
		if !first {
			sb.WriteByte(' ')
		}
		first = false
		sb.WriteString(strconv.Itoa(v))
	}
	sb.WriteByte('}')
	return sb.String()
}

// Hash returns a hash of the nodes of s, equal for equal sets whatever their
// storage size.
func (s *Set) Hash() uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	w := s.b.Words()
	n := len(w)
	for n > 0 && w[n-1] == 0 {
		n--
	}
	for _, x := range w[:n] {
		h ^= x
		h *= prime
		h ^= h >> 29
	}
	return h
}
