// Package domination decides whether a coterie or k-arbiter is dominated,
// with a witness, and works with its transversals (blocking sets).
//
// A coterie C is dominated by another coterie D when D ≠ C and every quorum
// of C contains a quorum of D (Garcia-Molina and Barbara, JACM 32(4),
// 1985). Kuo ("k-Arbiter join operation", JISE 2001, Theorems 1 and 2,
// after Manabe et al.) states the test used here: a k-arbiter C is dominated
// iff some set H of nodes contains no quorum of C (P1) and meets every
// intersection of k quorums of C (P2); for k = 1 this says H and its
// complement both meet every quorum, that is, the quorum hypergraph is
// 2-colourable. Such an H is the witness: adding H to C and dropping the
// quorums that contain it gives a k-arbiter that dominates C.
//
// [Decide] first looks for structure in an explicit list, whatever its
// numbering and order, and checks it on the quorums: a family equal to all
// w-subsets of the nodes it uses (equal sizes, no repeats, C(s, w)
// quorums) is decided by the threshold closed form; the lines of a
// projective plane of order q (q²+q+1 lines of q+1 points, two points on
// exactly one line) are nondominated iff q = 2; Kuo's join C1 ⊕x C2 (a node
// set M on which the quorums factor as R ∪ G) is nondominated iff both
// parts are (Neilsen and Mizuno; Kuo, Corollary 4), each part decided by
// Decide in turn. [Result.Structure] says which decided. A coterie over
// at most 26 nodes in use is decided by a table of every subset (whether
// it contains a quorum), which settles the question outright. Otherwise
// MMCS, stopping at the first minimal transversal that is not a quorum
// (for k > 1: whose complement meets every k-wise intersection), runs
// alongside a SAT solver (github.com/crillab/gophersat, adding the k-wise
// intersections of P2 lazily for k > 1); the answer does not depend on
// which finishes first. Every witness is shrunk to an inclusion-minimal
// one and checked by [CheckWitness] before it is returned. Threshold systems (all w-subsets of n nodes) are decided by
// closed form: dominated iff (k+1)·w ≥ k·n + 2. [MakeND] replaces a
// dominated system by a nondominated one that dominates it.
//
// [DecideSmallest] returns a witness of minimum size with a [Proof] of
// minimality: the solver refuting one node fewer, or, for a system whose
// lines form a projective plane of order q (checked, never taken from the
// file's kind), Bruen's bound q+√q+1 and a solver search that climbs from
// it with constraints valid in every projective plane and, for a plane
// shown isomorphic to PG(2,q), symmetry breaking by its collineations. That
// proves the smallest nontrivial blocking sets of PG(2,q), q ≤ 9 (6, 7, 9,
// 12, 13, 13 points), in milliseconds.
//
// [Transversals] lists the minimal transversals with the MMCS algorithm of
// Murakami and Uno, [CountTransversals] counts them on every core (engines
// for one word, two words and word vectors; a stopped count keeps what it
// counted, marked partial; a large nondominated coterie, checked, by its
// minimal quorums, which are its minimal transversals; a join, by its
// parts), and [MinTransversal] finds a smallest one
// (resilience + 1); [MinTransversalBounded] stops after a count of search
// nodes with proved bounds.
//
// Nodes are 0-based here, as everywhere in Go code.
package domination
