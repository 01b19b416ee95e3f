package set_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// words returns the elements as Words of room n, built bit by bit.
func words(n int, elems []int) set.Words {
	w := set.MakeWords(n)
	for _, v := range elems {
		w.Add(v)
	}
	return w
}

// TestWordsAgainstSets checks every Words operation against the same
// operation on Sets (an independent implementation over bitset), on random
// sets around word boundaries.
func TestWordsAgainstSets(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 63, 64, 65, 127, 128, 200} {
		for range 50 {
			a, ae := randomSet(r, n, r.Float64())
			b, be := randomSet(r, n, r.Float64())
			wa, wb := words(n, ae), words(n, be)
			if got := wa.Len(); got != a.Len() {
				t.Fatalf("n=%d Len = %d, want %d", n, got, a.Len())
			}
			var ab set.Set
			ab.Intersect(a, b)
			if got := wa.AndLen(wb); got != ab.Len() {
				t.Fatalf("n=%d AndLen = %d, want %d", n, got, ab.Len())
			}
			var d set.Set
			d.Difference(a, b)
			if got := wa.AndNotLen(wb); got != d.Len() {
				t.Fatalf("n=%d AndNotLen = %d, want %d", n, got, d.Len())
			}
			if got := wa.Intersects(wb); got != set.Intersects(a, b) {
				t.Fatalf("n=%d Intersects = %v", n, got)
			}
			if got := wa.SubsetOf(wb); got != set.Subset(a, b) {
				t.Fatalf("n=%d SubsetOf = %v", n, got)
			}
			if !wa.SubsetOf(or(wa, wb)) {
				t.Fatalf("n=%d a ⊄ a ∪ b", n)
			}
			if got := wa.IsEmpty(); got != a.IsEmpty() {
				t.Fatalf("n=%d IsEmpty = %v", n, got)
			}
			if got := slices.Collect(wa.All()); !slices.Equal(got, a.Elements()) {
				t.Fatalf("n=%d All = %v, want %v", n, got, a.Elements())
			}
			var next []int
			for v := wa.Next(0); v >= 0; v = wa.Next(v + 1) {
				next = append(next, v)
			}
			if !slices.Equal(next, slices.Collect(wa.All())) {
				t.Fatalf("n=%d Next walk = %v, All = %v", n, next, slices.Collect(wa.All()))
			}
			if !set.Equal(wa.Set(), a) {
				t.Fatalf("n=%d Set() = %v, want %v", n, wa.Set(), a)
			}

			and := slices.Clone(wa)
			if nonEmpty := and.And(wb); nonEmpty == ab.IsEmpty() || !set.Equal(and.Set(), &ab) {
				t.Fatalf("n=%d And = %v (%v), want %v", n, and.Set(), nonEmpty, &ab)
			}
			inter := set.MakeWords(n)
			inter.Intersect(wa, wb)
			if !set.Equal(inter.Set(), &ab) {
				t.Fatalf("n=%d Intersect = %v, want %v", n, inter.Set(), &ab)
			}
			var diff, union set.Set
			diff.Difference(a, b)
			union.Union(a, b)
			andNot := slices.Clone(wa)
			andNot.AndNot(wb)
			if !set.Equal(andNot.Set(), &diff) {
				t.Fatalf("n=%d AndNot = %v, want %v", n, andNot.Set(), &diff)
			}
			or := slices.Clone(wa)
			or.Or(wb)
			if !set.Equal(or.Set(), &union) {
				t.Fatalf("n=%d Or = %v, want %v", n, or.Set(), &union)
			}
			un := set.MakeWords(n)
			un.Union(wa, wb)
			if !set.Equal(un.Set(), &union) {
				t.Fatalf("n=%d Union = %v, want %v", n, un.Set(), &union)
			}
			c, ce := randomSet(r, n, 0.3)
			oi := words(n, ce)
			oi.OrIntersect(wa, wb)
			var want set.Set
			want.Union(c, &ab)
			if !set.Equal(oi.Set(), &want) {
				t.Fatalf("n=%d OrIntersect = %v, want %v", n, oi.Set(), &want)
			}
			for _, v := range ae {
				wa.Remove(v)
				if wa.Has(v) {
					t.Fatalf("n=%d Remove(%d) left it", n, v)
				}
			}
			if !wa.IsEmpty() {
				t.Fatalf("n=%d not empty after removing everything", n)
			}
		}
	}
}

func or(a, b set.Words) set.Words {
	c := slices.Clone(a)
	c.Or(b)
	return c
}

func TestWordsFill(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 130} {
		w := set.MakeWords(130)
		w.Fill(n)
		if !set.Equal(w.Set(), set.Full(n)) {
			t.Errorf("Fill(%d) = %v", n, w.Set())
		}
	}
}

