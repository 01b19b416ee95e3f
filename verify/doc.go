// Package verify decides whether a quorum system is what it claims to be,
// and explains every failure with a witness.
//
// It checks the intersection property of coteries (every two quorums meet),
// of k-arbiters (every k+1 quorums share a node; Manabe and Tajima,
// Definition 2; Kuo, Section 2.2) and of (h,k)-arbiters (for every critical
// conflicting request pattern and every quorum assignment to it, the
// assigned quorums share a node; Manabe and Tajima, Definitions 3–5 and
// Theorem 1), the minimality property, and, as information only, Maekawa's
// properties (b), (c), (d) and the projective-plane property (Maekawa, ACM
// TOCS 3(2), 1985, Section 2). [Byzantine] checks the b-masking and
// b-dissemination properties of Malkhi and Reiter (Distributed Computing
// 11(4), 1998) with witnesses, and [ByzantineMax] finds the largest b.
//
// Threshold families ("every w-subset of n nodes") are decided by counting,
// never by enumeration. Explicit families go through a cover search: t
// quorums have an empty common intersection exactly when their complements
// cover the nodes, so [FindDisjoint] branches on a node of the current
// intersection that the fewest remaining quorums avoid, prunes with a
// counting bound, splits the top of the tree across all cores and stops at
// the first witness. Pairwise intersection of a large family has its own
// bit-parallel path. [Brute] is a plain enumeration kept as an independent
// cross-check.
//
// Positions and nodes are 0-based here, as everywhere in Go code; the
// command line reports them 1-based.
package verify
