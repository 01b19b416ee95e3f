// Package construct builds the quorum systems of the papers behind coterie:
// finite projective planes and Maekawa's degenerate sets and grids, billiard
// quorums, majority and uniform k-arbiters, (k+1)-cube k-arbiters,
// (h,k)-arbiters and Kuo's k-arbiter join.
//
// Every construction is registered as a [Spec] (see [Specs]), which the
// command line lists, documents and dispatches from; adding one means adding
// a Spec next to its function and appending it to the list in registry.go.
// Every constructor returns a canonical system (see [set.Family.Canonical]),
// so that the same parameters always give byte-identical files.
package construct
