package set

import (
	"fmt"
	"iter"
	"math/bits"
)

// Words is a set of small non-negative integers laid out as plain 64-bit
// words, i in word i/64 at bit i%64: the rows of a [Packed] and the scratch
// vectors of the searches that run over one. Unlike a [Set] it never grows:
// its length is fixed when it is made, and an index beyond it panics. Its
// methods allocate nothing (but [Words.All] and [Words.Set]).
type Words []uint64

// WordsFor returns the number of words that hold n bits.
func WordsFor(n int) int { return (n + 63) / 64 }

// MakeWords returns an empty Words with room for 0..n-1.
func MakeWords(n int) Words { return make(Words, WordsFor(n)) }

// Has reports whether i is in w.
func (w Words) Has(i int) bool { return w[i>>6]&(1<<(i&63)) != 0 }

// Add adds i to w.
func (w Words) Add(i int) { w[i>>6] |= 1 << (i & 63) }

// Remove removes i from w.
func (w Words) Remove(i int) { w[i>>6] &^= 1 << (i & 63) }

// Fill sets w to {0, ..., k-1}.
func (w Words) Fill(k int) {
	for i := range w {
		switch {
		case (i+1)*64 <= k:
			w[i] = ^uint64(0)
		case i*64 < k:
			w[i] = 1<<(k-i*64) - 1
		default:
			w[i] = 0
		}
	}
}

// Len returns the number of elements of w.
func (w Words) Len() int {
	c := 0
	for _, x := range w {
		c += bits.OnesCount64(x)
	}
	return c
}

// AndLen returns |w ∩ b|; b must be at least as long as w.
func (w Words) AndLen(b Words) int {
	b = b[:len(w)]
	c := 0
	for i, x := range w {
		c += bits.OnesCount64(x & b[i])
	}
	return c
}

// AndNotLen returns |w \ b|; b must be at least as long as w.
func (w Words) AndNotLen(b Words) int {
	b = b[:len(w)]
	c := 0
	for i, x := range w {
		c += bits.OnesCount64(x &^ b[i])
	}
	return c
}

// IsEmpty reports whether w has no element.
func (w Words) IsEmpty() bool {
	for _, x := range w {
		if x != 0 {
			return false
		}
	}
	return true
}

// Intersects reports whether w and b share an element; b must be at least
// as long as w.
func (w Words) Intersects(b Words) bool {
	b = b[:len(w)]
	for i, x := range w {
		if x&b[i] != 0 {
			return true
		}
	}
	return false
}

// SubsetOf reports whether w ⊆ b; b must be at least as long as w.
func (w Words) SubsetOf(b Words) bool {
	b = b[:len(w)]
	for i, x := range w {
		if x&^b[i] != 0 {
			return false
		}
	}
	return true
}

// Next returns the smallest element of w that is at least i, or -1 if there
// is none. It is the allocation-free way to iterate in hot loops:
//
//	for v := w.Next(0); v >= 0; v = w.Next(v + 1) { ... }
func (w Words) Next(i int) int {
	k := i >> 6
	if i < 0 || k >= len(w) {
		return -1
	}
	if x := w[k] >> (i & 63); x != 0 {
		return i + bits.TrailingZeros64(x)
	}
	for k++; k < len(w); k++ {
		if w[k] != 0 {
			return k<<6 | bits.TrailingZeros64(w[k])
		}
	}
	return -1
}

// All returns the elements of w in increasing order.
func (w Words) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for k, x := range w {
			for x != 0 {
				if !yield(k<<6 | bits.TrailingZeros64(x)) {
					return
				}
				x &= x - 1
			}
		}
	}
}

// And sets w = w ∩ b and reports whether w is still not empty; b must be
// at least as long as w.
func (w Words) And(b Words) bool {
	b = b[:len(w)]
	var any uint64
	for i := range w {
		w[i] &= b[i]
		any |= w[i]
	}
	return any != 0
}

// AndNot sets w = w \ b; b must be at least as long as w.
func (w Words) AndNot(b Words) {
	b = b[:len(w)]
	for i := range w {
		w[i] &^= b[i]
	}
}

// Or sets w = w ∪ b; b must be at least as long as w.
func (w Words) Or(b Words) {
	b = b[:len(w)]
	for i := range w {
		w[i] |= b[i]
	}
}

// Intersect sets w = a ∩ b; a and b must be at least as long as w.
func (w Words) Intersect(a, b Words) {
	a, b = a[:len(w)], b[:len(w)]
	for i := range w {
		w[i] = a[i] & b[i]
	}
}

// Union sets w = a ∪ b; a and b must be at least as long as w.
func (w Words) Union(a, b Words) {
	a, b = a[:len(w)], b[:len(w)]
	for i := range w {
		w[i] = a[i] | b[i]
	}
}

// OrIntersect sets w = w ∪ (a ∩ b); a and b must be at least as long as w.
func (w Words) OrIntersect(a, b Words) {
	a, b = a[:len(w)], b[:len(w)]
	for i := range w {
		w[i] |= a[i] & b[i]
	}
}

