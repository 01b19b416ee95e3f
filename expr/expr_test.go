package expr

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

// bindIDs binds leaves written as ids (1-based) or single letters a, b, …
// (a = node 1).
func bindIDs(t testing.TB, e *Expr) *Expr {
	t.Helper()
	b, err := e.Bind(func(name string) (int, error) {
		if v, err := strconv.Atoi(name); err == nil {
			return v - 1, nil
		}
		if len(name) == 1 && 'a' <= name[0] && name[0] <= 'z' {
			return int(name[0] - 'a'), nil
		}
		return 0, errors.New("unknown node " + name)
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustParse(t testing.TB, s string) *Expr {
	t.Helper()
	e, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return bindIDs(t, e)
}

// quorumStrings lists the minimal quorums as sorted strings of 1-based ids.
func quorumStrings(f *set.Family) []string {
	var out []string
	for i := range f.Quorums {
		var ids []string
		for v := range f.Quorums[i].All() {
			ids = append(ids, strconv.Itoa(v+1))
		}
		out = append(out, strings.Join(ids, " "))
	}
	slices.Sort(out)
	return out
}

func minimal(t testing.TB, e *Expr, n int) []string {
	t.Helper()
	f, ok := e.Family(n, 0)
	if !ok {
		t.Fatal("no limit yet refused")
	}
	return quorumStrings(f)
}

// bruteMinimal lists the minimal quorums of e over n nodes by testing all
// 2^n subsets.
func bruteMinimal(e *Expr, n int) []string {
	f := set.NewFamily(n)
	for mask := 0; mask < 1<<n; mask++ {
		s := new(set.Set)
		for v := range n {
			if mask&(1<<v) != 0 {
				s.Add(v)
			}
		}
		if e.IsQuorum(s) {
			f.Add(s, set.NoOwner)
		}
	}
	f.Minimalize()
	return quorumStrings(f)
}

func TestTutorialGrid(t *testing.T) {
	// quoracle's README: reads a*b*c + d*e*f; the writes are the nine
	// pairs of one node from each row.
	r := mustParse(t, "a*b*c + d*e*f")
	if got, want := minimal(t, r, 6), []string{"1 2 3", "4 5 6"}; !slices.Equal(got, want) {
		t.Errorf("reads = %v, want %v", got, want)
	}
	w := r.Dual()
	if got := w.String(); got != "(a + b + c)*(d + e + f)" {
		t.Errorf("dual prints %q", got)
	}
	want := []string{"1 4", "1 5", "1 6", "2 4", "2 5", "2 6", "3 4", "3 5", "3 6"}
	if got := minimal(t, w, 6); !slices.Equal(got, want) {
		t.Errorf("writes = %v, want %v", got, want)
	}
}

func TestChooseDual(t *testing.T) {
	// "write 2 of 5": the dual of choose(2, 5 nodes) is choose(4, …).
	e := mustParse(t, "choose(2, a, b, c, d, e)")
	if got := e.Dual().String(); got != "choose(4, a, b, c, d, e)" {
		t.Errorf("dual = %q", got)
	}
	if got := len(minimal(t, e.Dual(), 5)); got != 5 {
		t.Errorf("%d quorums in the dual, want C(5,4) = 5", got)
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tt := range []struct {
		in  string
		col int
	}{
		{"a*b +", 6},
		{"a ** b", 4},
		{"(a + b", 7},
		{"a + $", 5},
		{"choose(3, a, b)", 8},
		{"choose(a, b)", 8},
		{"choose 2", 8},
		{"a b", 3},
		{"0 + 1", 1},
		{"", 1},
	} {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a syntax error", tt.in, err)
			continue
		}
		if se.Col != tt.col {
			t.Errorf("Parse(%q): column %d (%v), want %d", tt.in, se.Col, err, tt.col)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	s := strings.Repeat("(", 5000) + "a" + strings.Repeat(")", 5000)
	if _, err := Parse(s); err == nil {
		t.Error("5000 nested parentheses accepted")
	}
}

// randomExpr builds a random expression over nodes 0..n-1 with leaves that
// may repeat.
func randomExpr(r *rand.Rand, n, depth int) *Expr {
	if depth == 0 || r.IntN(4) == 0 {
		return Node(r.IntN(n))
	}
	k := 2 + r.IntN(3)
	args := make([]*Expr, k)
	for i := range args {
		args[i] = randomExpr(r, n, depth-1)
	}
	switch r.IntN(3) {
	case 0:
		return NewOr(args...)
	case 1:
		return NewAnd(args...)
	default:
		e, _ := NewChoose(1+r.IntN(k), args...)
		return e
	}
}

func TestRandomAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		n := 2 + r.IntN(6)
		e := randomExpr(r, n, 3)
		// Round trip through the printed form.
		p, err := Parse(e.String())
		if err != nil {
			t.Fatalf("#%d: Parse(%q): %v", i, e, err)
		}
		p = bindIDs(t, p)
		if p.String() != e.String() {
			t.Fatalf("#%d: %q printed back as %q", i, e, p)
		}
		want := bruteMinimal(e, n)
		if got := minimal(t, e, n); !slices.Equal(got, want) {
			t.Fatalf("#%d %s: minimal quorums %v, brute force %v", i, e, got, want)
		}
		if got := minimal(t, p, n); !slices.Equal(got, want) {
			t.Fatalf("#%d %s: reparsed quorums %v, want %v", i, e, got, want)
		}
		// The dual of the dual has the same quorums.
		if got := minimal(t, e.Dual().Dual(), n); !slices.Equal(got, want) {
			t.Fatalf("#%d %s: dual of dual %v, want %v", i, e, got, want)
		}
		// The dual's quorums are the minimal transversals (MMCS).
		f, _ := e.Family(n, 0)
		var tr []string
		err = domination.Transversals(context.Background(), f, func(s *set.Set) bool {
			g := set.NewFamily(n)
			g.Add(s, set.NoOwner)
			tr = append(tr, quorumStrings(g)...)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(tr)
		if got := minimal(t, e.Dual(), n); !slices.Equal(got, tr) {
			t.Fatalf("#%d %s: dual quorums %v, minimal transversals %v", i, e, got, tr)
		}
		// MinSize is exact on separable expressions.
		if e.Separable() {
			size, q := e.MinSize()
			best := n + 1
			for _, s := range want {
				best = min(best, len(strings.Fields(s)))
			}
			if size != best || !e.IsQuorum(q) || q.Len() != size {
				t.Fatalf("#%d %s: MinSize = %d %v, want %d", i, e, size, q, best)
			}
		}
	}
}

func TestLazyStop(t *testing.T) {
	// 10^10 write quorums of a 10×10 grid: taking three must not list them.
	var rows []string
	for r := range 10 {
		var row []string
		for c := range 10 {
			row = append(row, strconv.Itoa(10*r+c+1))
		}
		rows = append(rows, "("+strings.Join(row, " + ")+")")
	}
	e := mustParse(t, strings.Join(rows, "*"))
	got := 0
	for q := range e.MinimalQuorums() {
		if q.Len() != 10 {
			t.Fatalf("quorum %v has %d nodes", q, q.Len())
		}
		if got++; got == 3 {
			break
		}
	}
	if _, ok := e.Family(100, 1000); ok {
		t.Error("Family with limit 1000 listed 10^10 quorums")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a*b*c + d*e*f", "choose(2, a, b, c)", "(1 + 2)*3", "a+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			return
		}
		p, err := Parse(e.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, e, err)
		}
		if !Equal(e, p) {
			t.Fatalf("%q printed as %q, parsed back as %q", s, e, p)
		}
	})
}

func TestCount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := 2 + r.IntN(7)
		nodes := r.Perm(n)[:1+r.IntN(n)]
		e := readOnce(r, nodes)
		c, ok := e.Count()
		if !ok {
			t.Fatalf("%s: not read-once", e)
		}
		if want := len(bruteMinimal(e, n)); c.Int64() != int64(want) {
			t.Fatalf("%s: Count = %v, brute force %d", e, c, want)
		}
	}
	if _, ok := mustParse(t, "a*b + a*c").Count(); ok {
		t.Error("Count of a repeated node")
	}
}

