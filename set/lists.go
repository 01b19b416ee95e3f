package set

import (
	"fmt"
	"slices"

	"github.com/bits-and-blooms/bitset"
)

// Lists is a list of sets of nodes, each held as its nodes in increasing
// order, one set after the other: 4 bytes a node whatever the node ids,
// where a [Set] takes a bit for every id up to its largest. It is the
// sparse form of a [Family] whose node ids are wide (up to 10^6, say) and
// whose quorums are small: 10^6 quorums of 20 nodes over ids up to 10^6
// take 80 MB as lists and 125 GB as bit sets.
//
// The zero value is an empty list ready to use. Positions are 0-based, as
// in Family.Quorums.
type Lists struct {
	nodes []int32 // the sets' nodes, set after set
	end   []int   // set i is nodes[end[i-1]:end[i]]
}

// NewLists returns the lists whose set i is nodes[end[i-1]:end[i]]
// (nodes[:end[0]] for set 0), taking ownership of both slices: it sorts
// each set's nodes in place. It returns an error if end is not
// nondecreasing within len(nodes), if a node is negative, or if a set
// holds a node twice.
func NewLists(nodes []int32, end []int) (*Lists, error) {
	lo := 0
	for i, e := range end {
		if e < lo || e > len(nodes) {
			return nil, fmt.Errorf("set: lists: set %d ends at %d, outside %d..%d", i+1, e, lo, len(nodes))
		}
		q := nodes[lo:e]
		slices.Sort(q)
		for k, v := range q {
			if v < 0 {
				return nil, fmt.Errorf("set: lists: set %d has the negative node %d", i+1, v)
			}
			if k > 0 && q[k-1] == v {
				return nil, fmt.Errorf("set: lists: set %d has node %d twice", i+1, v)
			}
		}
		lo = e
	}
	return &Lists{nodes: nodes, end: end}, nil
}

// ListsOf returns the sets qs as lists.
func ListsOf(qs []Set) *Lists {
	l := new(Lists)
	var buf []int32
	for i := range qs {
		buf = buf[:0]
		for v := range qs[i].All() {
			buf = append(buf, int32(v))
		}
		l.Append(buf)
	}
	return l
}

// Append adds a set whose nodes are given in increasing order. It panics
// if they are not, or if a node is negative.
func (l *Lists) Append(nodes []int32) {
	for k, v := range nodes {
		if v < 0 || k > 0 && nodes[k-1] >= v {
			panic("set: Lists.Append: nodes not increasing and non-negative")
		}
	}
	l.nodes = append(l.nodes, nodes...)
	l.end = append(l.end, len(l.nodes))
}

// Len returns the number of sets.
func (l *Lists) Len() int { return len(l.end) }

// Nodes returns the total number of nodes over all sets.
func (l *Lists) Nodes() int { return len(l.nodes) }

// At returns the nodes of set i in increasing order. The slice shares
// storage with l and must not be modified.
func (l *Lists) At(i int) []int32 {
	lo := 0
	if i > 0 {
		lo = l.end[i-1]
	}
	return l.nodes[lo:l.end[i]:l.end[i]]
}

// Size returns the number of nodes of set i.
func (l *Lists) Size(i int) int {
	if i == 0 {
		return l.end[0]
	}
	return l.end[i] - l.end[i-1]
}

// Has reports whether set i holds node v, by binary search.
func (l *Lists) Has(i, v int) bool {
	_, ok := slices.BinarySearch(l.At(i), int32(v))
	return ok
}

// Max returns the largest node of all sets, or -1 if they are all empty.
func (l *Lists) Max() int {
	top := -1
	for i := range l.end {
		if q := l.At(i); len(q) > 0 {
			top = max(top, int(q[len(q)-1]))
		}
	}
	return top
}

// Set sets s to set i and returns s.
func (l *Lists) Set(i int, s *Set) *Set {
	s.Clear()
	q := l.At(i)
	if len(q) > 0 {
		s.Grow(int(q[len(q)-1]) + 1)
	}
	for _, v := range q {
		s.Add(int(v))
	}
	return s
}

// Sets returns the sets as bit sets, each as long as its largest node.
func (l *Lists) Sets() []Set { return SetsOf(l.nodes, l.end) }

// SetsOf returns the bit sets of the node lists nodes[end[i-1]:end[i]]
// (nodes[:end[0]] for set 0), whose nodes may come in any order, each as
// long as its largest node, as [Lists.Sets] does. Their words are cut
// from one array, each set's own part, so that making many small sets
// costs two allocations, not one a set; a set that grows past its part
// moves to storage of its own, as any Set does. It panics if end is not
// nondecreasing within len(nodes) or a node is negative.
func SetsOf(nodes []int32, end []int) []Set {
	words := 0
	lo := 0
	for _, e := range end {
		top := int32(-1)
		for _, v := range nodes[lo:e] {
			top = max(top, v)
		}
		words += WordsFor(int(top) + 1)
		lo = e
	}
	arena := make([]uint64, words)
	qs := make([]Set, len(end))
	lo, at := 0, 0
	for i, e := range end {
		q := nodes[lo:e]
		top := int32(-1)
		for _, v := range q {
			if v < 0 {
				panic("set: SetsOf: negative node")
			}
			top = max(top, v)
		}
		k := WordsFor(int(top) + 1)
		w := arena[at : at+k : at+k]
		for _, v := range q {
			w[v>>6] |= 1 << (v & 63)
		}
		qs[i].b = *bitset.FromWithLength(uint(top+1), w)
		lo, at = e, at+k
	}
	return qs
}

// Clone returns a deep copy of l.
func (l *Lists) Clone() *Lists {
	return &Lists{nodes: slices.Clone(l.nodes), end: slices.Clone(l.end)}
}

// Bytes returns the memory l's storage takes.
func (l *Lists) Bytes() int64 { return 4*int64(cap(l.nodes)) + 8*int64(cap(l.end)) }

// SetBytes returns about what the sets would take as bit sets (see
// [Lists.Sets]): one Set each, with as many words as its largest node
// needs.
func (l *Lists) SetBytes() int64 {
	var b int64
	for i := range l.end {
		b += setHeader
		if q := l.At(i); len(q) > 0 {
			b += 8 * int64(WordsFor(int(q[len(q)-1])+1))
		}
	}
	return b
}

// setHeader is the size of a [Set] value (a bitset: a length and a slice).
const setHeader = 32

// Index returns the inverted index of l over the nodes 0..n-1, n above
// every node: for each node v, the sets holding v in increasing order,
// as holders[start[v]:start[v+1]]. Cost: one pass; 4 bytes a node of l
// and 8 bytes a node of the universe.
func (l *Lists) Index(n int) (start []int, holders []int32) {
	start = make([]int, n+1)
	for _, v := range l.nodes {
		start[v+1]++
	}
	for v := 1; v <= n; v++ {
		start[v] += start[v-1]
	}
	holders = make([]int32, len(l.nodes))
	fill := slices.Clone(start[:n])
	for i := range l.end {
		for _, v := range l.At(i) {
			holders[fill[v]] = int32(i)
			fill[v]++
		}
	}
	return start, holders
}
