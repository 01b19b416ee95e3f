package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// --checkpoint on the plane sweep of PG(2,8) (its pieces are those of the
// sweep, not of a BDD): a checkpoint of BDD pieces of the same input and
// shard is refused (exit 2, the file left as it was); a shard and a whole
// run stopped by --exact-time say how many pieces they did and where they
// are saved. (That a resumed sweep equals an uninterrupted one is
// checked on smaller planes by the availability package: the sweep of
// PG(2,8) takes tens of minutes.)
func TestPlaneCheckpoint(t *testing.T) {
	dir := t.TempDir()
	pg8 := avGenerate(t, dir, "pg8.json", "fpp", "--order", "8")
	data, err := os.ReadFile(pg8)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := format.ReadBytes(data, format.JSON, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	hash, err := inputHash(sys)
	if err != nil {
		t.Fatal(err)
	}
	sp := shard.Spec{Index: 1, Count: 2}
	ck := &availability.Checkpoint{}
	ck.Record(0, &availability.PieceState{Bits: 6, Split: "nodes 1,2,3,4,5,6", Done: []int{0}, Sum: availability.NewPolynomial(73)})
	var buf bytes.Buffer
	if err := shard.WriteCheckpoint(&buf, partfile.AvailabilityCheckpoint(hash, sp, ck)); err != nil {
		t.Fatal(err)
	}
	bdd := filepath.Join(dir, "bdd-ck.json")
	if err := os.WriteFile(bdd, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runAvailabilityCmd(t, "availability", pg8, "--shard", "1/2", "--checkpoint", bdd)
	if code != 2 || out != "" || !strings.Contains(errs, bdd+": a checkpoint that does not fit this run: ") ||
		!strings.Contains(errs, "family 1: pieces cut by nodes 1,2,3,4,5,6, and this run cuts them by the plane sweep of order 8: start afresh (remove it") {
		t.Errorf("a checkpoint of BDD pieces: exit %d, %q", code, errs)
	}
	if after, _ := os.ReadFile(bdd); !bytes.Equal(after, buf.Bytes()) {
		t.Error("the refused checkpoint was changed")
	}

	fresh := filepath.Join(dir, "ck.json")
	code, out, errs = runAvailabilityCmd(t, "availability", pg8, "--shard", "1/2", "--checkpoint", fresh, "--exact-time", "100ms")
	want := `"reason": "the plane sweep of order 8 did not finish within 100ms: 0 of 32 pieces done (saved in ` + fresh + `: run again to resume)"`
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, `"method": "projective-plane"`) {
		t.Errorf("a shard out of time: exit %d, %s\n%s", code, errs, out)
	}
	whole := filepath.Join(dir, "whole-ck.json")
	code, _, errs = runAvailabilityCmd(t, "availability", pg8, "--checkpoint", whole, "--exact-time", "100ms", "--p", "0.9", "--samples", "1000")
	if code != 0 || !strings.Contains(errs, "the plane sweep of order 8 did not finish within 100ms: 0 of 64 pieces done (saved in "+whole) {
		t.Errorf("a whole run out of time: exit %d, %s", code, errs)
	}
}
