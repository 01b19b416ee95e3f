package set

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/big"
	"slices"
	"sort"
	"strings"
)

// NoOwner marks a quorum that no node owns.
const NoOwner = -1

// MaxNodes is the largest universe a system may have. It bounds what a
// malformed file can make coterie allocate: one quorum over MaxNodes nodes is
// a 2 MiB bitset.
const MaxNodes = 1 << 24

// Params are a construction's parameters, as recorded in a file's "params"
// object. Values are int, float64, bool or string.
type Params map[string]any

// Family is a coterie (K = 1) or a k-arbiter over the nodes 0..N-1: either an
// explicit list of quorums, or, when Threshold > 0, every subset of exactly
// Threshold nodes (a symmetric system too large to list; see [Family.Count]
// and [Family.Enumerate]). It is also one level of an (h,k)-arbiter, with H
// set.
//
// Nothing here checks that the quorums intersect: a Family is whatever a
// file or constructor holds, and package verify judges it.
type Family struct {
	N      int    // number of nodes
	K      int    // the k of a k-arbiter; 1 for a coterie
	H      int    // the level h of an (h,k)-arbiter, or 0
	Kind   string // constructor name, such as "fpp"; "" if unknown
	Params Params // constructor parameters; nil if none
	Labels []string

	// Quorums lists the quorums in order; positions are what reports cite.
	Quorums []Set
	// Sparse, when not nil, holds the quorums instead of Quorums (which is
	// then nil), as sorted node lists: the form of a family whose node ids
	// are too wide for a bit set per quorum (see [Lists]). Code that reads
	// Quorums asks [Family.IsSparse] first, or calls [Family.Densify].
	Sparse *Lists
	// Owners is nil, or holds one node per quorum (NoOwner for none):
	// Owners[i] is the node whose quorum Quorums[i] is (Maekawa's S_i).
	Owners []int
	// Threshold, when positive, makes this the family of all
	// Threshold-subsets of the N nodes; Quorums and Owners are then nil.
	Threshold int
	// Implicit, when true, makes this the family the construction Kind
	// builds from Params (a tree, a crumbling wall, ...), stored without its
	// quorums because it has too many to list; Quorums and Owners are then
	// nil. Package construct counts and materialises it
	// (construct.Materialize); package set never lists it.
	Implicit bool
}

// NewFamily returns an empty explicit coterie (K = 1) over n nodes.
func NewFamily(n int) *Family { return &Family{N: n, K: 1} }

// NewThreshold returns the family of all w-subsets of n nodes, with K = 1.
func NewThreshold(n, w int) *Family { return &Family{N: n, K: 1, Threshold: w} }

// IsThreshold reports whether f is in threshold form.
func (f *Family) IsThreshold() bool { return f.Threshold > 0 }

// IsImplicit reports whether f is in implicit form: defined by its Kind and
// Params, with no quorums listed.
func (f *Family) IsImplicit() bool { return f.Implicit }

// IsSparse reports whether f holds its quorums as node lists ([Family.Sparse]).
func (f *Family) IsSparse() bool { return f.Sparse != nil }

// Densify moves a sparse family's quorums into Quorums as bit sets, each
// as long as its largest node ([Lists.SetBytes] says what that takes),
// and does nothing to any other family.
func (f *Family) Densify() {
	if f.Sparse == nil {
		return
	}
	f.Quorums = f.Sparse.Sets()
	f.Sparse = nil
}

// QuorumSize returns the number of nodes of quorum i of an explicit
// family, in either form.
func (f *Family) QuorumSize(i int) int {
	if f.Sparse != nil {
		return f.Sparse.Size(i)
	}
	return f.Quorums[i].Len()
}

// QuorumHas reports whether quorum i of an explicit family holds node v,
// in either form.
func (f *Family) QuorumHas(i, v int) bool {
	if f.Sparse != nil {
		return f.Sparse.Has(i, v)
	}
	return f.Quorums[i].Has(v)
}

