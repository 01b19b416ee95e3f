package lp

import (
	"context"
	"errors"
	"math"
	"math/big"
)

// ErrSingular reports a basis matrix that is singular (or unlucky modulo
// every prime tried).
var ErrSingular = errors.New("lp: basis matrix is singular")

// ErrWork reports that a computation would go past the work it was given.
var ErrWork = errors.New("lp: work limit")

// BasisSolution is the exact solution of a square 0/1 system M z = 1 and
// its transpose Mᵀ y = 1, over a common denominator: z = Z/Det, y = Y/Det,
// with Det > 0.
type BasisSolution struct {
	Z, Y []*big.Int
	Det  *big.Int
}

// SolveBasis solves M z = 1 and Mᵀ y = 1 exactly for the k×k 0/1 matrix
// given by its rows' nonzero columns (rows[i] lists the j with M_ij = 1).
//
// By Cramer's rule z_j = det(M_j)/det(M) and y_i likewise, where M_j has
// column j replaced by ones: integers bounded by Hadamard's inequality.
// They are computed modulo enough word-sized primes to exceed twice that
// bound (LU factorisation modulo each prime, both systems from one
// factorisation) and combined by the Chinese remainder theorem, in
// k³/3 word operations per prime — far less than elimination in
// rationals, whose numbers grow at every step. work is increased by the
// operations spent; past maxWork, counting the primes still needed before
// each is tried, it stops with ErrWork.
func SolveBasis(ctx context.Context, k int, rows [][]int, work *float64, maxWork float64) (*BasisSolution, error) {
	if k == 0 {
		return nil, ErrSingular
	}
	// Hadamard bounds, in bits: |det M| ≤ Π ‖column‖ and ≤ Π ‖row‖; a
	// Cramer numerator swaps one column (row) for the all-ones vector, of
	// norm √k.
	colNNZ := make([]int, k)
	rowBits, colBits := 0.0, 0.0
	minRow := k
	for _, r := range rows {
		if len(r) == 0 {
			return nil, ErrSingular
		}
		rowBits += 0.5 * math.Log2(float64(len(r)))
		minRow = min(minRow, len(r))
		for _, j := range r {
			colNNZ[j]++
		}
	}
	minCol := k
	for _, c := range colNNZ {
		if c == 0 {
			return nil, ErrSingular
		}
		colBits += 0.5 * math.Log2(float64(c))
		minCol = min(minCol, c)
	}
	swap := 0.5 * math.Log2(float64(k)/float64(min(minRow, minCol)))
	bound := math.Min(rowBits, colBits) + swap
	need := bound + 2 // the symmetric residue needs the modulus above twice the bound

	det := new(big.Int)
	z := make([]*big.Int, k)
	y := make([]*big.Int, k)
	for i := range k {
		z[i], y[i] = new(big.Int), new(big.Int)
	}
	modulus := big.NewInt(1)
	a := make([]uint64, k*k)
	perm := make([]int, k)
	bz := make([]uint64, k)
	by := make([]uint64, k)
	var t, pb big.Int
	have, misses := 0.0, 0
	for p := uint64(1<<31 - 1); have < need; p -= 2 {
		if !new(big.Int).SetUint64(p).ProbablyPrime(0) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		perPrime := float64(k) * float64(k) * float64(k) / 3
		if *work+perPrime*math.Ceil((need-have)/30) > maxWork {
			return nil, ErrWork
		}
		d, ok := luSolve(k, rows, p, a, perm, bz, by)
		*work += perPrime
		if !ok {
			if misses++; misses > 3 {
				return nil, ErrSingular
			}
			continue
		}
		// Residues of the numerators: det · solution.
		for i := range k {
			bz[i] = bz[i] * d % p
			by[i] = by[i] * d % p
		}
		pb.SetUint64(p)
		inv := new(big.Int).ModInverse(new(big.Int).Mod(modulus, &pb), &pb).Uint64()
		crt := func(v *big.Int, r uint64) {
			cur := t.Mod(v, &pb).Uint64()
			step := (r + p - cur) % p * inv % p
			v.Add(v, t.Mul(modulus, t.SetUint64(step)))
		}
		crt(det, d)
		for i := range k {
			crt(z[i], bz[i])
			crt(y[i], by[i])
		}
		modulus.Mul(modulus, &pb)
		have += math.Log2(float64(p))
	}
	half := new(big.Int).Rsh(modulus, 1)
	sym := func(v *big.Int) {
		if v.Cmp(half) > 0 {
			v.Sub(v, modulus)
		}
	}
	sym(det)
	for i := range k {
		sym(z[i])
		sym(y[i])
	}
	if det.Sign() == 0 {
		return nil, ErrSingular
	}
	if det.Sign() < 0 {
		det.Neg(det)
		for i := range k {
			z[i].Neg(z[i])
			y[i].Neg(y[i])
		}
	}
	return &BasisSolution{Z: z, Y: y, Det: det}, nil
}

