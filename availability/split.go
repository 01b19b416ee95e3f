package availability

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// An exact computation by BDD splits into pieces by the values of the
// first nodes of a variable order (see [NewSplit]): with b split nodes,
// piece j fixes the node at level v up when bit v of j is 1 and down
// otherwise, and counts the live sets of the other n−b nodes that
// complete it to a live set containing a quorum. The restriction is again
// a monotone function, with the quorums that meet a down node dropped and
// the up nodes taken out of the others; its BDD in the rest of the order
// is the cofactor of the whole BDD, and its polynomial, shifted by the
// number of up nodes of j, is the piece's contribution. The contributions
// of the 2^b pieces add up to the coefficient vector. The pieces are
// independent: they can run on different machines (shards) or one after
// the other with their results saved (checkpoints), and the sum does not
// depend on how they were dealt out.

// Split is the division of the exact computation of a family into 2^Bits
// pieces by the first Bits nodes of Order.
type Split struct {
	Bits  int
	Order []int
}

// ID names the pieces of the split: its split nodes, 1-based, in order.
// Two splits with the same ID cut the same pieces, so pieces saved or
// summed under one may be added to those of the other, and to no others.
func (sp *Split) ID() string {
	var b strings.Builder
	for i, v := range sp.Order[:sp.Bits] {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v + 1))
	}
	return "nodes " + b.String()
}

// NewSplit returns the split of f into 2^bits pieces along the candidate
// order (see [OrderCandidates]) whose whole BDD fits the smallest node
// budget of 2^12, 2^14 or 2^16; past that, along the order that got
// furthest within 2^16 nodes, or 2^18 when no order was a quarter ahead
// of the others at 2^16 (so the choice costs little, and a poor order
// makes the pieces slower, never wrong), split at its widest cut (see
// [splitWindow]). The choice counts work, not time, so it
// is the same on every machine: every shard and every resumed run cuts the
// same pieces.
func NewSplit(ctx context.Context, f *set.Family, bits int) (*Split, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if construct.ThresholdForm(f) != nil {
		return nil, errors.New("availability: pieces: threshold family: use the closed form")
	}
	if bits < 0 || bits >= f.N || bits > 30 {
		return nil, fmt.Errorf("availability: pieces: 2^%d pieces for %d nodes", bits, f.N)
	}
	cands, err := orderCandidates(ctx, f)
	if err != nil {
		return nil, err
	}
	best := 0
	kept := make([]*manager, len(cands))
	for budget := 1 << 12; budget <= 1<<18; budget *= 4 {
		bestSteps, second := -1, -1
		for i, o := range cands {
			_, k, m, err := buildBDD(ctx, f, BDDOptions{Order: o, Budget: budget}, kept[i])
			if err == nil {
				return &Split{Bits: bits, Order: cands[i]}, nil
			}
			if !errors.Is(err, ErrBudget) {
				return nil, err
			}
			kept[i] = nil
			if m != nil && m.keptBytes() <= maxKeptBytes/int64(len(cands)) {
				kept[i] = m
			}
			switch {
			case k > bestSteps:
				best, bestSteps, second = i, k, bestSteps
			case k > second:
				second = k
			}
		}
		// Within 2^16 nodes the orders are often still close (on the
		// billiard of q = 15 the order that never fits was 2% ahead of
		// the one that fits in 1.7 million nodes, and 30% behind it at
		// 2^18): the probes go on until one leads by a quarter.
		if budget >= 1<<16 && 4*bestSteps >= 5*second {
			break
		}
	}
	order, err := splitWindow(ctx, f, cands[best], bits)
	if err != nil {
		return nil, err
	}
	return &Split{Bits: bits, Order: order}, nil
}

