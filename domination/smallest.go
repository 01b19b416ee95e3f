package domination

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/coterie-dev/coterie/set"
	"github.com/crillab/gophersat/solver"
)

// Proof names the argument by which [DecideSmallest] knows that no witness
// is smaller than the one it returns.
type Proof string

const (
	// ProofClosedForm: a threshold system, whose minimal witnesses all have
	// the same size (see [ThresholdDominated]).
	ProofClosedForm Proof = "closed-form"
	// ProofSolver: the SAT solver found no witness one node smaller.
	ProofSolver Proof = "solver"
	// ProofBruen: the system is a projective plane of order q (checked from
	// its lines) and the witness has ⌈q+√q+1⌉ points, Bruen's lower bound
	// for a blocking set that contains no line ([BruenBound]).
	ProofBruen Proof = "bruen"
	// ProofBruenSolver: a projective plane of order q that is not PG(2,q);
	// Bruen's bound rules out the sizes below it and the SAT solver each
	// size from there up to the witness's, less one.
	ProofBruenSolver Proof = "bruen+solver"
	// ProofBruenSymmetry: a plane isomorphic to PG(2,q) (checked by an
	// explicit isomorphism); as ProofBruenSolver, but the solver works up to
	// the collineations of PG(2,q) (see smallestInPlane).
	ProofBruenSymmetry Proof = "bruen+solver+symmetry"
	// ProofExhaustive: the support is small enough (at most 26 nodes) for
	// a table of every subset, which says of each whether it is a witness:
	// none with fewer nodes is.
	ProofExhaustive Proof = "exhaustive"
)

// BruenBound returns ⌈q+√q+1⌉: in a projective plane of order q ≥ 2, a
// blocking set that contains no line has at least this many points (Bruen,
// "Baer subplanes and blocking sets", Bull. AMS 76, 1970), with equality
// exactly for Baer subplanes, when q is a square. So a projective plane's
// smallest witness has at least BruenBound(q) points.
func BruenBound(q int) int {
	r := 0
	for r*r < q {
		r++
	}
	return q + r + 1
}

// DecideSmallest is [Decide] with a witness of minimum size and a proof that
// it is minimum: for a projective plane, a smallest blocking set that
// contains no line. Result.Smallest is set when the system is dominated, and
// Result.Proof says how minimality was proved.
//
// When f is a projective plane of order q, checked from its lines (its kind
// is not trusted), the search climbs from Bruen's bound ([BruenBound]) with
// constraints that hold in every projective plane, and, when the plane is
// isomorphic to PG(2,q), up to its collineations; see smallestInPlane. That
// settles PG(2,q) for q ≤ 9 in milliseconds. Otherwise it finds a minimal
// witness, then asks the SAT solver for one of at most b−1 nodes (a
// totalizer cardinality constraint) until the answer is UNSAT, which proves
// the last witness smallest.
//
// The cost is exponential at worst; ctx cancels it, solver included.
func DecideSmallest(ctx context.Context, f *set.Family) (*Result, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	return decideSmallest(ctx, f, true, allEngines)
}

// decideSmallest is DecideSmallest; geometry = false skips the projective
// plane path, and use the engines, for tests that compare them.
func decideSmallest(ctx context.Context, f *set.Family, geometry bool, use engines) (*Result, error) {
	r, err := decideWith(ctx, f, use)
	if err != nil || r.Nondominated {
		return r, err
	}
	return smallestFrom(ctx, f, r, geometry, use)
}

// bySolver reports whether smallestFrom proves r's witness smallest with
// the solver alone (improve), the path that a split run divides.
func bySolver(f *set.Family, r *Result, geometry bool, use engines) bool {
	if r.Nondominated || r.Smallest || geometry && asPlane(f) != nil {
		return false
	}
	return f.K != 1 || use&useUpset == 0 || len(support(f)) > maxUpsetNodes
}