// AppendQuorum appends the nodes of quorum i of an explicit family, in
// increasing order, to buf and returns the extended slice.
func (f *Family) AppendQuorum(buf []int, i int) []int {
	if f.Sparse != nil {
		for _, v := range f.Sparse.At(i) {
			buf = append(buf, int(v))
		}
		return buf
	}
	return f.Quorums[i].AppendTo(buf)
}

// quorumCount is the number of listed quorums, in either form.
func (f *Family) quorumCount() int {
	if f.Sparse != nil {
		return f.Sparse.Len()
	}
	return len(f.Quorums)
}

// Add appends quorum q, owned by owner (or NoOwner), and returns its index.
// Owners is created on the first owned quorum.
func (f *Family) Add(q *Set, owner int) int {
	if owner != NoOwner && f.Owners == nil {
		f.Owners = make([]int, len(f.Quorums), cap(f.Quorums)+1)
		for i := range f.Owners {
			f.Owners[i] = NoOwner
		}
	}
	f.Quorums = append(f.Quorums, Set{})
	f.Quorums[len(f.Quorums)-1].Copy(q)
	if f.Owners != nil {
		f.Owners = append(f.Owners, owner)
	}
	return len(f.Quorums) - 1
}

// Owner returns the owner of quorum i, or NoOwner.
func (f *Family) Owner(i int) int {
	if f.Owners == nil {
		return NoOwner
	}
	return f.Owners[i]
}

// Len returns the number of quorums as an int. For a threshold family too
// large to count in an int, and for an implicit family, it returns -1; use
// [Family.Count] (construct.Count for an implicit family).
func (f *Family) Len() int {
	if f.IsImplicit() {
		return -1
	}
	if !f.IsThreshold() {
		return f.quorumCount()
	}
	c := f.Count()
	if !c.IsInt64() || c.Int64() > int64(^uint(0)>>1) {
		return -1
	}
	return int(c.Int64())
}

// Count returns the number of quorums exactly: C(N, Threshold) for a
// threshold family. An implicit family's count is its construction's, which
// package set does not know: Count returns −1 (construct.Count knows it).
func (f *Family) Count() *big.Int {
	if f.IsImplicit() {
		return big.NewInt(-1)
	}
	if !f.IsThreshold() {
		return big.NewInt(int64(f.quorumCount()))
	}
	if f.Threshold > f.N {
		return new(big.Int)
	}
	return Binomial(f.N, f.Threshold)
}

// ErrTooMany is wrapped by [Family.Enumerate] when a threshold family has more
// quorums than the limit allows.
var ErrTooMany = errors.New("too many quorums")

// ErrImplicit is wrapped by [Family.Enumerate] for an implicit family, whose
// quorums only its construction can list (construct.Materialize).
var ErrImplicit = errors.New("implicit family")

// Enumerate returns f as an explicit family: a copy of f if it is explicit,
// otherwise every Threshold-subset of the N nodes in lexicographic order. It
// refuses, wrapping [ErrTooMany], if that would be more than limit quorums,
// and refuses an implicit family, wrapping [ErrImplicit].
func (f *Family) Enumerate(limit int) (*Family, error) {
	return f.EnumerateContext(context.Background(), limit)
}

