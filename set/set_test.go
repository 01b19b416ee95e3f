package set_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

func TestIntersects(t *testing.T) {
	for _, tt := range []struct {
		name string
		a, b []int
		want bool
	}{
		{"disjoint", []int{0, 1}, []int{2}, false},
		{"shared", []int{0, 1}, []int{1, 2}, true},
		{"empty", nil, []int{1, 2}, false},
		{"far word", []int{0, 200}, []int{200}, true},
		{"different lengths", []int{3}, []int{3, 1000}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := set.Intersects(set.Of(tt.a...), set.Of(tt.b...)); got != tt.want {
				t.Errorf("Intersects(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	for _, tt := range []struct {
		a, b []int
		want int
	}{
		{[]int{0, 1}, []int{0, 1, 5}, -1},
		{[]int{0, 1, 5}, []int{0, 2}, -1},
		{[]int{0, 2}, []int{1}, -1},
		{[]int{1}, []int{1}, 0},
		{nil, []int{0}, -1},
		{[]int{1, 3, 5}, []int{1, 5}, -1},
		{[]int{1, 3}, []int{1, 3, 5}, -1},
		{[]int{63}, []int{63, 64}, -1},
		{[]int{62, 63}, []int{62}, 1},
	} {
		if got := set.Compare(set.Of(tt.a...), set.Of(tt.b...)); got != tt.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := set.Compare(set.Of(tt.b...), set.Of(tt.a...)); got != -tt.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

// randomSet returns a random subset of 0..n-1 as a set and a sorted slice.
func randomSet(r *rand.Rand, n int, p float64) (*set.Set, []int) {
	var xs []int
	for i := range n {
		if r.Float64() < p {
			xs = append(xs, i)
		}
	}
	s := set.New(r.IntN(n + 1)) // storage sizes vary on purpose
	for _, v := range xs {
		s.Add(v)
	}
	return s, xs
}

// The bitset operations agree with the same operations on sorted slices.
func TestOperationsAgainstSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		n := 1 + r.IntN(300)
		p := r.Float64()
		a, as := randomSet(r, n, p)
		b, bs := randomSet(r, n, p*r.Float64())
		inA := func(v int) bool { _, ok := slices.BinarySearch(as, v); return ok }
		inB := func(v int) bool { _, ok := slices.BinarySearch(bs, v); return ok }
		var inter, uni, diff []int
		for v := range n {
			if inA(v) && inB(v) {
				inter = append(inter, v)
			}
			if inA(v) || inB(v) {
				uni = append(uni, v)
			}
			if inA(v) && !inB(v) {
				diff = append(diff, v)
			}
		}
		check := func(name string, got *set.Set, want []int) {
			t.Helper()
			if e := got.Elements(); !slices.Equal(e, want) && !(len(e) == 0 && len(want) == 0) {
				t.Fatalf("%s(%v, %v) = %v, want %v", name, as, bs, e, want)
			}
		}
		check("Intersect", new(set.Set).Intersect(a, b), inter)
		check("Union", new(set.Set).Union(a, b), uni)
		check("Difference", new(set.Set).Difference(a, b), diff)
		// In place, aliasing the receiver.
		check("Intersect in place", a.Clone().Intersect(a.Clone(), b), inter)
		c := a.Clone()
		c.Union(c, b)
		check("Union in place", c, uni)
		c = b.Clone()
		c.Difference(a, c)
		check("Difference aliasing b", c, diff)
		var comp []int
		for v := range n {
			if !inA(v) {
				comp = append(comp, v)
			}
		}
		check("Complement", new(set.Set).Complement(a, n), comp)

		if got, want := set.Intersects(a, b), len(inter) > 0; got != want {
			t.Fatalf("Intersects(%v, %v) = %v", as, bs, got)
		}
		if got := set.IntersectionLen(a, b); got != len(inter) {
			t.Fatalf("IntersectionLen(%v, %v) = %d, want %d", as, bs, got, len(inter))
		}
		if got, want := set.Subset(a, b), len(diff) == 0; got != want {
			t.Fatalf("Subset(%v, %v) = %v", as, bs, got)
		}
		if got, want := set.Equal(a, b), slices.Equal(as, bs); got != want {
			t.Fatalf("Equal(%v, %v) = %v", as, bs, got)
		}
		if got, want := set.Compare(a, b), slices.Compare(as, bs); got != want {
			t.Fatalf("Compare(%v, %v) = %d, want %d", as, bs, got, want)
		}
		if a.Len() != len(as) {
			t.Fatalf("Len(%v) = %d", as, a.Len())
		}
		if m, ok := a.Max(); ok != (len(as) > 0) || ok && m != as[len(as)-1] {
			t.Fatalf("Max(%v) = %d, %v", as, m, ok)
		}
		if m, ok := a.Min(); ok != (len(as) > 0) || ok && m != as[0] {
			t.Fatalf("Min(%v) = %d, %v", as, m, ok)
		}
		if set.Equal(a, b) && a.Hash() != b.Hash() {
			t.Fatalf("equal sets %v hash differently", as)
		}
		var it []int
		for v := range a.All() {
			it = append(it, v)
		}
		if !slices.Equal(it, as) {
			t.Fatalf("All() = %v, want %v", it, as)
		}
	}
}

func TestAllStopsEarly(t *testing.T) {
	s := set.Of(1, 5, 70, 300)
	var got []int
	for v := range s.All() {
		got = append(got, v)
		if v == 70 {
			break
		}
	}
	if !slices.Equal(got, []int{1, 5, 70}) {
		t.Errorf("got %v", got)
	}
}

func TestHasPanicsOnNegative(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Has(-1) did not panic")
		}
	}()
	set.Of(1).Has(-1)
}

func ExampleSet_Intersect() {
	a, b := set.Of(0, 1, 2), set.Of(1, 2, 3)
	var scratch set.Set
	scratch.Intersect(a, b)
	fmt.Println(scratch.String(), set.Intersects(a, b), set.Subset(&scratch, a))
	// Output: {1 2} true true
}

func BenchmarkIntersects(b *testing.B) {
	x, y := set.New(65793), set.New(65793)
	x.Add(65000)
	y.Add(65001)
	b.ReportAllocs()
	for b.Loop() {
		set.Intersects(x, y)
	}
}

// A set whose words were long enough but whose length was short (its
// largest node below the last word's end) sees every node copied or
// combined into it.
func TestCopyIntoShortSet(t *testing.T) {
	for _, op := range []struct {
		name string
		do   func(s, a *set.Set)
	}{
		{"Copy", func(s, a *set.Set) { s.Copy(a) }},
		{"Union", func(s, a *set.Set) { s.Union(s, a) }},
		{"Intersect", func(s, a *set.Set) { s.Intersect(a, a) }},
		{"Difference", func(s, a *set.Set) { s.Difference(a, set.New(0)) }},
	} {
		s := set.Of(130) // 3 words, length 131
		a := set.Of(1, 190)
		op.do(s, a)
		if !s.Has(190) || !s.Has(1) {
			t.Errorf("%s: %v holds 1 and 190, Has says %v and %v", op.name, s, s.Has(1), s.Has(190))
		}
	}
}