// smallestFrom is decideSmallest after decideWith found r, dominated.
func smallestFrom(ctx context.Context, f *set.Family, r *Result, geometry bool, use engines) (*Result, error) {
	if r.Smallest {
		r.LowerBound = r.Witness.Len()
		return r, nil
	}
	if geometry {
		if p := asPlane(f); p != nil {
			return smallestInPlane(ctx, f, p, r.Witness)
		}
	}
	if f.K == 1 && use&useUpset != 0 {
		if sup := support(f); len(sup) <= maxUpsetNodes {
			u, err := newUpset(ctx, f, sup)
			if err != nil {
				return partial(1, r.Witness, coverBound(f), err)
			}
			h, err := u.witness(ctx, f.N, true)
			if err != nil {
				return partial(1, r.Witness, coverBound(f), err)
			}
			if err := CheckWitness(ctx, f, h); err != nil {
				return nil, fmt.Errorf("domination: internal error: the smallest witness fails the check: %w", err)
			}
			return &Result{K: 1, Witness: h, Smallest: true, Proof: ProofExhaustive, LowerBound: h.Len()}, nil
		}
	}
	return improve(ctx, f, r.Witness)
}

// improve asks the solver for ever smaller witnesses than first until
// there is none, which proves the last one smallest. Stopped early, it
// returns the best witness so far, marked partial, with the bound of
// coverBound.
//
// The witness it returns is fixed by f and first alone, whatever the
// questions on the way: first when no witness is smaller, otherwise the
// shrunk answer to "a witness of at most b nodes" for b the smallest size
// (asked once more if the descent jumped past it). A split run
// ([SmallestShard]) asks that question in the shard that owns size b, so
// that its merge returns the same witness.
func improve(ctx context.Context, f *set.Family, first *set.Set) (*Result, error) {
	best, asked := first, -1
	for {
		h, err := boundedAnswer(ctx, f, best.Len()-1)
		if err != nil {
			return partial(f.K, best, coverBound(f), err)
		}
		if h == nil {
			break
		}
		if h.Len() >= best.Len() {
			return nil, fmt.Errorf("domination: internal error: a witness of at most %d nodes has %d", best.Len()-1, h.Len())
		}
		asked, best = best.Len()-1, h
	}
	if best != first && asked != best.Len() {
		h, err := boundedAnswer(ctx, f, best.Len())
		if err != nil {
			return partial(f.K, best, best.Len(), err)
		}
		if h == nil || h.Len() != best.Len() {
			return nil, fmt.Errorf("domination: internal error: no witness of the smallest size %d on a second question", best.Len())
		}
		best = h
	}
	return &Result{K: f.K, Witness: best, Smallest: true, Proof: ProofSolver, LowerBound: best.Len()}, nil
}

// boundedAnswer is the answer to "a witness of at most b nodes": nil if
// there is none, or the solver's witness shrunk to a minimal one, checked.
func boundedAnswer(ctx context.Context, f *set.Family, b int) (*set.Set, error) {
	h, err := boundedWitness(ctx, f, b)
	if err != nil || h == nil {
		return nil, err
	}
	if h, err = shrink(ctx, f, h); err != nil {
		return nil, err
	}
	if err := CheckWitness(ctx, f, h); err != nil {
		return nil, fmt.Errorf("domination: internal error: the solver's witness fails the check: %w", err)
	}
	return h, nil
}

// partial returns what DecideSmallest proved before err stopped it: the
// best witness found and a lower bound on every witness's size, with err.
// A cancellation before any witness was found returns no result.
func partial(k int, best *set.Set, lower int, err error) (*Result, error) {
	if best == nil {
		return nil, err
	}
	return &Result{K: k, Witness: best, LowerBound: min(lower, best.Len()), Partial: true}, err
}

// coverBound returns a lower bound on the size of every witness of f that
// needs no search: a witness meets every quorum, and a node lies in at
// most Δ of the m quorums (Δ the largest degree), so it has at least
// ⌈m/Δ⌉ nodes.
func coverBound(f *set.Family) int {
	deg := f.Degrees()
	most := 0
	for _, d := range deg {
		most = max(most, d)
	}
	if most == 0 {
		return 1
	}
	return max(1, (len(f.Quorums)+most-1)/most)
}

// boundedWitness returns a witness of at most b nodes, or nil if there is
// none.
func boundedWitness(ctx context.Context, f *set.Family, b int) (*set.Set, error) {
	return cubeWitness(ctx, f, b, nil, nil)
}