// EnumerateContext is [Family.Enumerate] watching ctx: once ctx is done it
// stops listing and returns ctx's error.
func (f *Family) EnumerateContext(ctx context.Context, limit int) (*Family, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.IsImplicit() {
		return nil, fmt.Errorf("set: %s: its construction lists the quorums (construct.Materialize): %w", f.Kind, ErrImplicit)
	}
	g := f.CloneMeta()
	if f.IsSparse() {
		g.Sparse = f.Sparse.Clone()
		g.Owners = slices.Clone(f.Owners)
		return g, nil
	}
	if !f.IsThreshold() {
		g.Quorums = make([]Set, len(f.Quorums))
		for i := range f.Quorums {
			g.Quorums[i].Copy(&f.Quorums[i])
		}
		g.Owners = slices.Clone(f.Owners)
		return g, nil
	}
	c := f.Count()
	if limit < 0 || c.Cmp(big.NewInt(int64(limit))) > 0 {
		return nil, fmt.Errorf("set: %s quorums (all %d-subsets of %d nodes) exceed the limit of %d: %w",
			c, f.Threshold, f.N, limit, ErrTooMany)
	}
	g.Threshold = 0
	g.Quorums = make([]Set, 0, c.Int64())
	for i, q := range f.All() {
		if i&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		g.Quorums = append(g.Quorums, *q.Clone())
	}
	return g, nil
}

// All returns an iterator over the quorums of f with their positions: the
// listed quorums of an explicit family, or every Threshold-subset of the N
// nodes in lexicographic order, generated one at a time (no more memory than
// one set, whatever the count). A threshold or sparse family's quorum is
// reused by the next step: the loop body copies what it keeps. Cost:
// C(N, Threshold) steps for a threshold family.
func (f *Family) All() iter.Seq2[int, *Set] {
	return func(yield func(int, *Set) bool) {
		if f.IsSparse() {
			var q Set
			for i := range f.Sparse.Len() {
				// Clear only the bits set: a wide set is long.
				if i > 0 {
					for _, v := range f.Sparse.At(i - 1) {
						q.Remove(int(v))
					}
				}
				for _, v := range f.Sparse.At(i) {
					q.Add(int(v))
				}
				if !yield(i, &q) {
					return
				}
			}
			return
		}
		if !f.IsThreshold() {
			for i := range f.Quorums {
				if !yield(i, &f.Quorums[i]) {
					return
				}
			}
			return
		}
		w, n := f.Threshold, f.N
		if w > n {
			return
		}
		idx := make([]int, w)
		for i := range idx {
			idx[i] = i
		}
		q := New(n)
		for pos := 0; ; pos++ {
			q.Clear()
			for _, v := range idx {
				q.Add(v)
			}
			if !yield(pos, q) {
				return
			}
			// Next w-combination in lexicographic order.
			i := w - 1
			for i >= 0 && idx[i] == n-w+i {
				i--
			}
			if i < 0 {
				return
			}
			idx[i]++
			for j := i + 1; j < w; j++ {
				idx[j] = idx[j-1] + 1
			}
		}
	}
}

// CloneMeta returns a family with f's metadata (N, K, H, Kind, Params,
// Labels, Threshold, Implicit) and no quorums.
func (f *Family) CloneMeta() *Family {
	g := &Family{N: f.N, K: f.K, H: f.H, Kind: f.Kind, Threshold: f.Threshold,
		Implicit: f.Implicit, Labels: slices.Clone(f.Labels)}
	if f.Params != nil {
		g.Params = make(Params, len(f.Params))
		for k, v := range f.Params {
			g.Params[k] = v
		}
	}
	return g
}

// Clone returns a deep copy of f.
func (f *Family) Clone() *Family {
	g := f.CloneMeta()
	if f.Quorums != nil {
		g.Quorums = make([]Set, len(f.Quorums))
		for i := range f.Quorums {
			g.Quorums[i].Copy(&f.Quorums[i])
		}
	}
	if f.Sparse != nil {
		g.Sparse = f.Sparse.Clone()
	}
	g.Owners = slices.Clone(f.Owners)
	return g
}

