package domination

import (
	"context"
	"errors"
	"fmt"

	"github.com/crillab/gophersat/solver"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Result is the verdict of [Decide] on a coterie or k-arbiter.
type Result struct {
	// Nondominated reports that no coterie (k-arbiter) dominates the system.
	Nondominated bool
	// K is the k of the system judged (1 for a coterie).
	K int
	// Witness, when the system is dominated, is a set H of Kuo's Theorem 1
	// (k = 1) or Theorem 2 (k > 1): it contains no quorum and meets every
	// quorum (every intersection of k quorums). It is inclusion-minimal:
	// no node can be dropped. Nil when the system is nondominated.
	Witness *set.Set
	// Smallest reports that no witness has fewer nodes than Witness (set by
	// [DecideSmallest], and for threshold systems by [Decide]).
	Smallest bool
	// Proof, when Smallest is set, says how that was proved.
	Proof Proof
	// PlaneOrder is q when [DecideSmallest] recognised the system as a
	// projective plane of order q (from its lines), or [Decide] did
	// (Structure is [StructurePlane]); 0 otherwise.
	PlaneOrder int
	// ClosedForm reports that the verdict came from the threshold formula
	// rather than a search.
	ClosedForm bool
	// Structure names the structure [Decide] recognised in an explicit
	// list and decided by it (checked on the quorums, never taken from the
	// file's kind): [StructureThreshold], [StructurePlane] or
	// [StructureJoin]; empty when the general engines decided.
	Structure string
	// Inner, with [StructureJoin], is the node set M on which the system
	// splits as Kuo's join C1 ⊕x C2: C2's nodes.
	Inner *set.Set
	// Theorem, when not empty, cites the theorem that gave the verdict
	// on an implicit family too large to list (see [ByTheorem]).
	Theorem string
	// LowerBound, from [DecideSmallest], is a proved lower bound on the
	// size of every witness: Witness.Len() when Smallest is set.
	LowerBound int
	// Partial reports that [DecideSmallest] stopped (its context done)
	// after finding Witness but before proving it smallest: the smallest
	// witness has between LowerBound and Witness.Len() nodes.
	Partial bool
}

// Decide reports whether the coterie or k-arbiter f (k = f.K) is dominated,
// and if so returns a minimal witness H (Kuo, JISE 2001, Theorems 1 and 2;
// Garcia-Molina and Barbara, JACM 1985). f must be a coterie (k-arbiter):
// every two (k+1) quorums intersect; package verify checks that. Quorums
// that contain other quorums do not change the answer.
//
// For k = 1 the question is whether the quorum hypergraph is 2-colourable,
// asked of a SAT solver: one variable per node (in H or not), and for each
// quorum the clauses "some node in H" and "some node not in H". For k > 1,
// P1 gives the second kind of clause and P2 one clause per k-wise
// intersection, added lazily: solve, look for k quorums whose intersection
// the candidate misses ([verify.FindDisjoint] on the quorums cut down to
// H), add that intersection as a clause, repeat. A threshold family is
// decided by the closed form of [ThresholdDominated], without enumeration.
//
// Before any search, structure in the list is recognised and checked on
// the quorums (see the package documentation): all w-subsets of the nodes
// in use, the lines of a projective plane, Kuo's join of two systems.
// Result.Structure names it; a join's parts are decided by Decide in turn.
//
// Every witness is shrunk to an inclusion-minimal one and checked with
// [CheckWitness] before it is returned. The SAT search is exponential at
// worst; ctx cancels it, the solver included.
func Decide(ctx context.Context, f *set.Family) (*Result, error) {
	return decideWith(ctx, f, allEngines)
}

// decideWith is Decide with the engines in use.
func decideWith(ctx context.Context, f *set.Family, use engines) (*Result, error) {
	return decideFound(ctx, f, use, nil)
}

// joinSearch records what the search for a join of [decideFound] found:
// whether it ran, and the split (nil: none found).
type joinSearch struct {
	searched bool
	split    *joinSplit
	none     bool // the search proved there is no join
}

// decideFound is decideWith telling found, if not nil, what its own search
// for a join found (the parts' searches are not told).
func decideFound(ctx context.Context, f *set.Family, use engines, found *joinSearch) (*Result, error) {
	g, err := explicitFamily(ctx, f)
	if err != nil {
		return decideUnlisted(f, err)
	}
	f = g
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("domination: %w", err)
	}
	if w, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		return thresholdResult(f.N, w, f.K), nil
	}
	if len(f.Quorums) == 0 {
		return nil, errors.New("domination: the system has no quorums")
	}
	if use&useStructure != 0 {
		if sup, w, ok := thresholdOnSupport(f); ok {
			r := supportThresholdResult(f.N, sup, w, f.K)
			r.Structure = StructureThreshold
			return r, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if p, sup := planeOnSupport(f); p != nil {
			return planeResult(ctx, f, p, sup)
		}
		// A coterie over few nodes is decided outright by the table of
		// subsets, faster than a split.
		if f.K > 1 || use&useUpset == 0 || len(support(f)) > maxUpsetNodes {
			s, none, err := searchJoin(ctx, f, 1)
			if err != nil {
				return nil, err
			}
			if found != nil {
				found.searched, found.split, found.none = true, s, none
			}
			if s != nil {
				return joinResult(ctx, f, s, use)
			}
		}
	}
	h, err := witnessSearch(ctx, f, use)
	if err != nil {
		return nil, err
	}
	if h == nil {
		return &Result{Nondominated: true, K: f.K}, nil
	}
	if h, err = shrink(ctx, f, h); err != nil {
		return nil, err
	}
	if err := CheckWitness(ctx, f, h); err != nil {
		return nil, fmt.Errorf("domination: internal error: the witness found fails the check: %w", err)
	}
	return &Result{K: f.K, Witness: h}, nil
}