// readOnce builds a random expression using each of nodes once.
func readOnce(r *rand.Rand, nodes []int) *Expr {
	if len(nodes) == 1 {
		return Node(nodes[0])
	}
	cut := 1 + r.IntN(len(nodes)-1)
	args := []*Expr{readOnce(r, nodes[:cut]), readOnce(r, nodes[cut:])}
	switch r.IntN(3) {
	case 0:
		return NewOr(args...)
	case 1:
		return NewAnd(args...)
	default:
		e, _ := NewChoose(1+r.IntN(2), args...)
		return e
	}
}

func TestProbabilityAndCoefficients(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		n := 1 + r.IntN(8)
		e := readOnce(r, r.Perm(n))
		ps := make([]float64, n)
		for v := range ps {
			ps[v] = r.Float64()
		}
		// Brute force over all 2^n states.
		want := 0.0
		counts := make([]int64, n+1)
		for mask := range 1 << n {
			s := new(set.Set)
			pr := 1.0
			for v := range n {
				if mask&(1<<v) != 0 {
					s.Add(v)
					pr *= ps[v]
				} else {
					pr *= 1 - ps[v]
				}
			}
			if e.IsQuorum(s) {
				want += pr
				counts[s.Len()]++
			}
		}
		if got := e.Probability(func(v int) float64 { return ps[v] }); math.Abs(got-want) > 1e-12 {
			t.Fatalf("%s: Probability = %v, brute force %v", e, got, want)
		}
		c := e.Coefficients()
		if len(c) != n+1 {
			t.Fatalf("%s: %d coefficients for %d nodes", e, len(c), n)
		}
		for i := range c {
			if c[i].Int64() != counts[i] {
				t.Fatalf("%s: coefficients %v, brute force %v", e, c, counts)
			}
		}
	}
}