// cubeWitness is boundedWitness with the nodes in and out of the witness
// fixed: in for in, out for out.
func cubeWitness(ctx context.Context, f *set.Family, b int, in, out []int) (*set.Set, error) {
	if b < 1 || len(in) > b {
		return nil, nil
	}
	card := func(c *cnf) {
		nodes := make([]int, f.N)
		for v := range nodes {
			nodes[v] = v + 1
		}
		if b < f.N {
			c.add(-c.totalizer(nodes, b+1)[b])
		}
		for _, v := range in {
			c.add(v + 1)
		}
		for _, v := range out {
			c.add(-(v + 1))
		}
	}
	if f.K > 1 {
		return lazyArbiter(ctx, f, card)
	}
	c := newCNF(f.N)
	witnessClauses(c, f)
	card(c)
	return solveCNF(ctx, c, f.N)
}

// witnessClauses adds Theorem 1's clauses: every quorum has a node in H and
// a node out of it.
func witnessClauses(c *cnf, f *set.Family) {
	for i := range f.Quorums {
		pos := make([]int, 0, f.Quorums[i].Len())
		for v := range f.Quorums[i].All() {
			pos = append(pos, v+1)
		}
		neg := make([]int, len(pos))
		for j, x := range pos {
			neg[j] = -x
		}
		c.add(pos...)
		c.add(neg...)
	}
}

// solveCNF solves c and returns the nodes 0..n−1 true in the model, or nil
// if c is unsatisfiable.
func solveCNF(ctx context.Context, c *cnf, n int) (*set.Set, error) {
	return solveModel(ctx, parsed(c.clauses, c.nvars), n)
}

// solveModel solves p and returns the variables 0..n−1 true in its model
// as a set of nodes, or nil if p is unsatisfiable.
func solveModel(ctx context.Context, p *problem, n int) (*set.Set, error) {
	st, err := solve(ctx, p)
	if err != nil {
		return nil, err
	}
	switch st {
	case solver.Unsat:
		return nil, nil
	case solver.Sat:
		h := set.New(n)
		for v, in := range p.s.Model() {
			if in && v < n {
				h.Add(v)
			}
		}
		return h, nil
	}
	return nil, fmt.Errorf("domination: the SAT solver gave no answer (status %v)", st)
}

