package web

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// TestUploadCost: the estimate made without parsing never counts fewer
// quorums or memberships than the file holds, in every format, and counts
// them closely for what coterie itself writes (JSON's labels and owners
// lists count as quorums too). Random
// systems with owners and labels, written by format.Write and read back
// by format.ReadBytes for the truth.
func TestUploadCost(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 60 {
		n := 2 + r.IntN(40)
		f := set.NewFamily(n)
		for range 1 + r.IntN(30) {
			q := set.New(n)
			for v := range n {
				if r.IntN(3) == 0 {
					q.Add(v)
				}
			}
			if q.Len() == 0 {
				q.Add(r.IntN(n))
			}
			owner := set.NoOwner
			if trial%2 == 0 {
				owner = r.IntN(n)
			}
			f.Add(q, owner)
		}
		if trial%3 == 0 {
			f.Labels = make([]string, n)
			for v := range f.Labels {
				f.Labels[v] = string(rune('a'+v%26)) + "x"
			}
		}
		sys := set.System{Family: f}
		members := int64(0)
		for i := range f.Quorums {
			members += int64(f.Quorums[i].Len())
		}
		for _, fm := range []format.Format{format.JSON, format.Text, format.CSV, format.Dat} {
			var buf bytes.Buffer
			if err := format.Write(&buf, sys, fm, format.DefaultOptions()); err != nil {
				t.Fatal(err)
			}
			back, err := format.ReadBytes(buf.Bytes(), fm, format.DefaultOptions())
			if err != nil {
				t.Fatalf("%v: %v", fm, err)
			}
			q, m := uploadCost(buf.Bytes(), fm)
			wantQ := int64(len(back.Family.Quorums))
			if q < wantQ || m < members {
				t.Errorf("trial %d, %v: estimated %d quorums, %d memberships; the file holds %d and %d:\n%s", trial, fm, q, m, wantQ, members, buf.String())
			}
			// Numbers beyond the memberships: JSON's n and owners, the
			// CSV quorum and owner columns, the header's n.
			if q > wantQ+3 || m > 3*members+int64(len(f.Quorums))+8 {
				t.Errorf("trial %d, %v: estimated %d quorums, %d memberships for %d and %d", trial, fm, q, m, wantQ, members)
			}
		}
	}
}
