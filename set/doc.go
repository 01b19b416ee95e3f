// Package set holds the data every other coterie package works on: [Set], a
// set of nodes backed by a bitset; [Family], a coterie or k-arbiter (an
// explicit list of quorums, or the threshold form "every subset of size w");
// [HK], an (h,k)-arbiter with one [Family] per level h; and [System], which
// is either of the two, as a file holds it. A family over wide node ids
// holds its quorums as [Lists], sorted node lists (Family.Sparse), instead
// of a bit set per quorum as long as its largest id.
//
// For the hot loops of exponential searches, [Pack] lays a list of sets
// out as a [Packed] bit matrix: rows of 64-bit [Words], and per node the
// rows that avoid it or contain it, with the word-level operations
// (popcount of an intersection, iteration) the searches need. [Progress]
// is the one progress callback of every long computation.
//
// Nodes are 0-based inside this package and everywhere in Go code: node i of
// the user's file (numbered 1..n, see docs/formats.md) is bit i-1 of a Set. The
// conversion happens only where a file is read or a report is printed.
package set
