package construct

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// generateFig6 is the paper's procedure generate (Fig. 6), transcribed with
// its 1-based sites and the neighbour formulas (1) — an independent way to
// compute S_n for comparison with Billiard's walk over grid cells.
func generateFig6(q, n int) []int {
	N := (q*q - 1) / 2
	j := 2 * n % q
	if j == 0 {
		j = q // "mod returns 1, 2, ..., q"
	}
	i := 1 + (2*n-j)/q
	x := make([]int, q+1)
	if i+j < q+1 {
		x[1] = ((i+j-2)*q + 1) / 2 // the path starts at (i+j−1, 1)
		for k := 1; k <= j-1; k++ {
			x[k+1] = x[k] - (q-1)/2
		}
		for k := j; k <= q-i; k++ {
			x[k+1] = x[k] + (q+1)/2
		}
		for k := q - i + 1; k <= q-1; k++ {
			x[k+1] = x[k] - (q-1)/2
		}
	}
	if i+j > q+1 {
		x[1] = N - (2*q-i-j-1)/2 // the path starts at (q, i+j−q)
		for k := 1; k <= q-i; k++ {
			x[k+1] = x[k] - (q-1)/2
		}
		for k := q - i + 1; k <= j-1; k++ {
			x[k+1] = x[k] - (q+1)/2
		}
		for k := j; k <= q-1; k++ {
			x[k+1] = x[k] - (q-1)/2
		}
	}
	return x[1:]
}

// path1 returns site n's (1-based) broken billiard path, 1-based, in order.
func path1(q, n int) []int {
	p := billiardPath(q, n-1, nil)
	for i := range p {
		p[i]++
	}
	return p
}

func TestBilliardPaperExamples(t *testing.T) {
	// Agrawal, Eğecioğlu, El Abbadi, Section 4 and Fig. 5, q = 9: the
	// pieces of the paths in the order the paper lists them.
	for _, tt := range []struct {
		site int
		want []int
	}{
		{11, []int{23, 19, 15, 11, 16, 21, 26, 22, 18}}, // {23,19,15,11} ∪ {16,21,26} ∪ {22,18}
		{34, []int{38, 34, 29, 24, 19, 15, 11, 7, 3}},   // {38,34} ∪ {29,24,19} ∪ {15,11,7,3}
	} {
		if got := path1(9, tt.site); !slices.Equal(got, tt.want) {
			t.Errorf("path of site %d = %v, want %v", tt.site, got, tt.want)
		}
	}
	f, err := Billiard(9)
	if err != nil {
		t.Fatal(err)
	}
	if f.N != 40 || len(f.Quorums) != 40 {
		t.Fatalf("q = 9: n = %d with %d quorums, want 40 and 40 (Fig. 4)", f.N, len(f.Quorums))
	}
	for _, tt := range []struct {
		owner int
		want  *set.Set
	}{
		{11, of1(11, 15, 16, 18, 19, 21, 22, 23, 26)},
		{34, of1(3, 7, 11, 15, 19, 24, 29, 34, 38)},
	} {
		i := slices.Index(f.Owners, tt.owner-1)
		if i < 0 || !set.Equal(&f.Quorums[i], tt.want) {
			t.Errorf("S_%d = %v, want %v (0-based)", tt.owner, &f.Quorums[i], tt.want)
		}
	}
}

func TestBilliardGrid(t *testing.T) {
	// Fig. 4 (q = 9): row 1 holds sites 1..4 in the even columns, row 2
	// sites 5..9 in the odd ones, ..., row 9 sites 37..40.
	var sb strings.Builder
	for i := 1; i <= 9; i++ {
		for j := 1; j <= 9; j++ {
			if (i+j)%2 == 1 {
				fmt.Fprintf(&sb, "%3d", billiardSite(9, i, j)+1)
			} else {
				sb.WriteString("  .")
			}
		}
		sb.WriteByte('\n')
	}
	want := `  .  1  .  2  .  3  .  4  .
  5  .  6  .  7  .  8  .  9
  . 10  . 11  . 12  . 13  .
 14  . 15  . 16  . 17  . 18
  . 19  . 20  . 21  . 22  .
 23  . 24  . 25  . 26  . 27
  . 28  . 29  . 30  . 31  .
 32  . 33  . 34  . 35  . 36
  . 37  . 38  . 39  . 40  .
`
	if sb.String() != want {
		t.Errorf("modified grid for q = 9:\n%s\nwant (Fig. 4):\n%s", sb.String(), want)
	}
	// Proposition 2's examples: site 34 is at (8,5), site 27 at (6,9).
	for _, tt := range []struct{ site, i, j int }{{34, 8, 5}, {27, 6, 9}} {
		if i, j := billiardCell(9, tt.site-1); i != tt.i || j != tt.j {
			t.Errorf("site %d at (%d,%d), want (%d,%d)", tt.site, i, j, tt.i, tt.j)
		}
	}
	// Cells and sites are inverse bijections for every order tested.
	for q := 3; q <= 41; q += 2 {
		for s := range BilliardN(q) {
			i, j := billiardCell(q, s)
			if (i+j)%2 != 1 || i < 1 || i > q || j < 1 || j > q || billiardSite(q, i, j) != s {
				t.Fatalf("q = %d: site %d ↦ cell (%d,%d) ↦ site %d", q, s+1, i, j, billiardSite(q, i, j)+1)
			}
		}
	}
}

