package jsonreport_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
)

// Sizes are written in numeric order (2 before 10), the counts as decimal
// strings, and partial only when the count stopped.
func TestTransversalCountJSON(t *testing.T) {
	c := &domination.TransversalCount{Total: big.NewInt(7), BySize: map[int]*big.Int{10: big.NewInt(4), 2: big.NewInt(3)}, Smallest: 2}
	b, err := jsonreport.NewTransversalCount(c).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"count": "7", "by_size": {"2": "3", "10": "4"}, "smallest": 2}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	c.Partial = true
	b, _ = jsonreport.NewTransversalCount(c).MarshalJSON()
	if want := `{"count": "7", "by_size": {"2": "3", "10": "4"}, "smallest": 2, "partial": true}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if _, err := (jsonreport.TransversalCount{BySize: map[string]string{"x": "1"}}).MarshalJSON(); err == nil {
		t.Error("a size that is no number was written")
	}
}

// The report of a real count reads back with its sizes adding up to the
// total: the minimal transversals of a 3×3 grid (rows read, a row and a
// column a quorum) are counted by brute force over all 2^9 subsets.
func TestTransversalCountRoundTrip(t *testing.T) {
	f := set.NewFamily(9)
	for r := range 3 {
		for c := range 3 {
			q := set.New(9)
			for i := range 3 {
				q.Add(3*r + i)
				q.Add(3*i + c)
			}
			f.Add(q, set.NoOwner)
		}
	}
	c, err := domination.CountTransversals(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	// Brute force: a minimal transversal meets every quorum, and no node
	// can be left out of it.
	meets := func(s uint) bool {
		for i := range f.Quorums {
			hit := false
			for v := range f.Quorums[i].All() {
				hit = hit || s&(1<<v) != 0
			}
			if !hit {
				return false
			}
		}
		return true
	}
	want := 0
	for s := uint(0); s < 1<<9; s++ {
		if !meets(s) {
			continue
		}
		minimal := true
		for v := range 9 {
			if s&(1<<v) != 0 && meets(s&^(1<<v)) {
				minimal = false
			}
		}
		if minimal {
			want++
		}
	}
	b, err := json.Marshal(jsonreport.NewTransversalCount(c))
	if err != nil {
		t.Fatal(err)
	}
	var back jsonreport.TransversalCount
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	sum := new(big.Int)
	for _, n := range back.BySize {
		x, ok := new(big.Int).SetString(n, 10)
		if !ok {
			t.Fatalf("count %q", n)
		}
		sum.Add(sum, x)
	}
	if back.Count != sum.String() || back.Count != big.NewInt(int64(want)).String() {
		t.Errorf("count %s, by size adding to %s, brute force %d", back.Count, sum, want)
	}
}
