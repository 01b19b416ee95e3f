package availability

import (
	"context"
	"math/big"
	"math/bits"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"
)

// This file counts the line-free point sets of PG(2,q), q = 7 or 8, by a
// column sweep written independently of plane.go, to prove the stored
// polynomials testdata/pg7.txt and testdata/pg8.txt coefficient by
// coefficient.
//
// Coordinates: the affine points (x, y) over GF(q), the points at infinity
// (1:m:0) of slope m, and P = (0:1:0). The lines are y = m·x + b (q² of
// them, through (1:m:0)), the verticals x = c (through P) and the line at
// infinity (through P). A set S is line-free when it contains none.
//
// The sweep fixes whether P ∈ S (two polynomials per state; with P ∈ S no
// vertical and not the line at infinity may be all live), then takes the
// slopes S∞ live at infinity, then the columns x = 0, 1, … one by one. The
// state is the set of lines y = m·x + b all of whose points seen so far are
// live (bit m·q + b). A column whose live points on the state's lines are R
// keeps the lines through R; its other points are free. The maps
// (x, y) ↦ (x, λ·y + a·x + s), λ ≠ 0, fix every column and send line (m, b)
// to (λm + a, λb + s), so states are merged up to them. The last two
// columns are summed in closed form, and the ones before them (after the
// merged ones) by a depth-first sum without merging, which needs no memory.
//
// Coefficients are kept modulo 2^64 and modulo the prime 2^61 − 1 and put
// together by the Chinese remainder theorem: PG(2,8)'s middle coefficients
// pass 2^64.

// gfTables returns the addition and multiplication tables of GF(q) for a
// prime q ≤ 7 (integers mod q) or q = 4, 8 (polynomials over GF(2) modulo
// x² + x + 1 and x³ + x + 1).
func gfTables(q int) (add, mul [][]int) {
	add, mul = make([][]int, q), make([][]int, q)
	for a := range q {
		add[a], mul[a] = make([]int, q), make([]int, q)
		for b := range q {
			switch q {
			case 2, 3, 5, 7:
				add[a][b], mul[a][b] = (a+b)%q, a*b%q
			case 4, 8:
				mod, k := 0b111, 2
				if q == 8 {
					mod, k = 0b1011, 3
				}
				add[a][b] = a ^ b
				p := 0
				for i := range k {
					if b>>i&1 == 1 {
						p ^= a << i
					}
				}
				for i := 2*k - 2; i >= k; i-- {
					if p>>i&1 == 1 {
						p ^= mod << (i - k)
					}
				}
				mul[a][b] = p
			default:
				panic("gfTables: q must be 2, 3, 4, 5, 7 or 8")
			}
		}
	}
	return add, mul
}

const mersenne61 = 1<<61 - 1

// mulmod61 returns a·b mod 2^61 − 1 for a, b below it.
func mulmod61(a, b uint64) uint64 {
	h, l := bits.Mul64(a, b)
	// a·b = h·2^64 + l with h < 2^58; 2^61 ≡ 1, so 2^64 ≡ 8.
	r := (l & mersenne61) + (l >> 61) + (h << 3)
	for r >= mersenne61 {
		r -= mersenne61
	}
	return r
}

// mpoly is a polynomial in t with coefficients kept modulo 2^64 (lo) and
// modulo 2^61 − 1 (hi).
type mpoly struct{ lo, hi []uint64 }

func newMpoly(n int) mpoly { return mpoly{make([]uint64, n), make([]uint64, n)} }

// monomial returns sign·t^k with sign ±1.
func monomial(k, sign int) mpoly {
	p := newMpoly(k + 1)
	p.lo[k], p.hi[k] = 1, 1
	if sign < 0 {
		p.lo[k], p.hi[k] = ^uint64(0), mersenne61-1
	}
	return p
}