// Validate checks that f is well formed: 1 ≤ N ≤ MaxNodes, K ≥ 1, every
// quorum non-empty and within 0..N-1, owners within range, labels one per
// node, and a threshold between 1 and N. An implicit family must name its
// Kind and list no quorums, owners or threshold (that Kind and Params make a
// construction is construct's to check). It says nothing about intersection.
func (f *Family) Validate() error {
	if f.N < 1 || f.N > MaxNodes {
		return fmt.Errorf("set: n = %d is out of range 1..%d", f.N, MaxNodes)
	}
	if f.K < 1 {
		return fmt.Errorf("set: k = %d must be at least 1", f.K)
	}
	if f.Labels != nil && len(f.Labels) != f.N {
		return fmt.Errorf("set: %d labels for %d nodes", len(f.Labels), f.N)
	}
	if f.IsImplicit() {
		switch {
		case f.Kind == "":
			return errors.New("set: an implicit family needs the kind of its construction")
		case f.Quorums != nil || f.Sparse != nil || f.Owners != nil || f.Threshold != 0:
			return errors.New("set: an implicit family lists no quorums, owners or threshold")
		}
		return nil
	}
	if f.IsThreshold() {
		if f.Threshold > f.N {
			return fmt.Errorf("set: threshold %d exceeds n = %d", f.Threshold, f.N)
		}
		if f.Quorums != nil || f.Sparse != nil || f.Owners != nil {
			return errors.New("set: a threshold family lists no quorums or owners")
		}
		return nil
	}
	if f.Threshold < 0 {
		return fmt.Errorf("set: threshold %d is negative", f.Threshold)
	}
	if f.Sparse != nil && f.Quorums != nil {
		return errors.New("set: a sparse family holds its quorums as lists, not in Quorums")
	}
	if f.Owners != nil && len(f.Owners) != f.quorumCount() {
		return fmt.Errorf("set: %d owners for %d quorums", len(f.Owners), f.quorumCount())
	}
	for i := range f.quorumCount() {
		var m int
		var ok bool
		if f.Sparse != nil {
			if q := f.Sparse.At(i); len(q) > 0 {
				m, ok = int(q[len(q)-1]), true
			}
		} else {
			m, ok = f.Quorums[i].Max()
		}
		if !ok {
			return fmt.Errorf("set: quorum %d is empty", i+1)
		}
		if m >= f.N {
			return fmt.Errorf("set: quorum %d has node %d but n = %d", i+1, m+1, f.N)
		}
		if o := f.Owner(i); o != NoOwner && (o < 0 || o >= f.N) {
			return fmt.Errorf("set: owner %d of quorum %d is out of range 1..%d", o+1, i+1, f.N)
		}
	}
	return nil
}

// Canonical puts an explicit family in canonical order, in place: owned
// quorums first by owner, then unowned ones, ties broken by [Compare]; and it
// removes exact repeats (the same nodes and the same owner). Constructors
// return canonical families, so equal systems give identical files.
func (f *Family) Canonical() {
	if f.IsThreshold() || f.IsImplicit() || f.quorumCount() == 0 {
		return
	}
	if f.IsSparse() {
		f.canonicalSparse()
		return
	}
	idx := make([]int, len(f.Quorums))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) int {
		if o := f.Owner(i); o != NoOwner {
			return o
		}
		return f.N
	}
	sort.SliceStable(idx, func(x, y int) bool {
		i, j := idx[x], idx[y]
		if ki, kj := key(i), key(j); ki != kj {
			return ki < kj
		}
		return Compare(&f.Quorums[i], &f.Quorums[j]) < 0
	})
	qs := make([]Set, 0, len(idx))
	var owners []int
	if f.Owners != nil {
		owners = make([]int, 0, len(idx))
	}
	for n, i := range idx {
		if n > 0 {
			p := idx[n-1]
			if f.Owner(p) == f.Owner(i) && Equal(&f.Quorums[p], &f.Quorums[i]) {
				continue
			}
		}
		qs = append(qs, f.Quorums[i])
		if owners != nil {
			owners = append(owners, f.Owners[i])
		}
	}
	f.Quorums, f.Owners = qs, owners
}