// splitWindow returns order with bits consecutive nodes moved to the
// front, the rest in their order: the window whose two trial pieces
// (every other split node up, and the others) have the smallest diagrams
// together, among windows starting at every sixteenth of the order. A
// diagram too large for the probes of [NewSplit] is widest in its middle
// levels; its cofactors by the first
// nodes of the order share that wide middle and are about as large as
// the whole (on the billiard of q = 15, in the chain order, each of 64
// pieces had half the whole's 1.7 million nodes), while fixing nodes
// further in cuts it. It does not cut every level, though: the cofactors
// still share the levels below the window (on that billiard, any third
// of the nodes entering a level below the 16th reaches nearly every node
// below it), so the pieces together are larger than the whole. There the
// windows of 6 nodes at 4 and 6 of the chain order make about 5.4 and
// 7.1 million nodes together (pieces of 9,000 to 490,000 nodes), the
// window at 66 10 million, those at 0, 13, 19 and 26 15 to 100 million,
// and windows of 8 or 10 nodes more. Each trial stops at 2^16 nodes;
// when no window has both trials fit, the window whose worse trial got
// furthest wins: the pieces are as slow as their largest, and one trial
// alone can mislead (at 66 the one that fits has 34,000 nodes, the other
// fails, and each of 3 shards cost 1.3 to 1.8 times the CPU of the
// unsplit run; at 6, the window chosen, neither fits, and each shard
// costs 0.85 of it). The choice counts work, not time.
func splitWindow(ctx context.Context, f *set.Family, order []int, bits int) ([]int, error) {
	n := len(order)
	if bits == 0 || bits >= n {
		return order, nil
	}
	at := func(s int) []int {
		out := make([]int, 0, n)
		out = append(out, order[s:s+bits]...)
		out = append(out, order[:s]...)
		return append(out, order[s+bits:]...)
	}
	j := 0x5555_5555 & (1<<bits - 1)
	trials := []int{j, j ^ (1<<bits - 1)}
	best, bestSize, bestSteps := 0, -1, -1
	for k := range 16 {
		s := k * (n - bits) / 16
		if k > 0 && s == (k-1)*(n-bits)/16 {
			continue
		}
		sp := &Split{Bits: bits, Order: at(s)}
		// size is the nodes of the trials that fit, steps how far the
		// worse of those that did not got.
		size, steps, tried, fits := 0, -1, 0, true
		for _, t := range trials {
			g, always := sp.restrict(f, t)
			if always || len(g.Quorums) == 0 {
				continue
			}
			tried++
			d, k, _, err := buildBDD(ctx, g, BDDOptions{Order: naturalOrder(g.N), Budget: 1 << 16}, nil)
			switch {
			case err == nil:
				size += d.Size()
			case !errors.Is(err, ErrBudget):
				return nil, err
			default:
				if fits || k < steps {
					steps = k
				}
				fits = false
			}
		}
		switch {
		case tried == 0:
		case fits:
			if bestSize < 0 || size < bestSize {
				best, bestSize = s, size
			}
		case bestSize < 0 && steps > bestSteps:
			best, bestSteps = s, steps
		}
	}
	return at(best), nil
}

// SplitBits returns the number of split nodes for a family of n nodes cut
// among shards shards: about eight pieces a shard so that the shards get
// similar work, and at least 64 pieces so that a checkpoint saves often;
// never more nodes than n − 1 nor 20.
func SplitBits(n, shards int) int {
	b := max(6, bits.Len(uint(max(shards-1, 0)))+3)
	return max(0, min(b, n-1, 20))
}

// Splittable reports whether the computation of f with method m is one
// that [ComputePieces] splits: an explicit family whose exact polynomial
// comes from the BDD (m is MethodBDD, or MethodAuto and no closed form
// fits, or PG(2,8), whose sweep takes hours). The other closed forms take
// seconds at most and are not split.
func Splittable(f *set.Family, m Method) bool {
	return SplittableContext(context.Background(), f, m)
}

// SplittableContext is [Splittable] watching ctx: listing an implicit
// family and the test for a product of slabs take seconds on large
// families; once ctx is done it returns false, and the computation the
// caller then starts returns ctx's error.
func SplittableContext(ctx context.Context, f *set.Family, m Method) bool {
	if ctx.Err() != nil {
		return false
	}
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return false
	}
	if len(f.Quorums) == 0 || f.N < 2 {
		return false
	}
	for i := range f.Quorums {
		if f.Quorums[i].IsEmpty() {
			return false
		}
	}
	switch m {
	case MethodBDD:
		return true
	case MethodAuto:
	default:
		return false
	}
	if _, ok := isAllSubsets(f); ok {
		return false
	}
	if _, ok := productDims(ctx, f); ok || ctx.Err() != nil {
		return false
	}
	if q, ok := planeOrder(f); ok && q < planeSlowOrder {
		return false
	}
	if _, ok := findJoin(f); ok {
		return false
	}
	return true
}

