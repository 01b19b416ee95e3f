// Package rw holds read-write quorum systems: a family R of read quorums and
// a family W of write quorums over nodes 0..n-1 such that every read quorum
// meets every write quorum (a coterie is the case R = W). Either side is a
// quorum expression (package expr), a list or a threshold; given one side,
// the other is its dual, the minimal transversals.
//
// The package checks the intersection with a witness pair, computes read,
// write and overall resilience with a failing set, and finds optimal access
// strategies exactly, in rational arithmetic: the load and capacity of
// Naor and Wool extended to read/write workloads and unequal nodes, the
// expected latency and network load, f-resilient strategies, and
// optimisation of one metric under limits on the others, following
// Whittaker, Charapko, Hellerstein, Howard and Stoica, "Read-Write Quorum
// Systems Made Practical" (PaPoC 2021) and its library quoracle.
package rw
