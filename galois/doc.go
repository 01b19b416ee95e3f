// Package galois implements the finite fields GF(q) for every prime power
// q = p^m up to 2^16 (65,536), the fields Maekawa's √N algorithm needs for
// the projective planes PG(2,q) of every prime-power order (Maekawa, ACM TOCS
// 3(2), 1985, Section 3).
//
// An element of GF(p^m) is an int in 0..q-1: the polynomial
// c_0 + c_1·x + ... + c_{m-1}·x^{m-1} over GF(p) is the integer
// c_0 + c_1·p + ... + c_{m-1}·p^{m-1}, so that 0 and 1 are the field's zero
// and one, and for a prime q the elements are the residues mod q.
//
// The field is fixed once and for all by its primitive element α:
//
//   - for a prime p (m = 1), α is the least primitive root mod p;
//   - for m ≥ 2, GF(p^m) = GF(p)[x]/(f) where f is the first monic primitive
//     polynomial of degree m when polynomials are ordered by the base-p number
//     c_0 + c_1·p + ... + c_{m-1}·p^{m-1} of their lower coefficients, and α is
//     x (the integer p).
//
// So the same q always gives the same field, element for element.
// Multiplication, division and inversion use logarithm tables
// (α^i ↔ i); addition is exclusive or in characteristic 2, addition mod p for
// a prime, and otherwise a Zech-logarithm table. Every operation is O(1) and
// a field takes O(q) memory (a few hundred KiB at q = 2^16).
package galois
