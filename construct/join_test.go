package construct

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// labelled returns f's quorums as sorted lists of node labels, sorted.
func labelled(f *set.Family) []string {
	var out []string
	for i := range f.Quorums {
		var ls []string
		for v := range f.Quorums[i].All() {
			ls = append(ls, f.Label(v))
		}
		out = append(out, "{"+strings.Join(ls, ",")+"}")
	}
	sort.Strings(out)
	return out
}

// paperSets parses the paper's "{1, 2, a}, {...}" into sorted label lists
// comparable with labelled, given the order of the result's labels.
func paperSets(t *testing.T, order []string, text string) []string {
	t.Helper()
	rank := map[string]int{}
	for i, l := range order {
		rank[l] = i
	}
	var out []string
	text = strings.Join(strings.Fields(text), " ")
	for _, q := range strings.Split(strings.Trim(text, "{} "), "}, {") {
		ls := strings.Split(q, ", ")
		for _, l := range ls {
			if _, ok := rank[l]; !ok {
				t.Fatalf("unknown node %q in %q", l, q)
			}
		}
		sort.Slice(ls, func(i, j int) bool { return rank[ls[i]] < rank[ls[j]] })
		out = append(out, "{"+strings.Join(ls, ",")+"}")
	}
	sort.Strings(out)
	return out
}

// kuoC1 is C1 = {{1,2,3},{1,2,a},{1,3,a},{2,3,a}} under U1 = {1,2,3,a}
// (Kuo, Section 4): a is node 4, labelled "a".
func kuoC1() *set.Family {
	f := family1(4, 2, []int{1, 2, 3}, []int{1, 2, 4}, []int{1, 3, 4}, []int{2, 3, 4})
	f.Labels = []string{"1", "2", "3", "a"}
	return f
}