// luSolve factorises M modulo the prime p (P M = L U, partial pivoting on
// any nonzero) and solves M z = 1 into bz and Mᵀ y = 1 into by. It
// returns det M mod p, and false when M is singular modulo p.
func luSolve(k int, rows [][]int, p uint64, a []uint64, perm []int, bz, by []uint64) (uint64, bool) {
	clear(a)
	for i, r := range rows {
		for _, j := range r {
			a[i*k+j] = 1
		}
	}
	for i := range perm {
		perm[i] = i
	}
	det := uint64(1)
	for c := range k {
		piv := -1
		for i := c; i < k; i++ {
			if a[i*k+c] != 0 {
				piv = i
				break
			}
		}
		if piv < 0 {
			return 0, false
		}
		if piv != c {
			rc, rp := a[c*k:c*k+k], a[piv*k:piv*k+k]
			for j := range rc {
				rc[j], rp[j] = rp[j], rc[j]
			}
			perm[c], perm[piv] = perm[piv], perm[c]
			det = (p - det) % p
		}
		pv := a[c*k+c]
		det = det * pv % p
		inv := powMod(pv, p-2, p)
		rc := a[c*k+c+1 : c*k+k]
		for i := c + 1; i < k; i++ {
			f := a[i*k+c]
			if f == 0 {
				continue
			}
			f = f * inv % p
			a[i*k+c] = f // L's multiplier
			ri := a[i*k+c+1 : i*k+k]
			nf := p - f
			for j, v := range rc {
				if v != 0 {
					ri[j] = (ri[j] + nf*v) % p
				}
			}
		}
	}
	// M z = 1: L w = P·1 = 1, then U z = w.
	for i := range k {
		s := uint64(1)
		for j := range i {
			s = (s + (p-a[i*k+j])*bz[j]) % p
		}
		bz[i] = s
	}
	for i := k - 1; i >= 0; i-- {
		s := bz[i]
		for j := i + 1; j < k; j++ {
			s = (s + (p-a[i*k+j])*bz[j]) % p
		}
		bz[i] = s * powMod(a[i*k+i], p-2, p) % p
	}
	// Mᵀ y = 1: Uᵀ w = 1, Lᵀ v = w, y[perm[i]] = v[i].
	w := make([]uint64, k)
	for i := range k {
		s := uint64(1)
		for j := range i {
			s = (s + (p-a[j*k+i])*w[j]) % p
		}
		w[i] = s * powMod(a[i*k+i], p-2, p) % p
	}
	for i := k - 1; i >= 0; i-- {
		s := w[i]
		for j := i + 1; j < k; j++ {
			s = (s + (p-a[j*k+i])*w[j]) % p
		}
		w[i] = s
	}
	for i := range k {
		by[perm[i]] = w[i]
	}
	return det, true
}

// powMod returns b^e mod p.
func powMod(b, e, p uint64) uint64 {
	r := uint64(1)
	b %= p
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % p
		}
		b = b * b % p
	}
	return r
}
