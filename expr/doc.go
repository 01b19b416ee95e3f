// Package expr holds quorum expressions: a small language that writes a
// family of quorums as a monotone formula over nodes, in the style of
// Whittaker et al., "Read-Write Quorum Systems Made Practical" (PaPoC 2021).
//
//	a*b*c + d*e*f          two rows: {a,b,c} or {d,e,f}
//	(a + b + c) * (d + e)  one node of each group
//	choose(2, a, b, c)     any two of a, b, c
//
// `+` is or, `*` is and (binding tighter than `+`), and choose(K, E1, …, En)
// holds when at least K of its arguments hold. A leaf is a node label or a
// node id (1..n). A set of nodes is a quorum when it satisfies the formula;
// [Expr.MinimalQuorums] lists the inclusion-minimal ones lazily, and
// [Expr.Dual] is the formula whose minimal quorums are the minimal
// transversals of the original's (swap + and *, choose(K of n) becomes
// choose(n−K+1)).
package expr