// restrict returns f with the split nodes fixed to the bits of j, as a
// family over the other nodes numbered in the split's order (so that the
// natural order of the restriction is the rest of the split's order), and
// whether a quorum lies wholly in the up nodes (then the restriction is
// always true).
func (sp *Split) restrict(f *set.Family, j int) (*set.Family, bool) {
	b := sp.Bits
	pos := make([]int, f.N) // node → level in the split's order
	for l, v := range sp.Order {
		pos[v] = l
	}
	g := set.NewFamily(f.N - b)
	g.K = f.K
	for i := range f.Quorums {
		q := &f.Quorums[i]
		s := set.New(g.N)
		dead := false
		for v := range q.All() {
			l := pos[v]
			if l < b {
				if j>>l&1 == 0 {
					dead = true
					break
				}
				continue
			}
			s.Add(l - b)
		}
		if dead {
			continue
		}
		if s.IsEmpty() {
			return g, true
		}
		g.Add(s, set.NoOwner)
	}
	return g, false
}

// ComputePiece returns the contribution of piece j (0 ≤ j < 2^b) of the
// split [NewSplit](f, b) to the coefficient vector of the explicit family
// f; see [Split.Piece]. A run of many pieces makes the split once.
func ComputePiece(ctx context.Context, f *set.Family, b, j int, opts Options) (*Polynomial, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	sp, err := NewSplit(ctx, f, b)
	if err != nil {
		return nil, err
	}
	return sp.Piece(ctx, f, j, opts)
}

// Piece returns the contribution of piece j (0 ≤ j < 2^Bits) to the
// coefficient vector of f: the polynomial over f.N nodes counting the
// live sets that agree with j on the split nodes and contain a quorum. The
// restriction's BDD is built in the rest of the split's order, under
// opts.Budget and opts.MaxMemory (opts.Time is left to the caller's
// context). It fails, without a result, when a budget or ctx stops it:
// errors wrap [ErrBudget], [set.ErrMemoryBudget] or the context's error.
// An implicit family is listed by its construction first; a threshold
// family is refused, as [NewSplit] refuses it.
func (sp *Split) Piece(ctx context.Context, f *set.Family, j int, opts Options) (*Polynomial, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if construct.ThresholdForm(f) != nil {
		return nil, errors.New("availability: pieces: threshold family: use the closed form")
	}
	b := sp.Bits
	if len(sp.Order) != f.N || b < 0 || b >= f.N || j < 0 || j >= 1<<b {
		return nil, fmt.Errorf("availability: pieces: piece %d of 2^%d for %d nodes", j, b, f.N)
	}
	g, always := sp.restrict(f, j)
	m := g.N
	var sub *Polynomial
	switch {
	case always:
		sub = Threshold(m, 0)
	case len(g.Quorums) == 0:
		sub = NewPolynomial(m)
	default:
		progress := func(done, total int64, format string, args ...any) {
			if opts.Progress != nil {
				opts.Progress(fmt.Sprintf("piece %d of %d: ", j+1, 1<<b)+fmt.Sprintf(format, args...), done, total)
			}
		}
		if _, sub, err = searchBDD(ctx, g, [][]int{naturalOrder(g.N)}, opts, progress); err != nil {
			return nil, fmt.Errorf("%w (piece %d of %d)", err, j+1, 1<<b)
		}
	}
	up := bits.OnesCount(uint(j))
	p := NewPolynomial(f.N)
	for i, a := range sub.A {
		p.A[i+up].Set(a)
	}
	return p, nil
}

// Add adds q's coefficients into p (both over the same number of nodes).
func (p *Polynomial) Add(q *Polynomial) error {
	if p.N != q.N {
		return fmt.Errorf("availability: adding polynomials over %d and %d nodes", p.N, q.N)
	}
	for i := range p.A {
		p.A[i].Add(p.A[i], q.A[i])
	}
	return nil
}

// ExactResult returns the exact result with polynomial p obtained by
// method m, for results put together from pieces (see [ComputePiece]). f
// is the family, or nil when only the polynomial is known; then the
// result evaluates only at uniform probabilities.
func ExactResult(f *set.Family, m Method, p *Polynomial) *Result {
	return &Result{N: p.N, Exact: true, Method: m, Poly: p, f: f}
}

// Settle returns the inexact result of f for the given reason: what
// [NewPartial] proves, exact after all (method inclusion-exclusion) when
// that is every coefficient.
func Settle(ctx context.Context, f *set.Family, reason string) (*Result, error) {
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("availability: %w", err)
	}
	return settle(ctx, &Result{N: f.N, f: f}, reason, CauseNone)
}