// addMul adds a·b to p; p must be long enough for the product's nonzero
// terms.
func (p mpoly) addMul(a, b mpoly) {
	for i, x := range a.lo {
		xh := a.hi[i]
		if x == 0 && xh == 0 {
			continue
		}
		for j, y := range b.lo {
			p.lo[i+j] += x * y
			p.hi[i+j] = (p.hi[i+j] + mulmod61(xh, b.hi[j])) % mersenne61
		}
	}
}

// addTo adds a to p.
func (p mpoly) addTo(a mpoly) {
	for i := range a.lo {
		p.lo[i] += a.lo[i]
		p.hi[i] = (p.hi[i] + a.hi[i]) % mersenne61
	}
}

// columnSweep holds the tables of the sweep for one q.
type columnSweep struct {
	q, n     int
	add, mul [][]int
	rowMap   [][][]uint16 // rowMap[λ][s][B] = λ·B + s, B a set of intercepts
	free     [][]mpoly    // free[k][r] = t^r·(1+t)^k: r live points, k free
	binom    []mpoly      // binom[b] = (1+t)^b
	through  [][]uint64   // through[c][y]: the lines through (c, y)
	within   [][]uint64   // within[c][r]: the lines through a point (c, y), y ∈ r
	negFull  mpoly        // −t^q
}

func newColumnSweep(q int) *columnSweep {
	add, mul := gfTables(q)
	s := &columnSweep{q: q, n: q*q + q + 1, add: add, mul: mul, negFull: monomial(q, -1)}
	s.rowMap = make([][][]uint16, q)
	for l := 1; l < q; l++ {
		s.rowMap[l] = make([][]uint16, q)
		for sh := range q {
			m := make([]uint16, 1<<q)
			for B := range 1 << q {
				var r uint16
				for b := range q {
					if B>>b&1 == 1 {
						r |= 1 << add[mul[l][b]][sh]
					}
				}
				m[B] = r
			}
			s.rowMap[l][sh] = m
		}
	}
	s.free = make([][]mpoly, q+1)
	for k := 0; k <= q; k++ {
		s.free[k] = make([]mpoly, q+1)
		for r := 0; r+k <= q; r++ {
			w := newMpoly(r + k + 1)
			for i := 0; i <= k; i++ {
				c := new(big.Int).Binomial(int64(k), int64(i)).Uint64()
				w.lo[r+i], w.hi[r+i] = c, c%mersenne61
			}
			s.free[k][r] = w
		}
	}
	s.through, s.within = make([][]uint64, q), make([][]uint64, q)
	for c := range q {
		s.through[c] = make([]uint64, q)
		for m := range q {
			for b := range q {
				s.through[c][s.point(m, b, c)] |= 1 << (m*q + b)
			}
		}
		s.within[c] = make([]uint64, 1<<q)
		for r := range 1 << q {
			for y := range q {
				if r>>y&1 == 1 {
					s.within[c][r] |= s.through[c][y]
				}
			}
		}
	}
	s.binom = make([]mpoly, s.n+1)
	for b := range s.binom {
		w := newMpoly(b + 1)
		for i := 0; i <= b; i++ {
			c := new(big.Int).Binomial(int64(b), int64(i))
			w.lo[i] = new(big.Int).Mod(c, new(big.Int).Lsh(big.NewInt(1), 64)).Uint64()
			w.hi[i] = new(big.Int).Mod(c, big.NewInt(mersenne61)).Uint64()
		}
		s.binom[b] = w
	}
	return s
}

// point returns the point in column c of line (m, b): y = m·c + b.
func (s *columnSweep) point(m, b, c int) int { return s.add[s.mul[m][c]][b] }

// pts returns the points in column c of the lines of x.
func (s *columnSweep) pts(x uint64, c int) int {
	p := 0
	for y, through := range s.through[c] {
		if x&through != 0 {
			p |= 1 << y
		}
	}
	return p
}

// keep returns the lines of x whose point in column c is in r.
func (s *columnSweep) keep(x uint64, c, r int) uint64 { return x & s.within[c][r] }

