// Package set holds the data every other coterie package works on: [Set], a
// set of nodes backed by a bitset; [Family], a coterie or k-arbiter (an
// explicit list of quorums, or the threshold form "every subset of size w");
// [HK], an (h,k)-arbiter with one [Family] per level h; and [System], which
// is either of the two, as a file holds it.
//
// Nodes are 0-based inside this package and everywhere in Go code: node i of
// the user's file (numbered 1..n, see docs/formats.md) is bit i-1 of a Set. The
// conversion happens only where a file is read or a report is printed.
package set