// Minimalize removes, in place, every quorum that contains another quorum
// (of two equal quorums the first stays), keeping the order of the rest, and
// returns how many it removed. The removed quorums' owners go with them.
//
// Cost: that of [Family.Redundant]. [Family.MinimalizeContext] can be
// stopped.
func (f *Family) Minimalize() int {
	n, _ := f.MinimalizeContext(context.Background())
	return n
}

// MinimalizeContext is [Family.Minimalize] watching ctx: once ctx is done it
// stops, leaves f as it was and returns ctx's error.
func (f *Family) MinimalizeContext(ctx context.Context) (int, error) {
	if f.IsThreshold() || f.IsImplicit() || f.quorumCount() < 2 {
		return 0, ctx.Err()
	}
	drop, err := f.Redundant(ctx)
	if err != nil {
		return 0, err
	}
	if f.IsSparse() {
		return f.keepSparse(drop), nil
	}
	m := len(f.Quorums)
	dropped := 0
	for _, d := range drop {
		if d {
			dropped++
		}
	}
	if dropped == 0 {
		return 0, nil
	}
	qs := f.Quorums[:0:0]
	var owners []int
	for i := range m {
		if drop[i] {
			continue
		}
		qs = append(qs, f.Quorums[i])
		if f.Owners != nil {
			owners = append(owners, f.Owners[i])
		}
	}
	f.Quorums, f.Owners = qs, owners
	return dropped, nil
}

// Degrees returns, for each node, the number of quorums that contain it. It
// panics on a threshold family, whose degrees are all C(N-1, w-1). For an
// implicit family it returns nil: [Family.Stats] gives its degrees' range
// when its construction lists it.
func (f *Family) Degrees() []int {
	if f.IsThreshold() {
		panic("set: Degrees of a threshold family")
	}
	if f.IsImplicit() {
		return nil
	}
	d := make([]int, f.N)
	if f.Sparse != nil {
		for _, v := range f.Sparse.nodes {
			if int(v) < f.N {
				d[v]++
			}
		}
		return d
	}
	for i := range f.Quorums {
		for v := range f.Quorums[i].All() {
			if v < f.N {
				d[v]++
			}
		}
	}
	return d
}

// Label returns the label of node i, or its 1-based number when f has no
// labels.
func (f *Family) Label(i int) string {
	if f.Labels != nil && i < len(f.Labels) {
		return f.Labels[i]
	}
	return fmt.Sprint(i + 1)
}

// String formats f for debugging: "n=7 k=1 [{0 1 2} {0 3 4} ...]", with the
// 0-based nodes of this package.
func (f *Family) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "n=%d k=%d", f.N, f.K)
	if f.H > 0 {
		fmt.Fprintf(&sb, " h=%d", f.H)
	}
	if f.IsThreshold() {
		fmt.Fprintf(&sb, " threshold=%d", f.Threshold)
		return sb.String()
	}
	if f.IsImplicit() {
		fmt.Fprintf(&sb, " implicit %s %v", f.Kind, f.Params)
		return sb.String()
	}
	sb.WriteString(" [")
	for i, q := range f.All() {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(q.String())
	}
	sb.WriteByte(']')
	return sb.String()
}

// SameQuorums reports whether a and b hold the same quorums, in any
// order (their other fields are not compared); neither may hold a quorum
// twice, as minimal families do not. Threshold families are
// compared by their n and w. It hashes a's quorums: O(m) expected for m
// quorums.
func SameQuorums(a, b *Family) bool {
	if a.IsThreshold() || b.IsThreshold() {
		return a.IsThreshold() && b.IsThreshold() && a.N == b.N && a.Threshold == b.Threshold
	}
	if len(a.Quorums) != len(b.Quorums) {
		return false
	}
	seen := map[uint64][]*Set{}
	for i := range a.Quorums {
		q := &a.Quorums[i]
		seen[q.Hash()] = append(seen[q.Hash()], q)
	}
	for i := range b.Quorums {
		q := &b.Quorums[i]
		found := false
		for _, p := range seen[q.Hash()] {
			if Equal(p, q) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