// canon returns the largest image of x under (m, b) ↦ (λm + a, λb + s).
func (s *columnSweep) canon(x uint64) uint64 {
	q := s.q
	mask := uint64(1)<<q - 1
	var best uint64
	var tr [8]uint16
	for l := 1; l < q; l++ {
		for sh := range q {
			rm := s.rowMap[l][sh]
			for m := range q {
				tr[s.mul[l][m]] = rm[x>>(m*q)&mask]
			}
			for a := range q {
				var y uint64
				for m := range q {
					y |= uint64(tr[m]) << (s.add[m][a] * q)
				}
				best = max(best, y)
			}
		}
	}
	return best
}

// column returns the weight of column c when its candidate points (those
// on the state's lines) are pts and the live ones among them r: for P ∉ S
// t^|r|·(1+t)^(q−|pts|); for P ∈ S the same less t^q when r = pts (the
// column all live would complete its vertical line).
func (s *columnSweep) column(pts, r int) (w mpoly, all bool) {
	return s.free[s.q-bits.OnesCount(uint(pts))][bits.OnesCount(uint(r))], r == pts
}

// leaves counts, for one state, the ways to complete it: cnt[0][a][b]
// (P ∉ S) and cnt[1][a][b] (P ∈ S) sum the signs of the terms
// t^a·(1+t)^b that the remaining columns contribute.
type leaves struct {
	cnt  [2][][]int64
	used [][2]int // the (a, b) touched, to clear them
}

func newLeaves(n int) *leaves {
	l := &leaves{}
	for w := range l.cnt {
		l.cnt[w] = make([][]int64, n+1)
		for a := range l.cnt[w] {
			l.cnt[w][a] = make([]int64, n+1)
		}
	}
	return l
}

func (l *leaves) add(onlyP int, a, b int, sign int64) {
	if l.cnt[0][a][b] == 0 && l.cnt[1][a][b] == 0 {
		l.used = append(l.used, [2]int{a, b})
	}
	if onlyP == 0 {
		l.cnt[0][a][b] += sign
	}
	l.cnt[1][a][b] += sign
}

// finish adds to l the terms of completing state x over the columns
// c..q−1, on top of t^a·(1+t)^b: depth first through the columns before
// the last two, which are summed in closed form. With onlyP = 1 the terms
// count for P ∈ S alone (a column all live was subtracted).
func (s *columnSweep) finish(l *leaves, x uint64, c, a, b int, sign int64, onlyP int) {
	q := s.q
	pts := s.pts(x, c)
	k := q - bits.OnesCount(uint(pts))
	for r := pts; ; r = (r - 1) & pts {
		nr := bits.OnesCount(uint(r))
		y := s.keep(x, c, r)
		if c == q-2 {
			// The last column: the points N of the lines left must be
			// down, the others are free (for P ∈ S not all live, which
			// needs N empty).
			nv := s.pts(y, q-1)
			kv := q - bits.OnesCount(uint(nv))
			l.add(onlyP, a+nr, b+k+kv, sign)
			if nv == 0 {
				l.add(1, a+nr+q, b+k, -sign)
			}
			if r == pts {
				l.add(1, a+q, b+kv, -sign)
				if nv == 0 {
					l.add(1, a+2*q, b, sign)
				}
			}
		} else {
			s.finish(l, y, c+1, a+nr, b+k, sign, onlyP)
			if r == pts {
				s.finish(l, y, c+1, a+q, b, -sign, 1)
			}
		}
		if r == 0 {
			break
		}
	}
}

// polys turns the terms of l into polynomials and clears l.
func (s *columnSweep) polys(l *leaves, deg int) [2]mpoly {
	out := [2]mpoly{newMpoly(deg), newMpoly(deg)}
	for _, ab := range l.used {
		a, b := ab[0], ab[1]
		for w := range 2 {
			c := l.cnt[w][a][b]
			l.cnt[w][a][b] = 0
			if c == 0 {
				continue
			}
			lo := uint64(c)
			hi := uint64(c % mersenne61)
			if c < 0 {
				hi = uint64(c%mersenne61 + mersenne61)
			}
			bin := s.binom[b]
			for i := 0; i <= b; i++ {
				out[w].lo[a+i] += lo * bin.lo[i]
				out[w].hi[a+i] = (out[w].hi[a+i] + mulmod61(hi, bin.hi[i])) % mersenne61
			}
		}
	}
	l.used = l.used[:0]
	return out
}