// ThresholdDominated reports whether the family of all w-subsets of n
// nodes, as a k-arbiter, is dominated, and whether it is a k-arbiter at
// all (every k+1 quorums meet iff (k+1)·w > k·n).
//
// It is dominated iff (k+1)·w ≥ k·n + 2. Proof: k quorums can leave out
// disjoint sets of n−w nodes each, so the k-wise intersections are exactly
// the sets of at least s = k·w − (k−1)·n nodes (when s ≥ 1; when s ≤ 0 some
// k quorums share no node, P2 fails for every H, and the system is
// nondominated). H meets all of them iff |H| ≥ n − s + 1, and contains no
// quorum iff |H| ≤ w − 1; both hold for some H iff n − s + 1 ≤ w − 1, which
// is (k+1)·w ≥ k·n + 2 (and then s ≥ 1 follows). For k = 1 this is the
// classical 2w ≥ n + 2: majority of an odd n is nondominated, of an even n
// dominated. Manabe's uniform k-arbiter, w = ⌊kn/(k+1)⌋ + 1, is thus
// nondominated iff n ≡ 1 (mod k+1).
func ThresholdDominated(n, w, k int) (dominated, arbiter bool) {
	arbiter = w >= 1 && w <= n && (k+1)*w > k*n
	return arbiter && (k+1)*w >= k*n+2, arbiter
}

// thresholdWitness returns the smallest witness of a dominated threshold
// family: n − s + 1 nodes, s = k·w − (k−1)·n.
func thresholdWitness(n, w, k int) *set.Set {
	s := k*w - (k-1)*n
	h := set.New(n)
	for v := range n - s + 1 {
		h.Add(v)
	}
	return h
}

// thresholdResult is the verdict on the w-of-n threshold system as a
// k-arbiter, by [ThresholdDominated].
func thresholdResult(n, w, k int) *Result {
	dom, _ := ThresholdDominated(n, w, k)
	if !dom {
		return &Result{Nondominated: true, K: k, ClosedForm: true}
	}
	// Every minimal witness has the same size: it is also the smallest.
	return &Result{K: k, Witness: thresholdWitness(n, w, k), Smallest: true, Proof: ProofClosedForm, ClosedForm: true}
}

// solverSem lets one gophersat solver run at a time in the process:
// gophersat v1.4.0 builds every learned clause in a package-level buffer
// (solver.bufLits) that all solvers share, so two running at once corrupt
// each other's learned clauses, and with them their answers. Holding it
// from the start of Solve to the end of the solver's goroutine makes
// Decide and DecideSmallest safe for concurrent use.
var solverSem = make(chan struct{}, 1)

// problem is a SAT problem whose solver is built by the goroutine that
// solves it, under the semaphore. gophersat takes seconds to index a few
// hundred thousand clauses and cannot be interrupted while it does: a
// cancellation then waits for the parse to end. s is nil until the first
// solve has built it.
type problem struct {
	build func() *solver.Solver
	s     *solver.Solver
}

// parsed returns the problem of clauses over nvars variables (DIMACS
// literals); it keeps clauses.
func parsed(clauses [][]int, nvars int) *problem {
	return &problem{build: func() *solver.Solver {
		return solver.New(solver.ParseSliceNb(clauses, nvars))
	}}
}

