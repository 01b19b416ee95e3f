package set_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// randomListed returns m random quorums over n nodes, with repeats,
// subsets of earlier quorums and (sometimes) owners, so that every
// operation has something to find.
func randomListed(rng *rand.Rand, n, m, maxSize int, owners bool) *set.Family {
	f := set.NewFamily(n)
	for i := range m {
		var q set.Set
		switch {
		case i > 0 && rng.IntN(8) == 0:
			q.Copy(&f.Quorums[rng.IntN(i)]) // a repeat
		case i > 0 && rng.IntN(8) == 0:
			q.Copy(&f.Quorums[rng.IntN(i)]) // a subset or superset
			if v, ok := q.Min(); ok && q.Len() > 1 && rng.IntN(2) == 0 {
				q.Remove(v)
			} else {
				q.Add(rng.IntN(n))
			}
		default:
			for range 1 + rng.IntN(maxSize) {
				q.Add(rng.IntN(n))
			}
		}
		o := set.NoOwner
		if owners && rng.IntN(4) != 0 {
			o = rng.IntN(n)
		}
		f.Add(&q, o)
	}
	return f
}

// The list form gives what the bit-set form gives: Redundant,
// Minimalize, Canonical, Stats, Degrees, EverySubset, All and Validate.
func TestSparseMatchesDense(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 41))
		n := 2 + rng.IntN(300)
		if seed%10 == 0 {
			n = 1 + rng.IntN(1<<20) // wide ids
		}
		f := randomListed(rng, n, 1+rng.IntN(200), 1+rng.IntN(12), seed%3 == 0)
		g := testsys.Sparse(f)
		if err := g.Validate(); err != nil {
			t.Fatalf("seed %d: Validate: %v", seed, err)
		}
		rf, err1 := f.Redundant(ctx)
		rg, err2 := g.Redundant(ctx)
		if err1 != nil || err2 != nil || !slices.Equal(rf, rg) {
			t.Fatalf("seed %d: Redundant dense %v (%v), sparse %v (%v)", seed, rf, err1, rg, err2)
		}
		if a, b := f.Stats(), g.Stats(); !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: Stats dense %+v, sparse %+v", seed, a, b)
		}
		if !slices.Equal(f.Degrees(), g.Degrees()) {
			t.Fatalf("seed %d: Degrees differ", seed)
		}
		var got [][]int
		for _, q := range g.All() {
			got = append(got, q.Elements())
		}
		if want := quorums(f); !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: All gives %v, want %v", seed, got, want)
		}
		for _, op := range []struct {
			name string
			do   func(*set.Family)
		}{
			{"Canonical", (*set.Family).Canonical},
			{"Minimalize", func(f *set.Family) { f.Minimalize() }},
		} {
			a, b := f.Clone(), g.Clone()
			op.do(a)
			op.do(b)
			b.Densify()
			if !reflect.DeepEqual(quorums(a), quorums(b)) || !slices.Equal(a.Owners, b.Owners) {
				t.Fatalf("seed %d: %s: dense %v %v, sparse %v %v", seed, op.name, quorums(a), a.Owners, quorums(b), b.Owners)
			}
		}
		n1, w1, ok1 := f.EverySubset()
		n2, w2, ok2 := g.EverySubset()
		if !slices.Equal(n1, n2) || w1 != w2 || ok1 != ok2 {
			t.Fatalf("seed %d: EverySubset dense %v %d %v, sparse %v %d %v", seed, n1, w1, ok1, n2, w2, ok2)
		}
	}
}

// EverySubset recognises a threshold written out in the list form too.
func TestSparseEverySubset(t *testing.T) {
	f, err := set.NewThreshold(7, 3).Enumerate(100)
	if err != nil {
		t.Fatal(err)
	}
	nodes, w, ok := testsys.Sparse(f).EverySubset()
	if !ok || w != 3 || !slices.Equal(nodes, []int{0, 1, 2, 3, 4, 5, 6}) {
		t.Errorf("EverySubset = %v, %d, %v; want 0..6, 3, true", nodes, w, ok)
	}
}

// NewLists refuses what a list form cannot hold and sorts what it takes.
func TestNewLists(t *testing.T) {
	l, err := set.NewLists([]int32{5, 1, 3, 2, 0}, []int{3, 5})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.At(0), []int32{1, 3, 5}) || !slices.Equal(l.At(1), []int32{0, 2}) {
		t.Errorf("lists %v %v, want [1 3 5] [0 2]", l.At(0), l.At(1))
	}
	for _, tt := range []struct {
		nodes []int32
		end   []int
	}{
		{[]int32{1, 1}, []int{2}},
		{[]int32{-1}, []int{1}},
		{[]int32{1}, []int{2}},
		{[]int32{1, 2}, []int{2, 1}},
	} {
		if _, err := set.NewLists(tt.nodes, tt.end); err == nil {
			t.Errorf("NewLists(%v, %v) took it", tt.nodes, tt.end)
		}
	}
}

// A quorum over node ids up to 10^6 takes 4 bytes a node as a list, and
// its bit set the 125 KB its largest id needs: what the readers weigh.
func TestListsBytes(t *testing.T) {
	var l set.Lists
	for i := range int32(1000) {
		l.Append([]int32{i, 999_000 + i})
	}
	if b := l.Bytes(); b > 1000*(2*4+8)*2 {
		t.Errorf("1000 lists of 2 nodes take %d bytes", b)
	}
	if b := l.SetBytes(); b < 1000*999_000/8 {
		t.Errorf("their bit sets are said to take %d bytes, less than their words", b)
	}
}

// TestSetsOf checks the sets cut from one array against sets made one by
// one, and that a set changed or grown past its part leaves the others as
// they were.
func TestSetsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var nodes []int32
	var end []int
	var want []*set.Set
	for range 300 {
		s := set.New(0)
		for range r.IntN(6) {
			v := r.IntN(200)
			if !s.Has(v) {
				s.Add(v)
				nodes = append(nodes, int32(v)) // in the order drawn, not sorted
			}
		}
		end = append(end, len(nodes))
		want = append(want, s)
	}
	got := set.SetsOf(nodes, end)
	if len(got) != len(want) {
		t.Fatalf("%d sets, want %d", len(got), len(want))
	}
	for i := range got {
		if !set.Equal(&got[i], want[i]) {
			t.Fatalf("set %d: %v, want %v", i, &got[i], want[i])
		}
	}
	for i := range got {
		got[i].Add(i % 64) // inside its own part (an empty set grows)
	}
	for i := range got {
		if i%2 == 0 {
			got[i].Add(1000 + i) // past every part: moves
		}
	}
	for i := range got {
		w := want[i].Clone()
		w.Add(i % 64)
		if i%2 == 0 {
			w.Add(1000 + i)
		}
		if !set.Equal(&got[i], w) {
			t.Fatalf("set %d after changes: %v, want %v", i, &got[i], w)
		}
	}
}