// lineFree returns F_i, the number of line-free i-sets of PG(2,q), for
// i = 0..n, exactly, and the largest number of merged states held. merged
// columns are swept with merging (at most q−2), the rest depth first.
func (s *columnSweep) lineFree(ctx context.Context, merged, workers int) ([]*big.Int, int, error) {
	q, n := s.q, s.n
	type state struct{ p [2]mpoly }
	get := func(m map[uint64]*state, x uint64, deg int) *state {
		st := m[x]
		if st == nil {
			st = &state{[2]mpoly{newMpoly(deg), newMpoly(deg)}}
			m[x] = st
		}
		return st
	}
	// The slopes live at infinity: with P ∈ S not all of them.
	level := map[uint64]*state{}
	for inf := range 1 << q {
		var x uint64
		for m := range q {
			if inf>>m&1 == 1 {
				x |= (uint64(1)<<q - 1) << (m * q)
			}
		}
		st := get(level, s.canon(x), q+1)
		k := bits.OnesCount(uint(inf))
		st.p[0].addTo(monomial(k, 1))
		if k < q {
			st.p[1].addTo(monomial(k, 1))
		}
	}
	most := len(level)
	keysOf := func(m map[uint64]*state) []uint64 {
		keys := make([]uint64, 0, len(m))
		for x := range m {
			keys = append(keys, x)
		}
		return keys
	}
	for c := range min(merged, q-2) {
		keys := keysOf(level)
		parts := make([]map[uint64]*state, workers)
		deg := (c+2)*q + 1
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				out := map[uint64]*state{}
				parts[w] = out
				for i := w; i < len(keys); i += workers {
					if i%256 == 0 && ctx.Err() != nil {
						return
					}
					st := level[keys[i]]
					pts := s.pts(keys[i], c)
					for r := pts; ; r = (r - 1) & pts {
						wt, all := s.column(pts, r)
						dst := get(out, s.canon(s.keep(keys[i], c, r)), deg)
						dst.p[0].addMul(st.p[0], wt)
						dst.p[1].addMul(st.p[1], wt)
						if all {
							dst.p[1].addMul(st.p[1], s.negFull)
						}
						if r == 0 {
							break
						}
					}
				}
			})
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		level = parts[0]
		for _, part := range parts[1:] {
			for y, st := range part {
				if dst, ok := level[y]; ok {
					dst.p[0].addTo(st.p[0])
					dst.p[1].addTo(st.p[1])
				} else {
					level[y] = st
				}
			}
		}
		most = max(most, len(level))
	}
	// The other columns, depth first from every merged state.
	from := min(merged, q-2)
	keys := keysOf(level)
	sums := make([][2]mpoly, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			acc := [2]mpoly{newMpoly(n + 1), newMpoly(n + 1)}
			sums[w] = acc
			l := newLeaves(n)
			deg := (q-from)*q + 1
			for i := w; i < len(keys); i += workers {
				if ctx.Err() != nil {
					return
				}
				st := level[keys[i]]
				s.finish(l, keys[i], from, 0, 0, 1, 0)
				rest := s.polys(l, deg)
				acc[0].addMul(st.p[0], rest[0])
				acc[1].addMul(st.p[1], rest[1])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	// F = F(P ∉ S) + t·F(P ∈ S); each coefficient from its residues by the
	// Chinese remainder theorem: x = lo + 2^64·((hi − lo)·2^-64 mod p).
	m64 := new(big.Int).Lsh(big.NewInt(1), 64)
	m61 := big.NewInt(mersenne61)
	inv := new(big.Int).ModInverse(m64, m61)
	out := make([]*big.Int, n+1)
	for i := range out {
		var lo, hi uint64
		for _, acc := range sums {
			lo += acc[0].lo[i]
			hi = (hi + acc[0].hi[i]) % mersenne61
			if i > 0 {
				lo += acc[1].lo[i-1]
				hi = (hi + acc[1].hi[i-1]) % mersenne61
			}
		}
		l := new(big.Int).SetUint64(lo)
		x := new(big.Int).Sub(new(big.Int).SetUint64(hi), l)
		x.Mul(x, inv).Mod(x, m61)
		out[i] = x.Mul(x, m64).Add(x, l)
	}
	return out, most, nil
}

// checkColumns compares A_i = C(n, i) − F_i from the column sweep with want.
func checkColumns(t *testing.T, q, merged int, want *Polynomial) {
	t.Helper()
	start := time.Now()
	s := newColumnSweep(q)
	free, states, err := s.lineFree(context.Background(), merged, runtime.GOMAXPROCS(0))
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("PG(2,%d): %d merged states at most, %v, %d MiB from the system", q, states, time.Since(start).Round(time.Millisecond), ms.Sys>>20)
	for i, f := range free {
		a := new(big.Int).Binomial(int64(s.n), int64(i))
		a.Sub(a, f)
		if want.A[i].Cmp(a) != 0 {
			t.Errorf("PG(2,%d): A_%d = %v, the column sweep gives %v", q, i, want.A[i], a)
		}
	}
}

// TestColumnSweepSmall checks the column sweep against the brute force on
// the planes of order 2, 3 and 4, merging none, some or all of the columns
// it may merge, and checks its field tables.
func TestColumnSweepSmall(t *testing.T) {
	for _, q := range []int{2, 3, 4, 5, 7, 8} {
		add, mul := gfTables(q)
		for a := range q {
			inv := 0
			for b := range q {
				if mul[a][b] == 1 {
					inv++
				}
				for c := range q {
					if mul[a][add[b][c]] != add[mul[a][b]][mul[a][c]] ||
						add[add[a][b]][c] != add[a][add[b][c]] || mul[mul[a][b]][c] != mul[a][mul[b][c]] {
						t.Fatalf("GF(%d): not a field at %d, %d, %d", q, a, b, c)
					}
				}
			}
			if (a == 0) != (inv == 0) || inv > 1 {
				t.Fatalf("GF(%d): %d has %d inverses", q, a, inv)
			}
		}
	}
	for _, q := range []int{2, 3, 4} {
		want, err := Brute(context.Background(), projectivePlane(t, q))
		if err != nil {
			t.Fatal(err)
		}
		for merged := 0; merged <= q-2; merged++ {
			checkColumns(t, q, merged, want)
		}
	}
}

// TestPG7Columns proves every coefficient of testdata/pg7.txt by the column
// sweep: about a minute of CPU, spread over the cores. It is skipped with
// -short and under the race detector (where it takes ten times as long);
// make test-long runs it always.
func TestPG7Columns(t *testing.T) {
	if os.Getenv("COTERIE_LONG") == "" && (testing.Short() || raceEnabled) {
		t.Skip("proves PG(2,7) by a second count (a minute of CPU); skipped with -short and -race unless COTERIE_LONG=1")
	}
	checkColumns(t, 7, 3, pg7Golden(t))
}

// TestPG8Columns proves testdata/pg8.txt the same way. It runs only with
// COTERIE_LONG=1 and is not part of make test-long: the merged columns
// hold 692,192 states (1.2 GB), and the depth-first rest, timed on one
// state in a thousand, would take about 18 hours of CPU.
func TestPG8Columns(t *testing.T) {
	if os.Getenv("COTERIE_LONG") == "" {
		t.Skip("set COTERIE_LONG=1 to prove PG(2,8) by the column sweep")
	}
	checkColumns(t, 8, 3, planeGolden(t, "pg8.txt", 73))
}
