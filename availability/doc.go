// Package availability computes the availability of quorum systems: the
// probability AV(p) that the live nodes contain a quorum when every node is
// up independently with probability p (Kuo, "k-Arbiter join operation",
// JISE 2001, Section 5; the definition is the same for coteries and
// k-arbiters).
//
// The central object is the [Polynomial]: the vector A_0..A_n where A_i is
// the number of i-node subsets that contain a quorum, so that
//
//	AV(p) = Σ A_i p^i (1−p)^(n−i).
//
// The coefficients are exact integers ([math/big]); they outgrow 64 bits
// quickly (C(64,32) ≈ 1.8e18). [Compute] chooses a method by structure,
// never trusting a family's Kind alone (each closed form first checks that
// the quorums are what it assumes):
//
//   - threshold systems (majority, uniform k-arbiters): exact binomial tails;
//   - products of slabs (Maekawa's grid, the (k+1)-cube k-arbiter): an
//     inclusion–exclusion over the full rows/slabs, collapsed to a sum over
//     their numbers (see [Product]);
//   - the classic constructions (tree quorums, hierarchical quorum
//     consensus, crumbling walls, the grid protocol, the B-grid, weighted
//     voting): recurrences over their independent parts (see
//     [TreePolynomial], [WallPolynomial] and their siblings), used once the
//     family is proved to be the construction its Kind names; a plain list
//     with no kind, numbered any way, is recognised as a tree or a
//     crumbling wall from its quorums (the numbering guessed, then proved
//     the same way);
//   - Kuo's join C1 ⊕x C2: Corollary 5 lifted to coefficient vectors (see
//     [Compose]);
//   - projective planes of order 2, 3, 4, 5, 7 and 8: a sweep of the affine
//     plane over GF(q) row by row, its states merged up to symmetry (see
//     [PlanePolynomial]); it gives the first exact polynomial of PG(2,7),
//     n = 57, while PG(2,8), n = 73, takes far longer and runs under the
//     deadline of the exact search;
//   - anything else: a reduced ordered BDD of the monotone function "some
//     quorum is all up", built by apply with a unique table and an operation
//     cache under a node budget, then one bottom-up pass that counts paths
//     by their number of up-branches ([BDD]);
//   - a bit-parallel brute force over all 2^n subsets for n ≤ 30 ([Brute]),
//     which the tests use as the oracle.
//
// When no exact method fits the limits, [Compute] reports what can be proved
// — the exact low-order and high-order coefficients, lower and upper bounds
// — and a seeded Monte Carlo estimate with a confidence interval, always
// flagged as an estimate ([Result.Exact] is false). When the provable
// coefficients turn out to be all of them, the result is exact after all
// (method "inclusion-exclusion").
//
// Limits: [Options.Budget] bounds the BDD's nodes, [Options.Time] the
// search for an exact result, and [Options.MaxMemory] the bytes the exact
// methods hold (the BDD's arena, unique table and operation cache, its
// counting pass, the plane sweep's states); past the memory budget
// [Compute] returns what it proved with an error wrapping
// set.ErrMemoryBudget. Every stage stops promptly when its context ends.
// The proofs of [NewPartial] and the automatic number of Monte Carlo
// samples ([EstimateSamples]) are bounded by counts of work, so they give
// the same result on a slow machine as on a fast one.
//
// Exact BDD computations split into independent pieces by the values of
// the first nodes ([ComputePiece], [RunPieces]) whose contributions add
// up to the polynomial, and estimates into seeded shares of their samples
// ([EstimateShare], [MergeEstimates]): the pieces run on several machines
// or resume from a saved state, with the same answer.
//
// Floating point is used only to evaluate AV(p) at a point (see
// [Polynomial.At]) and for estimates; every coefficient is exact.
package availability