func TestBilliardMatchesFig6(t *testing.T) {
	// The walk over cells and the paper's procedure with the neighbour
	// formulas give the same paths, in the same order.
	for q := 3; q <= 41; q += 2 {
		for n := 1; n <= BilliardN(q); n++ {
			if got, want := path1(q, n), generateFig6(q, n); !slices.Equal(got, want) {
				t.Fatalf("q = %d, site %d: path %v, Fig. 6 gives %v", q, n, got, want)
			}
		}
	}
}

func TestBilliardProperties(t *testing.T) {
	// Proposition 1 for every odd q up to 41: N = (q²−1)/2 sites, quorums
	// of q = ⌈√2·√N⌉ sites, each site in its own quorum, distinct quorums,
	// any two of which meet.
	for q := 3; q <= 41; q += 2 {
		f, err := Billiard(q)
		if err != nil {
			t.Fatal(err)
		}
		n := (q*q - 1) / 2
		if f.N != n || len(f.Quorums) != n || f.K != 1 || f.Kind != "billiard" || f.Params["q"] != q {
			t.Fatalf("q = %d: %d nodes, %d quorums, k %d, %q %v", q, f.N, len(f.Quorums), f.K, f.Kind, f.Params)
		}
		if err := f.Validate(); err != nil {
			t.Fatalf("q = %d: %v", q, err)
		}
		// ⌈√(2N)⌉ = q: q² = 2N+1 ≥ 2N > (q−1)², in integers.
		if !(q*q >= 2*n && (q-1)*(q-1) < 2*n) {
			t.Fatalf("q = %d is not ⌈√(2·%d)⌉", q, n)
		}
		seen := map[uint64][]int{}
		for i := range f.Quorums {
			qs := &f.Quorums[i]
			if f.Owners[i] != i {
				t.Fatalf("q = %d: quorum %d owned by %d, want canonical order by owner", q, i+1, f.Owners[i]+1)
			}
			if qs.Len() != q {
				t.Fatalf("q = %d: S_%d has %d sites: %v", q, i+1, qs.Len(), qs)
			}
			if !qs.Has(i) {
				t.Fatalf("q = %d: site %d not in its quorum %v", q, i+1, qs)
			}
			for _, j := range seen[qs.Hash()] {
				if set.Equal(qs, &f.Quorums[j]) {
					t.Fatalf("q = %d: S_%d = S_%d (uniqueness)", q, i+1, j+1)
				}
			}
			seen[qs.Hash()] = append(seen[qs.Hash()], i)
		}
		if i, j, ok := pairwiseWitness(f.Quorums); !ok {
			t.Fatalf("q = %d: S_%d ∩ S_%d = ∅: %v %v", q, i+1, j+1, &f.Quorums[i], &f.Quorums[j])
		}
		// Section 5: sites near the boundary are in fewer quorums than
		// central ones, so equal responsibility fails.
		d := f.Degrees()
		if q >= 5 && slices.Min(d) == slices.Max(d) {
			t.Errorf("q = %d: all sites in %d quorums; the paper says boundary sites are in fewer", q, d[0])
		}
	}
}

func TestBilliardStreamMatchesBuild(t *testing.T) {
	for _, q := range []int{3, 9, 21} {
		f, err := Billiard(q)
		if err != nil {
			t.Fatal(err)
		}
		g, quorums, err := BilliardStream(q)
		if err != nil {
			t.Fatal(err)
		}
		if g.Quorums != nil {
			t.Error("metadata carries quorums")
		}
		for qs, owner := range quorums {
			g.Add(qs, owner)
		}
		sameFamily(t, f, g)
	}
	_, quorums, err := BilliardStream(9)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for range quorums {
		calls++
		if calls == 3 {
			break
		}
	}
	if calls != 3 {
		t.Errorf("stream went on after the range stopped: %d steps", calls)
	}
	if _, _, err := BilliardStream(8); err == nil {
		t.Error("BilliardStream(8): no error for an even order")
	}
}

func TestBilliardDeterministic(t *testing.T) {
	a, err := Billiard(15)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Billiard(15)
	sameFamily(t, a, b)
}

func TestBilliardErrors(t *testing.T) {
	for _, tt := range []struct {
		q    int
		want string
	}{
		{4, "q = 4 must be odd"},
		{1, "q = 1 must be odd and at least 3"},
		{-3, "must be odd and at least 3"},
		{5793, "more than the 16777216 nodes"},
		{431, "stream them instead"},
	} {
		_, err := Billiard(tt.q)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Billiard(%d) error %v, want %q", tt.q, err, tt.want)
		}
	}
}

func BenchmarkBilliard201(b *testing.B) {
	// q = 201: 20,200 sites.
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Billiard(201); err != nil {
			b.Fatal(err)
		}
	}
}