// smallestInPlane finds a smallest witness of the projective plane p (the
// lines of f), given a minimal witness best: a smallest nontrivial blocking
// set. It asks the SAT solver, for b = BruenBound(q), b+1, ..., |best|−1,
// for a witness of exactly b points, and stops at the first it gets; sizes
// below Bruen's bound need no search. Each question carries constraints
// that every witness of b points satisfies in every projective plane of
// order q, or, for PG(2,q), some image of it under a collineation (which
// maps witnesses to witnesses of the same size):
//
// Let B be a witness, |B| = b = q + k, and t_i the number of lines that
// meet B in i points.
//
//  1. Every line L meets B in at most k points. L ⊄ B, so take R ∈ L \ B:
//     the q other lines through R each need a point of B, off L, and they
//     share only R. So |B \ L| ≥ q.
//  2. The standard equations Σ t_i = n, Σ i·t_i = b(q+1) (each point is on
//     q+1 lines), Σ i(i−1)·t_i = b(b−1) (two points span one line), and
//     t_0 = 0 give, for m the largest |L ∩ B|, Σ (i−1)(m−i)·t_i ≥ 0, that
//     is m·(b(q+1) − n) ≥ b(b−1): m ≥ mMin. With m = k this is Bruen's
//     (k−1)² ≥ q.
//  3. If L0 meets B in m points, the most any line does, and R ∈ L0 \ B,
//     then the q other lines through R share the b−m points of B off L0,
//     at least one each: each has at most 1 + b − m − q = 1 + k − m.
//
// So B has a line L0 meeting it in m ∈ [mMin, k] points, no line meets it
// in more, and (3) holds on L0. In PG(2,q), collineations act transitively
// on lines; the stabiliser of a line acts on its points as PGL(2,q), which
// is 3-transitive; and the perspectivities with that axis, which fix it
// pointwise, act transitively on the points off it (they include the
// translations of the affine plane). B is not inside one line (a point of
// that line outside B would lie on q lines missing B), and mMin ≥ 3 for
// q ≥ 2 (m = 2 needs b(2q+3−b) ≥ 2n, but b(2q+3−b) ≤ (2q+3)²/4 < 2n). So
// some collineation maps B to a witness that contains three fixed
// points P1, P2, P3 of a fixed line L0, meets L0 in exactly m points, no
// line in more, and contains a fixed point Q off L0. One SAT question per
// m, each UNSAT, proves that no witness has b points. For a plane not
// isomorphic to PG(2,q) only (1) can be added for a proof; the fixed-point
// questions still run first, as a heuristic that may find a witness fast.
func smallestInPlane(ctx context.Context, f *set.Family, p *plane, best *set.Set) (*Result, error) {
	lb := BruenBound(p.q)
	if best.Len() < lb {
		return nil, fmt.Errorf("domination: internal error: a witness of %d points in a projective plane of order %d, below Bruen's bound %d", best.Len(), p.q, lb)
	}
	sym := false
	if ref, err := desarguesian(p.q); err == nil && ref != nil {
		if sym, err = isomorphic(ctx, p, ref); err != nil {
			return partial(1, best, lb, err)
		}
	}
	proof := ProofBruenSolver
	if sym {
		proof = ProofBruenSymmetry
	}
	r := &Result{K: 1, Witness: best, Smallest: true, Proof: proof, PlaneOrder: p.q}
	for b := lb; b < best.Len(); b++ {
		h, err := planeWitness(ctx, p, b, sym)
		if err != nil {
			return partial(1, best, b, err) // none below b points
		}
		if h == nil {
			continue
		}
		if h, err = shrink(ctx, f, h); err != nil {
			return partial(1, best, b, err)
		}
		if h.Len() != b {
			return nil, fmt.Errorf("domination: internal error: a witness of %d points shrinks to %d, but none smaller exists", b, h.Len())
		}
		if err := CheckWitness(ctx, f, h); err != nil {
			return nil, fmt.Errorf("domination: internal error: the solver's witness fails the check: %w", err)
		}
		r.Witness = h
		break
	}
	if r.Witness.Len() == lb {
		r.Proof = ProofBruen
	}
	r.LowerBound = r.Witness.Len()
	return r, nil
}

// planeWitness returns a witness of exactly b points of the plane p, or nil
// if there is none. sym says that p is isomorphic to PG(2,q): then the
// questions with fixed points are a proof (see smallestInPlane); otherwise
// they are tried first and a question without them settles the matter.
func planeWitness(ctx context.Context, p *plane, b int, sym bool) (*set.Set, error) {
	k := b - p.q
	if minMaxMeet(p, b) > k {
		return nil, nil // (1) and (2) contradict: Bruen's bound
	}
	for m := k; m >= minMaxMeet(p, b); m-- {
		h, err := planeCase(ctx, p, b, m)
		if h != nil || err != nil {
			return h, err
		}
	}
	if sym {
		return nil, nil
	}
	return planeCase(ctx, p, b, 0)
}

// minMaxMeet returns mMin of smallestInPlane: the smallest m ≥ 1 with
// m·(b(q+1) − n) ≥ b(b−1), a lower bound on the largest number of points a
// line shares with a witness of b points. It exceeds b when there is none.
func minMaxMeet(p *plane, b int) int {
	d := b*(p.q+1) - p.n
	if d <= 0 {
		return b + 1
	}
	return max(1, (b*(b-1)+d-1)/d)
}

