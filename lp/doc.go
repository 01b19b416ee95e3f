// Package lp is the linear programming engine of the module: a
// floating-point simplex that finds an optimal basis quickly ([Float]),
// an exact rational simplex that takes that basis, or starts afresh, and
// ends at a proved optimum ([Exact]), both with column generation (columns
// may be added between solves, and the duals read off to price them),
// the exact solution of a square 0/1 basis by [SolveBasis] (modulo word-sized
// primes, combined by the Chinese remainder theorem), and one
// certification, [Certify], that proves a primal and a dual
// solution optimal in exact arithmetic: primal feasible, dual feasible,
// equal objectives.
//
// The programs are
//
//	minimise c·x subject to A x (= or ≤) b, x ≥ 0, with b ≥ 0,
//
// whose dual is maximise b·y subject to Aᵀy ≤ c, y_r ≤ 0 on every ≤ row
// (free on = rows).
package lp
