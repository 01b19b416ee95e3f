package format_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// wideDat returns m random quorums of 2..20 nodes over the ids 1..top,
// as a .dat file.
func wideDat(seed uint64, m, top int) []byte {
	rng := rand.New(rand.NewPCG(seed, 9))
	var b bytes.Buffer
	for range m {
		k := 2 + rng.IntN(19)
		seen := map[int]bool{}
		for len(seen) < k {
			v := 1 + rng.IntN(top)
			if !seen[v] {
				seen[v] = true
				fmt.Fprintf(&b, "%d ", v)
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Quorums over wide ids are held as node lists when the reader may, and
// the budget sees only what the lists take: 20,000 quorums over ids up to
// 10^6 fit in 16 MiB (their bit sets would take 2.5 GB), and a reader
// that may not hold lists refuses them at the budget.
func TestReadSparseWithinBudget(t *testing.T) {
	const budget = 16 << 20
	data := wideDat(1, 20000, 1_000_000)
	sys, err := format.ReadBytes(data, format.Dat, format.Options{Base: 1, MaxMemory: budget, Sparse: true})
	if err != nil {
		t.Fatal(err)
	}
	f := sys.Family
	if !f.IsSparse() || f.Len() != 20000 {
		t.Fatalf("read %d quorums, sparse %v; want 20000 as lists", f.Len(), f.IsSparse())
	}
	if used := int64(len(data)) + f.Sparse.Bytes(); used > budget {
		t.Errorf("the input and the lists take %d bytes, over the budget of %d", used, budget)
	}
	if f.Sparse.SetBytes() < 20*budget {
		t.Errorf("the bit sets would take %d bytes: the test does not test the budget", f.Sparse.SetBytes())
	}
	_, err = format.ReadBytes(data, format.Dat, format.Options{Base: 1, MaxMemory: budget})
	if !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("without Sparse: %v, want the memory budget error", err)
	}
	// Lists that do not fit either stop reading at the budget.
	_, err = format.ReadBytes(data, format.Dat, format.Options{Base: 1, MaxMemory: 2 * int64(len(data)), Sparse: true})
	if !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("lists over the budget: %v, want the memory budget error", err)
	}
}

// Narrow ids keep the bit sets, exactly as a reader without Sparse
// gives them; wide ids without a budget become lists with the same
// quorums; and lists write back to every format as the same file.
func TestReadSparseForm(t *testing.T) {
	narrow := wideDat(2, 3000, 200)
	a, err := format.ReadBytes(narrow, format.Dat, format.Options{Base: 1, Sparse: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := format.ReadBytes(narrow, format.Dat, format.Options{Base: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a.Family.IsSparse() || !reflect.DeepEqual(a.Family, b.Family) {
		t.Fatal("ids up to 200: the family differs from the bit-set reader's")
	}
	wide := wideDat(3, 1000, 1_000_000)
	s, err := format.ReadBytes(wide, format.Dat, format.Options{Base: 1, Sparse: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err := format.ReadBytes(wide, format.Dat, format.Options{Base: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Family.IsSparse() || d.Family.IsSparse() {
		t.Fatalf("1000 quorums over ids up to 10^6: sparse %v, want lists (and bit sets without Sparse)", s.Family.IsSparse())
	}
	for i, q := range s.Family.All() {
		if !set.Equal(q, &d.Family.Quorums[i]) {
			t.Fatalf("quorum %d: lists %v, bit sets %v", i+1, q, &d.Family.Quorums[i])
		}
	}
	for _, f := range []format.Format{format.Dat, format.Text, format.JSON, format.CSV} {
		var ws, wd bytes.Buffer
		if err := format.Write(&ws, s, f, format.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		if err := format.Write(&wd, d, f, format.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ws.Bytes(), wd.Bytes()) {
			t.Errorf("%s: the lists write another file than the bit sets", f)
		}
		back, err := format.ReadBytes(ws.Bytes(), f, format.Options{Base: 1, Sparse: true})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !back.Family.IsSparse() || !slices.Equal(back.Family.Degrees(), s.Family.Degrees()) || back.Family.Len() != s.Family.Len() {
			t.Errorf("%s: read back differs", f)
		}
	}
}