func TestWordsNextBounds(t *testing.T) {
	w := words(128, []int{0, 64, 127})
	for _, tt := range []struct{ from, want int }{
		{-1, -1}, {0, 0}, {1, 64}, {64, 64}, {65, 127}, {127, 127}, {128, -1}, {1000, -1},
	} {
		if got := w.Next(tt.from); got != tt.want {
			t.Errorf("Next(%d) = %d, want %d", tt.from, got, tt.want)
		}
	}
}

// TestPacked checks rows and both node tables against the sets they come
// from, over two lists packed one after the other.
func TestPacked(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{5, 64, 70, 150} {
		var l1, l2 []set.Set
		for range 40 {
			s, _ := randomSet(r, n, 0.2)
			l1 = append(l1, *s)
		}
		for range 33 {
			s, _ := randomSet(r, n, 0.5)
			l2 = append(l2, *s)
		}
		all := append(slices.Clone(l1), l2...)
		p := set.Pack(n, l1, l2)
		if p.Len() != len(all) || p.N() != n {
			t.Fatalf("n=%d: %d rows over %d nodes, want %d over %d", n, p.Len(), p.N(), len(all), n)
		}
		ones := 0
		for i := range all {
			ones += all[i].Len()
			if !set.Equal(p.Row(i).Set(), &all[i]) {
				t.Fatalf("n=%d row %d = %v, want %v", n, i, p.Row(i).Set(), &all[i])
			}
		}
		if p.Ones() != ones {
			t.Fatalf("n=%d Ones = %d, want %d", n, p.Ones(), ones)
		}
		if err := p.BuildAvoiders(p.TableBytes()); err != nil {
			t.Fatal(err)
		}
		if err := p.BuildContaining(p.TableBytes()); err != nil {
			t.Fatal(err)
		}
		for v := range n {
			for i := range all {
				if p.Containing(v).Has(i) != all[i].Has(v) || p.Avoiders(v).Has(i) == all[i].Has(v) {
					t.Fatalf("n=%d node %d row %d: containing %v, avoiding %v, member %v",
						n, v, i, p.Containing(v).Has(i), p.Avoiders(v).Has(i), all[i].Has(v))
				}
			}
			// No row past the last is listed.
			if got := p.Avoiders(v).Len() + p.Containing(v).Len(); got != len(all) {
				t.Fatalf("n=%d node %d: %d rows in the tables, want %d", n, v, got, len(all))
			}
		}
	}
}

func TestPackedGrowsToLargestNode(t *testing.T) {
	p := set.Pack(2, []set.Set{*set.Of(0, 1), *set.Of(70)})
	if p.N() != 71 || !p.Row(1).Has(70) {
		t.Fatalf("N = %d, row 1 = %v", p.N(), p.Row(1).Set())
	}
}

func TestPackedBudget(t *testing.T) {
	p := set.Pack(1000, []set.Set{*set.Of(1), *set.Of(2)})
	if err := p.BuildAvoiders(p.TableBytes() - 1); !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("BuildAvoiders over budget: %v, want ErrMemoryBudget", err)
	}
	if err := p.BuildContaining(p.TableBytes() - 1); !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("BuildContaining over budget: %v, want ErrMemoryBudget", err)
	}
}

func BenchmarkWordsAndLen(b *testing.B) {
	x, y := set.MakeWords(4096), set.MakeWords(4096)
	x.Fill(3000)
	y.Fill(4000)
	for b.Loop() {
		_ = x.AndLen(y)
	}
}

func TestProgress(t *testing.T) {
	var got []string
	p := set.Progress(func(stage string, done, total int64) {
		got = append(got, fmt.Sprint(stage, done, "/", total))
	})
	p.Report("count", 1, 4)
	p.Stage("search")(2, 5)
	var none set.Progress
	none.Report("count", 1, 4) // a nil Progress is ignored
	if none.Stage("search") != nil {
		t.Error("Stage of a nil Progress is not nil")
	}
	if want := []string{"count1/4", "search2/5"}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

// UnionWords adds the elements of the words, and the set then holds what
// adding them one by one gives: the same elements, length and hash.
func TestUnionWords(t *testing.T) {
	for _, nodes := range [][]int{{}, {0}, {63}, {64}, {1, 5, 127, 130}, {199}} {
		var want, got set.Set
		want.Grow(3)
		got.Grow(3)
		w := set.MakeWords(256)
		for _, v := range nodes {
			want.Add(v)
			w.Add(v)
		}
		got.UnionWords(w)
		if !set.Equal(&got, &want) || got.Hash() != want.Hash() || got.String() != want.String() {
			t.Errorf("%v: got %v, want %v", nodes, got.String(), want.String())
		}
		got.UnionWords(set.MakeWords(64))
		if !set.Equal(&got, &want) {
			t.Errorf("%v: an empty union changed the set to %v", nodes, got.String())
		}
	}
}