func TestJoinKuoExamples(t *testing.T) {
	// Kuo, Section 4: C1 ⊕a C2 with C2 = {{4,5,6},{4,5,7},{4,6,7},{5,6,7}}
	// under U2 = {4,5,6,7}.
	c2 := family1(4, 2, []int{1, 2, 3}, []int{1, 2, 4}, []int{1, 3, 4}, []int{2, 3, 4})
	c2.Labels = []string{"4", "5", "6", "7"}
	j, err := Join(kuoC1(), c2, 3, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(j.Labels, []string{"1", "2", "3", "4", "5", "6", "7"}) {
		t.Fatalf("labels %v", j.Labels)
	}
	want := paperSets(t, j.Labels, `{1, 2, 3}, {1, 2, 4, 5, 6}, {1, 2, 4, 5, 7}, {1, 2, 4, 6, 7}, {1, 2, 5, 6, 7},
		{1, 3, 4, 5, 6}, {1, 3, 4, 5, 7}, {1, 3, 4, 6, 7}, {1, 3, 5, 6, 7},
		{2, 3, 4, 5, 6}, {2, 3, 4, 5, 7}, {2, 3, 4, 6, 7}, {2, 3, 5, 6, 7}`)
	if got := labelled(j); len(got) != 13 || !slices.Equal(got, want) {
		t.Errorf("C1 ⊕a C2 = %v\nwant (13 quorums) %v", got, want)
	}
	// The node numbers coincide with the paper's names here.
	if !set.Equal(&j.Quorums[0], of1(1, 2, 3)) || j.N != 7 || j.K != 2 {
		t.Errorf("first quorum %v, n %d, k %d", &j.Quorums[0], j.N, j.K)
	}
	if w, ok := kwiseWitness(j.Quorums, 2); !ok {
		t.Errorf("C1 ⊕a C2: quorums %v do not meet", w)
	}

	// Kuo, Section 4 (after Theorem 5): C1 ⊕4 C2 with C1 the 3-subsets of
	// {1,2,3,4} and C2 those of {a,b,c,d}, uniform 2-arbiters.
	want = nil
	c1 := family1(4, 2, []int{1, 2, 3}, []int{1, 2, 4}, []int{1, 3, 4}, []int{2, 3, 4})
	c2 = family1(4, 2, []int{1, 2, 3}, []int{1, 2, 4}, []int{1, 3, 4}, []int{2, 3, 4})
	c2.Labels = []string{"a", "b", "c", "d"}
	j, err = Join(c1, c2, 3, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(j.Labels, []string{"1", "2", "3", "a", "b", "c", "d"}) {
		t.Fatalf("labels %v, want the universe {1,2,3,a,b,c,d}", j.Labels)
	}
	want = paperSets(t, j.Labels, `{1, 2, 3}, {1, 2, a, b, c}, {1, 2, a, b, d}, {1, 2, a, c, d}, {1, 2, b, c, d},
		{1, 3, a, b, c}, {1, 3, a, b, d}, {1, 3, a, c, d}, {1, 3, b, c, d},
		{2, 3, a, b, c}, {2, 3, a, b, d}, {2, 3, a, c, d}, {2, 3, b, c, d}`)
	if got := labelled(j); !slices.Equal(got, want) {
		t.Errorf("C1 ⊕4 C2 = %v\nwant %v", got, want)
	}
	// The same from the threshold forms, Uniform(4, 2): enumerated within
	// the limit, the same quorums.
	u1, _ := Uniform(4, 2)
	u2, _ := Uniform(4, 2)
	ju, err := Join(u1, u2, 3, 13)
	if err != nil {
		t.Fatal(err)
	}
	if len(ju.Quorums) != 13 {
		t.Fatalf("threshold join has %d quorums", len(ju.Quorums))
	}
	for i := range ju.Quorums {
		if !set.Equal(&ju.Quorums[i], &j.Quorums[i]) {
			t.Fatalf("threshold join quorum %d = %v, explicit %v", i+1, &ju.Quorums[i], &j.Quorums[i])
		}
	}
	if got := ju.Params; got["outer_threshold"] != 3 || got["inner_threshold"] != 3 || got["outer_kind"] != "uniform" {
		t.Errorf("params %v", got)
	}
	if _, err := Join(u1, u2, 3, 12); !errors.Is(err, set.ErrTooMany) || !strings.Contains(err.Error(), "13 quorums") {
		t.Errorf("limit 12: %v", err)
	}
}

func TestJoinNumberingAndParams(t *testing.T) {
	// Outer nodes other than x keep their order; inner nodes follow.
	outer := family1(5, 1, []int{1, 2}, []int{2, 3, 4}, []int{1, 3, 5}) // x = 3
	inner := family1(2, 1, []int{1}, []int{2})
	j, err := Join(outer, inner, 2, 100)
	if err != nil {
		t.Fatal(err)
	}
	// {1,2} stays; {2,3,4} → {2,3'} ∪ {5'} or {6'}; {1,3,5} → {1,4'} ∪ ...
	// where outer 4 ↦ 3, outer 5 ↦ 4, inner 1 ↦ 5, inner 2 ↦ 6.
	want := []*set.Set{of1(1, 2), of1(1, 4, 5), of1(1, 4, 6), of1(2, 3, 5), of1(2, 3, 6)}
	if len(j.Quorums) != len(want) {
		t.Fatalf("join = %v", j)
	}
	for i := range want {
		if !set.Equal(&j.Quorums[i], want[i]) {
			t.Errorf("quorum %d = %v, want %v", i+1, &j.Quorums[i], want[i])
		}
	}
	if !slices.Equal(j.Labels, []string{"1", "2", "4", "5", "3.1", "3.2"}) {
		t.Errorf("labels %v", j.Labels)
	}
	if got := fmt.Sprint(j.Params); got != "map[at:3 inner_n:2 outer_n:5]" || j.Kind != "join" || j.Owners != nil {
		t.Errorf("kind %q params %s owners %v", j.Kind, got, j.Owners)
	}
	if c := JoinCount(outer, inner, 2); c.Int64() != 5 {
		t.Errorf("JoinCount = %s, want 5", c)
	}

	// Inner labels that clash with kept outer labels are qualified.
	outer.Labels = []string{"a", "b", "x", "c", "d"}
	inner.Labels = []string{"a", "z"}
	j, _ = Join(outer, inner, 2, 100)
	if !slices.Equal(j.Labels, []string{"a", "b", "c", "d", "x.a", "x.z"}) || j.Params["at_label"] != "x" {
		t.Errorf("labels %v, params %v", j.Labels, j.Params)
	}
	inner.Labels = []string{"y", "z"}
	j, _ = Join(outer, inner, 2, 100)
	if !slices.Equal(j.Labels, []string{"a", "b", "c", "d", "y", "z"}) {
		t.Errorf("labels %v", j.Labels)
	}
}

// splitJoin recovers C1 and C2 from a join as Join's documentation says.
func splitJoin(j *set.Family) (c1, c2 map[string]bool) {
	x := j.Params["at"].(int) - 1
	n1 := j.Params["outer_n"].(int)
	c1, c2 = map[string]bool{}, map[string]bool{}
	for i := range j.Quorums {
		var outer, inner set.Set
		typeI := false
		for v := range j.Quorums[i].All() {
			switch {
			case v >= n1-1:
				inner.Add(v - (n1 - 1))
				typeI = true
			case v < x:
				outer.Add(v)
			default:
				outer.Add(v + 1)
			}
		}
		if typeI {
			outer.Add(x)
			c2[inner.String()] = true
		}
		c1[outer.String()] = true
	}
	return c1, c2
}

func quorumStrings(f *set.Family) map[string]bool {
	m := map[string]bool{}
	for i := range f.Quorums {
		m[f.Quorums[i].String()] = true
	}
	return m
}

func TestJoinProperties(t *testing.T) {
	// Theorem 3 (the join of k-arbiters is a k-arbiter, minimal), the
	// inputs recoverable from the result, and Corollary 5's composition:
	// a set of live nodes holds a quorum of C1 ⊕x C2 iff its outer part,
	// with x up exactly when its inner part holds a quorum of C2, holds a
	// quorum of C1 — checked over all 2^n subsets.
	cube31, _ := Cube(3, 1, 0)
	cube22, _ := Cube(2, 2, 0)
	maj3, _ := Majority(3)
	uni42, _ := Uniform(4, 2)
	uni52, _ := Uniform(5, 2)
	for _, tt := range []struct {
		name         string
		outer, inner *set.Family
	}{
		{"cube(3,1)+majority(3)", cube31, maj3},
		{"majority(3)+cube(3,1)", maj3, cube31},
		{"uniform(4,2)+cube(2,2)", uni42, cube22},
		{"cube(2,2)+uniform(5,2)", cube22, uni52},
	} {
		for x := range tt.outer.N {
			name := fmt.Sprintf("%s at %d", tt.name, x+1)
			c1, err := tt.outer.Enumerate(1000)
			if err != nil {
				t.Fatal(err)
			}
			c2, _ := tt.inner.Enumerate(1000)
			j, err := Join(tt.outer, tt.inner, x, 1000)
			if err != nil {
				t.Fatal(name, err)
			}
			if err := j.Validate(); err != nil {
				t.Fatal(name, err)
			}
			if int64(len(j.Quorums)) != JoinCount(tt.outer, tt.inner, x).Int64() {
				t.Errorf("%s: %d quorums, JoinCount %s", name, len(j.Quorums), JoinCount(tt.outer, tt.inner, x))
			}
			k := tt.outer.K
			if w, ok := kwiseWitness(j.Quorums, k); !ok {
				t.Errorf("%s: quorums %v do not meet", name, w)
			}
			if a, b, ok := minimalWitness(j.Quorums); !ok {
				t.Errorf("%s: quorum %d ⊆ quorum %d", name, a+1, b+1)
			}
			r1, r2 := splitJoin(j)
			if fmt.Sprint(r1) != fmt.Sprint(quorumStrings(c1)) || fmt.Sprint(r2) != fmt.Sprint(quorumStrings(c2)) {
				t.Errorf("%s: recovered %v and %v", name, r1, r2)
			}
			n1, n3 := c1.N, j.N
			holds := func(f *set.Family, live *set.Set) bool {
				for i := range f.Quorums {
					if set.Subset(&f.Quorums[i], live) {
						return true
					}
				}
				return false
			}
			for mask := range 1 << n3 {
				var live, outer, inner set.Set
				for v := range n3 {
					if mask&(1<<v) == 0 {
						continue
					}
					live.Add(v)
					switch {
					case v >= n1-1:
						inner.Add(v - (n1 - 1))
					case v < x:
						outer.Add(v)
					default:
						outer.Add(v + 1)
					}
				}
				if holds(c2, &inner) {
					outer.Add(x)
				}
				if holds(j, &live) != holds(c1, &outer) {
					t.Fatalf("%s: live set %v: join %v, composition %v", name, &live, holds(j, &live), holds(c1, &outer))
				}
			}
		}
	}
}

func TestJoinDeterministic(t *testing.T) {
	c, _ := Cube(3, 2, 0)
	u, _ := Uniform(5, 2)
	a, err := Join(c, u, 13, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Join(c, u, 13, 1<<20)
	sameFamily(t, a, b)
}

func TestJoinErrors(t *testing.T) {
	c1 := kuoC1()
	coterie := family1(3, 1, []int{1, 2}, []int{2, 3}, []int{1, 3})
	lonely := family1(4, 2, []int{1, 2}, []int{2, 3}, []int{1, 3}) // node 4 in no quorum
	level := kuoC1()
	level.H = 1
	big1, _ := Uniform(40, 2)
	for _, tt := range []struct {
		name         string
		outer, inner *set.Family
		x, limit     int
		want         string
	}{
		{"x too big", c1, c1, 4, 100, "node 5 is not a node of the outer system (1..4)"},
		{"x negative", c1, c1, -1, 100, "node 0 is not a node of the outer system (1..4)"},
		{"k differ", c1, coterie, 0, 100, "outer system has k = 2 but the inner one k = 1"},
		{"x unused", lonely, c1, 3, 100, "node 4 (4) is in no quorum of the outer system"},
		{"level", level, c1, 0, 100, "not levels of an (h,k)-arbiter"},
		{"no inner quorums", c1, set.NewFamily(3).CloneMeta(), 0, 100, "no quorums"},
		// C(39,26)·4 + C(39,27): the 27-subsets of 40 nodes with node 1
		// (each joined with C1's four quorums) and without it.
		{"too many", big1, c1, 0, 1000, "the join has 36400499212 quorums, more than the limit of 1000"},
		{"malformed", c1, &set.Family{N: 0, K: 2}, 0, 100, "inner system: set: n = 0"},
	} {
		if tt.name == "no inner quorums" {
			tt.inner.K = 2
		}
		_, err := Join(tt.outer, tt.inner, tt.x, tt.limit)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := Join(nil, c1, 0, 1); err == nil {
		t.Error("nil outer accepted")
	}
}

func BenchmarkJoin(b *testing.B) {
	// cube(4,2) ⊕ cube(3,2): 64·27-ish quorums over 90 nodes.
	outer, _ := Cube(4, 2, 0)
	inner, _ := Cube(3, 2, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Join(outer, inner, 0, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

func TestJoinMemoryGuard(t *testing.T) {
	// A count beyond any limit is refused before anything is enumerated.
	outer, _ := Majority(21)
	inner, _ := Majority(2000) // C(2000, 1001) quorums
	if _, err := Join(outer, inner, 0, math.MaxInt); !errors.Is(err, set.ErrTooMany) {
		t.Fatalf("error %v", err)
	}
	// Within the limit but not in memory: C(22,11)·3 + C(22,12) =
	// 2,762,942 quorums over 40,022 nodes would take 13 GiB.
	wide := family1(40000, 1, []int{1, 2}, []int{1, 3}, []int{2, 3})
	many, _ := Majority(23)
	_, err := Join(many, wide, 0, math.MaxInt)
	if !errors.Is(err, set.ErrTooMany) || !strings.Contains(err.Error(), "2762942 quorums over 40022 nodes need 13196 MiB") {
		t.Fatalf("error %v, want the memory guard", err)
	}
}

func TestJoinCounting(t *testing.T) {
	// binomialAtMost against math/big, below and above the cap.
	for n := int64(0); n <= 70; n++ {
		for k := int64(-1); k <= n+1; k++ {
			want := new(big.Int).Binomial(n, k)
			if k < 0 || k > n {
				want.SetInt64(0)
			}
			for _, limit := range []int64{0, 1, 1000, math.MaxInt64} {
				got, ok := binomialAtMost(n, k, limit)
				if fits := want.Cmp(big.NewInt(limit)) <= 0; ok != fits || ok && got != want.Int64() {
					t.Fatalf("binomialAtMost(%d, %d, %d) = %d, %v; C = %s", n, k, limit, got, ok, want)
				}
			}
		}
	}
	// joinCountAtMost agrees with JoinCount, exact or not.
	c1 := kuoC1()
	for _, tt := range []struct {
		outer, inner *set.Family
	}{
		{set.NewThreshold(30, 16), c1},
		{set.NewThreshold(64, 33), set.NewThreshold(70, 36)},
		{set.NewThreshold(200, 101), set.NewThreshold(9, 5)},
		{c1, set.NewThreshold(300, 151)},
	} {
		exact := JoinCount(tt.outer, tt.inner, 0)
		for _, limit := range []int64{10, math.MaxInt64} {
			got, ok, text := joinCountAtMost(tt.outer, tt.inner, 0, limit)
			if exact.IsInt64() {
				if text != exact.String() || got != exact.Int64() && ok || ok != (exact.Int64() <= limit) {
					t.Errorf("%v ⊕ %v: %d %v %q, exact %s", tt.outer, tt.inner, got, ok, text, exact)
				}
				continue
			}
			f, _ := new(big.Float).SetInt(exact).Float64()
			want := fmt.Sprintf("about %.1fe+%d", f/math.Pow(10, math.Floor(math.Log10(f))), int(math.Log10(f)))
			if ok || text != want {
				t.Errorf("%v ⊕ %v: %v %q, want %q (exact %s)", tt.outer, tt.inner, ok, text, want, exact)
			}
		}
	}
	// A majority of 10^7 nodes is refused at once, with an estimate.
	huge, _ := Majority(10_000_000)
	_, err := Join(huge, family1(3, 1, []int{1, 2}, []int{2, 3}, []int{1, 3}), 0, 1000)
	var le *JoinLimitError
	if !errors.As(err, &le) || !strings.HasPrefix(le.Count, "about ") || !errors.Is(err, set.ErrTooMany) {
		t.Fatalf("error %v", err)
	}
}

// TestJoinContext checks that a join stops when its context is done, at
// once or while it builds, and equals Join otherwise.
func TestJoinContext(t *testing.T) {
	outer, err := Grid(4, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := Grid(4, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := JoinContext(ctx, outer, inner, 0, 1<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	stop := &stopAfterCalls{Context: context.Background(), left: 2}
	if _, err := JoinContext(stop, outer, inner, 0, 1<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while building: %v", err)
	}
	a, err := JoinContext(context.Background(), outer, inner, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Join(outer, inner, 0, 1<<20)
	if err != nil || a.String() != b.String() {
		t.Fatalf("JoinContext and Join differ: %v", err)
	}
}

// stopAfterCalls is a context whose Err is nil for left calls, then
// context.Canceled: a cancellation in the middle of the work.
type stopAfterCalls struct {
	context.Context
	left int
}

func (c *stopAfterCalls) Err() error {
	if c.left == 0 {
		return context.Canceled
	}
	c.left--
	return nil
}