// planeCase asks for a witness of exactly b points of p. With m > 0 it adds
// the constraints of smallestInPlane: line 0 meets H in exactly m points
// and no line in more, H contains the first min(m,3) points of line 0 and
// the first point off it, and (3). With m = 0 it adds only (1).
func planeCase(ctx context.Context, p *plane, b, m int) (*set.Set, error) {
	k := b - p.q
	c := newCNF(p.n)
	vars := func(pts []int32, skip int) []int {
		out := make([]int, 0, len(pts))
		for _, v := range pts {
			if int(v) != skip {
				out = append(out, int(v)+1)
			}
		}
		return out
	}
	for _, pts := range p.lines {
		line := vars(pts, -1)
		neg := make([]int, len(line))
		for i, x := range line {
			neg[i] = -x
		}
		c.add(line...)
		c.add(neg...)
		if m > 0 {
			c.atMost(line, m)
		} else {
			c.atMost(line, k)
		}
	}
	if m > 0 {
		l0 := p.lines[0]
		c.atLeast(vars(l0, -1), m)
		for _, v := range l0[:min(m, 3)] {
			c.add(int(v) + 1)
		}
		for v := range p.n {
			if !p.line(0).Has(v) {
				c.add(v + 1)
				break
			}
		}
		for _, r := range l0 {
			for _, l := range p.through[r] {
				if l != 0 {
					c.atMost(vars(p.lines[l], int(r)), 1+k-m, int(r)+1)
				}
			}
		}
	}
	nodes := make([]int, p.n)
	for v := range nodes {
		nodes[v] = v + 1
	}
	out := c.totalizer(nodes, b+1)
	c.add(out[b-1])
	if b < p.n {
		c.add(-out[b])
	}
	return solveCNF(ctx, c, p.n)
}

// SmallestPart is one shard's share of [DecideSmallest], for
// [MergeSmallest]. A run that proves its witness smallest with the solver
// alone is split by size and by cube: every shard finds the same first
// minimal witness (its size U fixes the split); the candidate sizes are
// b = Lower, ..., U−1 (Lower is the bound of a counting argument), and
// each question "a witness of at most b nodes?" is cut into Cubes cubes,
// which fix the nodes of the most quorums in or out of the witness (each
// cube its own pattern, so that together they cover every witness).
// Piece p is size Lower + p / Cubes, cube p mod Cubes. The hard questions,
// just below the smallest size, are answered no cube by cube, on
// different shards. Shard I answers the pieces it owns. The merge takes
// the smallest size some cube answered yes, and asks the solver once more
// for the witness DecideSmallest returns for that size (an easy question:
// there is one); no yes leaves First. The other runs (a nondominated,
// threshold, projective-plane or small system) are not split: the shard
// that owns piece 0 does all of it.
type SmallestPart struct {
	// Sizes is the number of candidate sizes, Cubes the number of cubes
	// per size; Sizes is 0 when the run is not split.
	Sizes, Cubes int
	// Lower is the size of pieces 0 .. Cubes−1.
	Lower int
	// First is the first minimal witness found (nil when not split).
	First *set.Set
	// Whole is the whole result, when the run is not split, in the shard
	// that owns piece 0; nil otherwise.
	Whole *Result
	// Answers are this shard's answers, in the order of the pieces.
	Answers []SizeAnswer
}

// SizeAnswer is the answer to "a witness of at most Size nodes in cube
// Cube?": a minimal one (shrunk from the solver's), or nil for none.
type SizeAnswer struct {
	Size, Cube int
	Witness    *set.Set
}

// cubeBits is the number of nodes a cube fixes (at most): 2^cubeBits cubes
// per size.
const cubeBits = 6

// cubeNodes returns the nodes the cubes of f fix, spread over the quorums:
// each time the node in the most quorums that none of those chosen is in
// (in the most quorums of all when every node shares one), the lowest
// first among equals.
func cubeNodes(f *set.Family) []int {
	deg := f.Degrees()
	covered := make([]bool, len(f.Quorums))
	var nodes []int
	for len(nodes) < min(cubeBits, f.N) {
		best, bestFree, bestDeg := -1, -1, -1
		for v := range f.N {
			if slices.Contains(nodes, v) {
				continue
			}
			free := 0
			for i := range f.Quorums {
				if !covered[i] && f.Quorums[i].Has(v) {
					free++
				}
			}
			if free > bestFree || free == bestFree && deg[v] > bestDeg {
				best, bestFree, bestDeg = v, free, deg[v]
			}
		}
		nodes = append(nodes, best)
		for i := range f.Quorums {
			if f.Quorums[i].Has(best) {
				covered[i] = true
			}
		}
	}
	return nodes
}

