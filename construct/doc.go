// Package construct builds the quorum systems of the papers behind coterie:
// finite projective planes and Maekawa's degenerate sets and grids, billiard
// quorums, majority and uniform k-arbiters, (k+1)-cube k-arbiters,
// (h,k)-arbiters and Kuo's k-arbiter join; and the classic catalogue beyond
// them: tree quorums, hierarchical quorum consensus, crumbling walls (the
// triangle, CWlog, the wheel), weighted voting, the grid protocol, the
// B-grid, and the Byzantine quorum systems of Malkhi and Reiter (threshold,
// M-Grid, boostFPP). Most catalogue families grow exponentially with n; their
// constructors refuse more than [MaxCatalogueQuorums] quorums, and packages
// availability and measure have closed forms that need no list.
//
// Every construction is registered as a [Spec] (see [Specs]), which the
// command line lists, documents and dispatches from; adding one means adding
// a Spec next to its function and appending it to the list in registry.go.
// Every constructor returns a canonical system (see [set.Family.Canonical]),
// so that the same parameters always give byte-identical files.
package construct