// PieceState is the progress of a split computation: which pieces of
// 2^Bits are done, and the sum of their contributions.
type PieceState struct {
	Bits int
	// Split is the [Split.ID] of the pieces; "" in a state that no piece
	// was added to yet, or one saved before splits were named.
	Split string
	Done  []int // increasing
	Sum   *Polynomial
}

// RunPieces computes, in increasing order, the pieces j < 2^bits of f for
// which owns(j) holds and that state (nil to start afresh) does not have
// yet, adding each to the state and calling save with it (a checkpoint).
// A piece over the node or memory budget is left undone and the others
// go on. It returns the state when every owned piece is done; otherwise
// the state as far as it got, with the first budget error, or the error
// of ctx or save that stopped it: a later call with that state (and a
// larger budget) resumes there.
func RunPieces(ctx context.Context, f *set.Family, bits int, owns func(j int) bool, state *PieceState, opts Options, save func(*PieceState) error) (*PieceState, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if state == nil {
		state = &PieceState{Bits: bits, Sum: NewPolynomial(f.N)}
	}
	if state.Bits != bits || state.Sum == nil || state.Sum.N != f.N {
		return nil, fmt.Errorf("availability: pieces: a saved state of 2^%d pieces does not fit 2^%d pieces over %d nodes", state.Bits, bits, f.N)
	}
	sp, err := NewSplit(ctx, f, bits)
	if err != nil {
		return state, err
	}
	switch id := sp.ID(); {
	case state.Split == "" && len(state.Done) > 0:
		return nil, fmt.Errorf("availability: pieces: a saved state of %d pieces does not say how they were cut (saved by an earlier version, which may cut them otherwise): start afresh", len(state.Done))
	case state.Split != "" && state.Split != id:
		return nil, fmt.Errorf("availability: pieces: a saved state of pieces cut by %s, and this run cuts them by %s: start afresh", state.Split, id)
	default:
		state.Split = id
	}
	done := make(map[int]bool, len(state.Done))
	for _, j := range state.Done {
		done[j] = true
	}
	var todo []int
	for j := range 1 << bits {
		if !done[j] && owns(j) {
			todo = append(todo, j)
		}
	}
	// The pieces run on all cores, each within its share of the memory
	// budget; results are added and saved one at a time, and none is
	// taken after the context ends or a save fails, so the saved state is
	// always a set of whole pieces.
	workers := max(1, min(runtime.GOMAXPROCS(0), len(todo)))
	popts := opts
	if opts.MaxMemory > 0 {
		popts.MaxMemory = max(opts.MaxMemory/int64(workers), 1)
	}
	if opts.Progress != nil {
		var pmu sync.Mutex
		popts.Progress = func(stage string, done, total int64) {
			pmu.Lock()
			defer pmu.Unlock()
			opts.Progress(stage, done, total)
		}
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu        sync.Mutex
		next      int
		stopErr   error // of ctx or save: stops everything
		budgetErr error // of the first piece over budget
		budgetJ   = -1
	)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(todo) || stopErr != nil {
					mu.Unlock()
					return
				}
				j := todo[next]
				next++
				mu.Unlock()
				p, err := sp.Piece(wctx, f, j, popts)
				mu.Lock()
				switch {
				case stopErr != nil || wctx.Err() != nil:
					if stopErr == nil {
						stopErr = wctx.Err()
						if err != nil && ctx.Err() != nil {
							stopErr = err
						}
					}
				case err != nil && (errors.Is(err, ErrBudget) || errors.Is(err, set.ErrMemoryBudget)):
					if budgetJ < 0 || j < budgetJ {
						budgetErr, budgetJ = err, j
					}
				case err != nil:
					stopErr = err
					cancel()
				default:
					state.Sum.Add(p)
					state.Done = append(state.Done, j)
					slices.Sort(state.Done)
					if save != nil {
						if err := save(state); err != nil {
							stopErr = err
							cancel()
						}
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if stopErr != nil {
		return state, stopErr
	}
	if err := ctx.Err(); err != nil {
		return state, fmt.Errorf("availability: pieces: %w", err)
	}
	if budgetErr != nil {
		return state, budgetErr
	}
	return state, nil
}

// PartialResult returns the inexact result of an n-node family with what
// was proved and why no exact method succeeded, for results put together
// from pieces.
func PartialResult(p *Partial, reason string) *Result {
	return &Result{N: p.N, Partial: p, Reason: reason}
}

// Clone returns a copy of p.
func (p *Polynomial) Clone() *Polynomial {
	q := NewPolynomial(p.N)
	for i, a := range p.A {
		q.A[i].Set(a)
	}
	return q
}