// Set returns the elements of w as a new [Set].
func (w Words) Set() *Set {
	s := New(len(w) * 64)
	copy(s.b.Words(), w)
	return s
}

// UnionWords sets s = s ∪ w and returns s: the way to fill a set from
// words without adding its elements one at a time. s grows to hold w's
// largest element, no further.
func (s *Set) UnionWords(w Words) *Set {
	k := len(w)
	for k > 0 && w[k-1] == 0 {
		k--
	}
	if k == 0 {
		return s
	}
	s.Grow(64*(k-1) + bits.Len64(w[k-1]))
	sw := s.b.Words()
	for i, x := range w[:k] {
		sw[i] |= x
	}
	return s
}

// Packed is a list of sets packed for the hot loops of exponential
// searches: row i is set i as [Words] over the columns (nodes), and, once
// built, two node-indexed tables give for each node the rows that avoid it
// or contain it. Rows and tables are slices of one backing array each, so
// a search touches contiguous memory.
//
// A Packed is read-only once built and safe for concurrent use, except
// that [Packed.BuildAvoiders] and [Packed.BuildContaining] must not run
// concurrently with anything else on it.
type Packed struct {
	n, m    int // columns (nodes) and rows (sets)
	nw, mw  int // words per row, words per node-table row
	rows    []uint64
	avoid   []uint64
	contain []uint64
}

// Pack lays out the sets of the given lists, one after the other, as rows
// over at least n columns (more if a set holds a larger element).
func Pack(n int, lists ...[]Set) *Packed {
	m := 0
	for _, l := range lists {
		m += len(l)
		for i := range l {
			if v, ok := l[i].Max(); ok && v >= n {
				n = v + 1
			}
		}
	}
	p := &Packed{n: n, m: m, nw: WordsFor(n), mw: WordsFor(m)}
	p.rows = make([]uint64, m*p.nw)
	i := 0
	for _, l := range lists {
		for j := range l {
			w := l[j].b.Words()
			copy(p.Row(i), w[:min(len(w), p.nw)])
			i++
		}
	}
	return p
}

// N returns the number of columns (nodes).
func (p *Packed) N() int { return p.n }

// Len returns the number of rows (sets).
func (p *Packed) Len() int { return p.m }

// Row returns row i; it shares storage with p and must not be modified.
func (p *Packed) Row(i int) Words { return Words(p.rows[i*p.nw : (i+1)*p.nw : (i+1)*p.nw]) }

// Ones returns the sum of the sizes of the rows.
func (p *Packed) Ones() int { return Words(p.rows).Len() }

// TableBytes returns the memory one node-indexed table takes: N rows of
// Len bits.
func (p *Packed) TableBytes() int64 { return int64(p.n) * int64(p.mw) * 8 }

// BuildAvoiders builds the table of [Packed.Avoiders], unless it exists.
// It refuses with an error wrapping [ErrMemoryBudget] when the table would
// take more than maxBytes.
func (p *Packed) BuildAvoiders(maxBytes int64) error {
	return p.build(&p.avoid, maxBytes, true)
}

// BuildContaining builds the table of [Packed.Containing], unless it
// exists. It refuses with an error wrapping [ErrMemoryBudget] when the
// table would take more than maxBytes.
func (p *Packed) BuildContaining(maxBytes int64) error {
	return p.build(&p.contain, maxBytes, false)
}

// build fills *t with the node → rows table: the rows avoiding each node,
// or containing it.
func (p *Packed) build(t *[]uint64, maxBytes int64, avoid bool) error {
	if *t != nil {
		return nil
	}
	if b := p.TableBytes(); b > maxBytes {
		return fmt.Errorf("set: %d nodes × %d sets need a %d MiB incidence table, more than the %d MiB allowed: %w",
			p.n, p.m, b>>20, maxBytes>>20, ErrMemoryBudget)
	}
	tab := make([]uint64, p.n*p.mw)
	for i := range p.m {
		for v := range p.Row(i).All() {
			tab[v*p.mw+i>>6] |= 1 << (i & 63)
		}
	}
	if avoid {
		full := MakeWords(p.m)
		full.Fill(p.m)
		for v := range p.n {
			row := Words(tab[v*p.mw : (v+1)*p.mw])
			for k := range row {
				row[k] ^= full[k]
			}
		}
	}
	*t = tab
	return nil
}

// Avoiders returns the rows that do not contain node v, as Words over the
// rows. [Packed.BuildAvoiders] must have run. The result shares storage
// with p and must not be modified.
func (p *Packed) Avoiders(v int) Words {
	return Words(p.avoid[v*p.mw : (v+1)*p.mw : (v+1)*p.mw])
}

// Containing returns the rows that contain node v, as Words over the rows.
// [Packed.BuildContaining] must have run. The result shares storage with p
// and must not be modified.
func (p *Packed) Containing(v int) Words {
	return Words(p.contain[v*p.mw : (v+1)*p.mw : (v+1)*p.mw])
}