// solve builds p's solver if it has none and runs it until it answers or
// ctx is done, one solver at a time (see solverSem). Both steps run in a
// goroutine that solve stops on cancellation and waits for.
//
// gophersat has no way to stop Solve, but in certified mode it sends every
// learned clause on CertChan. When ctx can be cancelled, solve drains that
// channel as the solver runs; on cancellation it closes the channel: the
// solver's next send panics, which ends its goroutine (recovered there)
// and frees the semaphore for the next solver; solve returns once it has.
// A goroutine still building its solver, or in a stretch without learning,
// runs on until it gets there. Under the race detector, which reports
// a close racing with a send even though the outcome here is defined (the
// send panics), the channel is left open and the solver finishes in the
// background before the next one starts. Certified mode costs time, as
// gophersat formats each learned clause as a string: 1.3 to 1.7× on long
// UNSAT searches; it is on only when ctx has a Done channel. p must not be
// used after a cancellation.
//
// A panic inside the solver (gophersat v1.4.0 has been seen to index out of
// range in clause learning on long UNSAT searches, which the shared buffer
// may explain) becomes an error.
func solve(ctx context.Context, p *problem) (solver.Status, error) {
	select {
	case solverSem <- struct{}{}:
	case <-ctx.Done():
		return solver.Indet, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		<-solverSem
		return solver.Indet, err
	}
	var cert chan string
	if ctx.Done() != nil {
		cert = make(chan string, 64)
	}
	type answer struct {
		s   *solver.Solver
		st  solver.Status
		err error
	}
	done := make(chan answer, 1)
	s := p.s
	go func() {
		defer func() { <-solverSem }()
		defer func() {
			if r := recover(); r != nil {
				done <- answer{nil, solver.Indet, fmt.Errorf("domination: the SAT solver failed: %v", r)}
			}
		}()
		if s == nil {
			s = p.build()
			if ctx.Err() != nil {
				done <- answer{nil, solver.Indet, ctx.Err()}
				return
			}
		}
		// The solver is not running: its fields may be set.
		s.Certified, s.CertChan = cert != nil, cert
		done <- answer{s, s.Solve(), nil}
	}()
	for {
		select {
		case <-cert: // a nil channel, never ready, when ctx cannot be cancelled
		case a := <-done:
			if a.err == nil {
				p.s = a.s
			}
			return a.st, a.err
		case <-ctx.Done():
			if !raceDetector {
				close(cert)
				<-done // the solver's next send panics and ends it
			}
			return solver.Indet, ctx.Err()
		}
	}
}

// colour decides a coterie: it returns a set H such that H and its
// complement both meet every quorum, or nil if there is none.
func colour(ctx context.Context, f *set.Family) (*set.Set, error) {
	total := 0
	for i := range f.Quorums {
		total += 2 * f.Quorums[i].Len()
	}
	// One backing array for every clause.
	buf := make([]int, 0, total)
	cnf := make([][]int, 0, 2*len(f.Quorums))
	for i := range f.Quorums {
		start := len(buf)
		for v := range f.Quorums[i].All() {
			buf = append(buf, v+1)
		}
		mid := len(buf)
		for _, x := range buf[start:mid] {
			buf = append(buf, -x)
		}
		cnf = append(cnf, buf[start:mid:mid], buf[mid:len(buf):len(buf)])
	}
	return solveModel(ctx, parsed(cnf, f.N), f.N)
}

// CheckWitness checks, independently of the search that found it, that h
// is a witness of Kuo's Theorem 1 or 2 for f: h contains no quorum (R1, P1)
// and meets every quorum (R2) or, for k > 1, every intersection of k
// quorums (P2, through [verify.FindDisjoint] on the quorums cut down to h).
// It returns nil or an error naming the quorums that fail (1-based).
func CheckWitness(ctx context.Context, f *set.Family, h *set.Set) error {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return err
	}
	if w, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		n, k := f.N, f.K
		c := 0
		for v := range h.All() {
			if v >= n {
				return fmt.Errorf("node %d is outside 1..%d", v+1, n)
			}
			c++
		}
		if c >= w {
			return fmt.Errorf("it has %d nodes and so contains a quorum (all %d-subsets)", c, w)
		}
		if s := k*w - (k-1)*n; n-c >= s {
			if k == 1 {
				return fmt.Errorf("it misses %d nodes, enough for a quorum", n-c)
			}
			return fmt.Errorf("it misses %d nodes, enough for the intersection of %d quorums", n-c, k)
		}
		return nil
	}
	if m, ok := h.Max(); ok && m >= f.N {
		return fmt.Errorf("node %d is outside 1..%d", m+1, f.N)
	}
	for i := range f.Quorums {
		q := &f.Quorums[i]
		if set.Subset(q, h) {
			return fmt.Errorf("it contains quorum %d", i+1)
		}
		if !set.Intersects(q, h) {
			return fmt.Errorf("it misses quorum %d", i+1)
		}
	}
	if f.K == 1 {
		return nil
	}
	ks, err := missedIntersection(ctx, f, h)
	if err != nil {
		return err
	}
	if ks != nil {
		return fmt.Errorf("it misses the intersection of quorums %s", oneBased(ks))
	}
	return nil
}

func oneBased(xs []int) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(x + 1)
	}
	return s
}

// shrink drops nodes from the witness h while it stays one, in increasing
// order, and returns an inclusion-minimal witness. Dropping nodes never
// makes h contain a quorum, so only R2 (P2) needs watching: for k = 1 a node
// may go when every quorum through it keeps another node of h.
func shrink(ctx context.Context, f *set.Family, h *set.Set) (*set.Set, error) {
	if f.K > 1 {
		return shrinkArbiter(ctx, f, h)
	}
	count := make([]int, len(f.Quorums))
	through := make([][]int, f.N)
	for i := range f.Quorums {
		for v := range f.Quorums[i].All() {
			if h.Has(v) {
				count[i]++
				through[v] = append(through[v], i)
			}
		}
	}
	out := h.Clone()
	for v := range h.All() {
		ok := true
		for _, i := range through[v] {
			if count[i] < 2 {
				ok = false
				break
			}
		}
		if ok {
			out.Remove(v)
			for _, i := range through[v] {
				count[i]--
			}
		}
	}
	return out, nil
}