// cube splits the cube nodes into those in and out of the witness in
// cube c: bit j of c puts node j in.
func cube(nodes []int, c int) (in, out []int) {
	for j, v := range nodes {
		if c>>j&1 == 1 {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out
}

// SmallestShard does the share of DecideSmallest(ctx, f) of the shard
// that owns the pieces p with owns(p) (see [SmallestPart]). A shard that
// ctx stops returns the error and no part.
func SmallestShard(ctx context.Context, f *set.Family, owns func(p int) bool) (*SmallestPart, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	return smallestShard(ctx, f, owns, true, allEngines, nil, nil)
}

// SmallestShardFrom is [SmallestShard] resuming an earlier run of the
// same shard on f: known are the answers it saved, which are not asked
// again. After each new answer it calls save, if not nil, with the part so
// far; an error from save stops it. Stopped by ctx, it returns the part so
// far with the error, so that the caller can save it (nil if it stopped
// before the split was known).
func SmallestShardFrom(ctx context.Context, f *set.Family, owns func(p int) bool, known []SizeAnswer, save func(*SmallestPart) error) (*SmallestPart, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	return smallestShard(ctx, f, owns, true, allEngines, known, save)
}

// smallestShard is SmallestShardFrom with the options of decideSmallest.
func smallestShard(ctx context.Context, f *set.Family, owns func(p int) bool, geometry bool, use engines, known []SizeAnswer, save func(*SmallestPart) error) (*SmallestPart, error) {
	r, err := decideWith(ctx, f, use)
	if err != nil {
		return nil, err
	}
	if !bySolver(f, r, geometry, use) {
		part := &SmallestPart{}
		if owns(0) {
			if !r.Nondominated {
				if r, err = smallestFrom(ctx, f, r, geometry, use); err != nil {
					return nil, err
				}
			}
			part.Whole = r
		}
		return part, nil
	}
	nodes := cubeNodes(f)
	lower := min(coverBound(f), r.Witness.Len())
	part := &SmallestPart{Sizes: r.Witness.Len() - lower, Cubes: 1 << len(nodes), Lower: lower, First: r.Witness}
	pieces := part.Sizes * part.Cubes
	have := map[[2]int]*set.Set{}
	for _, a := range known {
		p := (a.Size-lower)*part.Cubes + a.Cube
		if a.Size < lower || a.Cube < 0 || a.Cube >= part.Cubes || p >= pieces || !owns(p) {
			return nil, fmt.Errorf("domination: a saved answer for %d nodes, cube %d, is not one of this shard's", a.Size, a.Cube)
		}
		if a.Witness != nil && (a.Witness.Len() > a.Size || CheckWitness(ctx, f, a.Witness) != nil) {
			return nil, fmt.Errorf("domination: the saved witness for %d nodes is not a witness of at most %d nodes", a.Size, a.Size)
		}
		have[[2]int{a.Size, a.Cube}] = a.Witness
	}
	for p := range pieces {
		if !owns(p) {
			continue
		}
		a := SizeAnswer{Size: lower + p/part.Cubes, Cube: p % part.Cubes}
		if h, ok := have[[2]int{a.Size, a.Cube}]; ok {
			a.Witness = h
			part.Answers = append(part.Answers, a)
			continue
		}
		in, out := cube(nodes, a.Cube)
		h, err := cubeWitness(ctx, f, a.Size, in, out)
		if err == nil && h != nil {
			if h, err = shrink(ctx, f, h); err == nil {
				err = CheckWitness(ctx, f, h)
			}
		}
		if err != nil {
			return part, err
		}
		a.Witness = h
		part.Answers = append(part.Answers, a)
		if save != nil {
			if err := save(part); err != nil {
				return part, err
			}
		}
	}
	return part, nil
}

// SmallestProved returns what the answers of the parts so far prove (parts
// of one split run, some missing or unfinished): the smallest witness
// known (First, or a smaller answer) and a lower bound on every witness's
// size (b + 1 when every cube of size b is answered no).
func SmallestProved(parts []*SmallestPart) (best *set.Set, lower int) {
	if len(parts) == 0 || parts[0].First == nil {
		return nil, 0
	}
	best, lower = parts[0].First, parts[0].Lower
	no := map[int]int{}
	for _, p := range parts {
		for _, a := range p.Answers {
			switch {
			case a.Witness == nil:
				if no[a.Size]++; no[a.Size] == p.Cubes {
					lower = max(lower, a.Size+1)
				}
			case a.Witness.Len() < best.Len():
				best = a.Witness
			}
		}
	}
	return best, min(lower, best.Len())
}

// MergeSmallest puts together the parts of every shard of one split
// DecideSmallest(ctx, f) and returns what DecideSmallest returns: the same
// witness, proof and bound. For the witness it asks the solver once for
// the smallest size, which has one. It refuses parts that do not fit
// together.
func MergeSmallest(ctx context.Context, f *set.Family, parts []*SmallestPart) (*Result, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, errors.New("domination: merge: no parts")
	}
	first := parts[0]
	var whole *Result
	yes := map[int]bool{}
	seen := map[[2]int]bool{}
	for i, p := range parts {
		if p.Sizes != first.Sizes || p.Cubes != first.Cubes || p.Lower != first.Lower || (p.First == nil) != (first.First == nil) ||
			p.First != nil && !set.Equal(p.First, first.First) {
			return nil, fmt.Errorf("domination: merge: shard %d split sizes %d..%d below a first witness of its own, shard 1 %d..%d: not one split run",
				i+1, p.Lower, p.Lower+p.Sizes-1, first.Lower, first.Lower+first.Sizes-1)
		}
		if p.Whole != nil {
			if whole != nil || p.Sizes > 0 {
				return nil, fmt.Errorf("domination: merge: shard %d holds a whole result where another part does", i+1)
			}
			whole = p.Whole
		}
		for _, a := range p.Answers {
			if a.Size < p.Lower || a.Size >= p.Lower+p.Sizes || a.Cube < 0 || a.Cube >= p.Cubes {
				return nil, fmt.Errorf("domination: merge: shard %d answers for %d nodes, cube %d, outside the split", i+1, a.Size, a.Cube)
			}
			key := [2]int{a.Size, a.Cube}
			if seen[key] {
				return nil, fmt.Errorf("domination: merge: %d nodes, cube %d, are answered twice", a.Size, a.Cube)
			}
			seen[key] = true
			if a.Witness != nil {
				if a.Witness.Len() > a.Size || CheckWitness(ctx, f, a.Witness) != nil {
					return nil, fmt.Errorf("domination: merge: shard %d: its witness for %d nodes is not one", i+1, a.Size)
				}
				yes[a.Size] = true
			}
		}
	}
	if first.Sizes == 0 {
		if whole == nil {
			return nil, errors.New("domination: merge: no part holds the result (the shard that owns piece 0 is missing)")
		}
		return whole, nil
	}
	if first.Sizes < 0 || first.Sizes > f.N || first.Cubes < 1 || first.Cubes > 1<<cubeBits || first.First == nil {
		return nil, fmt.Errorf("domination: merge: %d sizes of %d cubes: not a split of this system", first.Sizes, first.Cubes)
	}
	if first.First.Len() != first.Lower+first.Sizes || CheckWitness(ctx, f, first.First) != nil {
		return nil, errors.New("domination: merge: the parts' first witness is not a witness of this system")
	}
	smallest := first.First.Len()
	for b := first.Lower; b < first.Lower+first.Sizes; b++ {
		for c := range first.Cubes {
			if !seen[[2]int{b, c}] {
				return nil, fmt.Errorf("domination: merge: no part answers for %d nodes, cube %d", b, c)
			}
		}
		if yes[b] && smallest == first.First.Len() {
			smallest = b
		}
		if !yes[b] && smallest < b {
			return nil, fmt.Errorf("domination: merge: a witness of at most %d nodes, but none of at most %d: the parts contradict each other", smallest, b)
		}
	}
	best := first.First
	if smallest < best.Len() {
		h, err := boundedAnswer(ctx, f, smallest)
		if err != nil {
			return nil, err
		}
		if h == nil || h.Len() != smallest {
			return nil, fmt.Errorf("domination: merge: the parts say a witness of %d nodes is the smallest, the solver does not", smallest)
		}
		best = h
	}
	return &Result{K: f.K, Witness: best, Smallest: true, Proof: ProofSolver, LowerBound: best.Len()}, nil
}
