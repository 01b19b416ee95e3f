package partfile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// oldParts reads the parts testdata/NAME-I-of-N.json and checks them;
// it returns them in shard order with their bytes.
func oldParts(t *testing.T, name string, n int) ([]*shard.Part, [][]byte) {
	t.Helper()
	var parts []*shard.Part
	var datas [][]byte
	var names []string
	for i := n; i >= 1; i-- {
		path := filepath.Join("testdata", fmt.Sprintf("%s-%d-of-%d.json", name, i, n))
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := shard.Read(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		parts, datas, names = append(parts, p), append([][]byte{data}, datas...), append(names, path)
	}
	checked, err := shard.Check(parts, names)
	if err != nil {
		t.Fatal(err)
	}
	return checked, datas
}

func input(t *testing.T, name string) set.System {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := format.ReadBytes(data, format.JSON, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if h, err := InputHash(sys); err != nil {
		t.Fatal(err)
	} else if h2 := shard.HashInput(append(bytes.TrimSpace(data), '\n')); h != h2 {
		t.Fatalf("%s: the canonical JSON hashes to %s, the file to %s", name, h, h2)
	}
	return sys
}

func sameBytes(t *testing.T, what string, p *shard.Part, want []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := shard.Write(&b, p); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("%s encodes back to\n%s\nnot\n%s", what, b.Bytes(), want)
	}
}

// Availability parts written before the move (billiard q = 7 in pieces,
// 2 shards; the (h,k)-arbiter of Kuo's uniform 2-arbiter over 7 nodes,
// closed forms carried whole by shard 1 of 3) merge to the unsplit
// polynomials and encode back to the same bytes.
func TestOldAvailabilityParts(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, input string
		n           int
	}{{"avb7j", "b7.json", 2}, {"avhk", "hk.json", 3}} {
		parts, datas := oldParts(t, c.name, c.n)
		sys := input(t, c.input)
		if parts[0].InputSHA256 != mustHash(t, sys) {
			t.Fatalf("%s: parts of another input", c.name)
		}
		o, rs, err := DecodeAvailability(parts)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rs {
			p, err := AvailabilityPart(parts[i].Spec(), parts[i].InputSHA256, o, r)
			if err != nil {
				t.Fatal(err)
			}
			sameBytes(t, fmt.Sprintf("%s shard %d", c.name, i+1), p, datas[i])
		}
		for fi, fam := range sys.Families() {
			var shares []*availability.Share
			for _, r := range rs {
				shares = append(shares, r.Shares[fi])
			}
			got, _, err := availability.MergeShares(ctx, shares, o.Points)
			if err != nil {
				t.Fatal(err)
			}
			want, err := availability.Compute(ctx, fam, availability.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Exact || !got.Poly.Equal(want.Poly) {
				t.Errorf("%s family %d: merged %v, unsplit %v", c.name, fi+1, got.Poly, want.Poly)
			}
		}
	}
}

// Transversal-count parts of PG(2,3) written before the move (3 shards)
// merge to the unsplit count and encode back to the same bytes.
func TestOldTransversalsParts(t *testing.T) {
	parts, datas := oldParts(t, "tvp3", 3)
	sys := input(t, "p3.json")
	o, counts, err := DecodeTransversals(parts)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range counts {
		pc := &domination.PieceCount{Pieces: c.Pieces, BySize: c.BySize}
		for p := range c.Pieces {
			if parts[i].Spec().Owns(p) && len(pc.Done) < c.PiecesDone {
				pc.Done = append(pc.Done, p)
			}
		}
		p, err := TransversalsPart(parts[i].Spec(), parts[i].InputSHA256, o, sys.N(), pc)
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, fmt.Sprintf("shard %d", i+1), p, datas[i])
	}
	got, err := domination.MergeShardCounts(counts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := domination.CountTransversals(context.Background(), sys.Family)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total.Cmp(want.Total) != 0 || got.Smallest != want.Smallest || len(got.BySize) != len(want.BySize) {
		t.Errorf("merged %v %v, unsplit %v %v", got.Total, got.BySize, want.Total, want.BySize)
	}
}

// --smallest parts of the 6×6 grid written before the move (3 shards)
// carry the input, merge to the unsplit smallest witness and encode back
// to the same bytes; a part whose carried system was changed is refused.
func TestOldSmallestParts(t *testing.T) {
	ctx := context.Background()
	parts, datas := oldParts(t, "smg6", 3)
	sys := input(t, "g6.json")
	o, f, sps, err := DecodeSmallest(parts)
	if err != nil {
		t.Fatal(err)
	}
	canon, hash, err := Canonical(sys)
	if err != nil {
		t.Fatal(err)
	}
	if !set.Equal(&f.Quorums[0], &sys.Family.Quorums[0]) || hash != parts[0].InputSHA256 {
		t.Fatal("the carried system is not the input")
	}
	for i, sp := range sps {
		p, err := SmallestPart(parts[i].Spec(), hash, canon, o, sp)
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, fmt.Sprintf("shard %d", i+1), p, datas[i])
	}
	got, err := domination.MergeSmallest(ctx, f, sps)
	if err != nil {
		t.Fatal(err)
	}
	want, err := domination.DecideSmallest(ctx, sys.Family)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Smallest || !set.Equal(got.Witness, want.Witness) || got.Proof != want.Proof {
		t.Errorf("merged %v (%s), unsplit %v (%s)", got.Witness, got.Proof, want.Witness, want.Proof)
	}
	// Tampered: one quorum of the carried system changed.
	tampered, err := shard.Read(bytes.Replace(datas[1], []byte("[\n        1,"), []byte("[\n        2,"), 1))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(tampered.Result, parts[1].Result) {
		t.Fatal("the tampering changed nothing")
	}
	_, _, _, err = DecodeSmallest([]*shard.Part{tampered, parts[0], parts[2]})
	if me, ok := err.(*shard.MergeError); !ok || me.Shard != (shard.Spec{Index: 2, Count: 3}) || !strings.Contains(me.Msg, "not the input its input_sha256 names") {
		t.Errorf("a tampered system: %v", err)
	}
}

func mustHash(t *testing.T, sys set.System) string {
	t.Helper()
	h, err := InputHash(sys)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
