package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/shard"
	"github.com/coterie-dev/coterie/shard/partfile"
)

// tvSplit runs `transversals FILE --count ARGS --shard i/n` for every i,
// writes the parts to dir and returns their paths.
func tvSplit(t *testing.T, dir, file string, n int, args ...string) []string {
	t.Helper()
	var paths []string
	for i := 1; i <= n; i++ {
		code, out, errs := runAvailabilityCmd(t, append([]string{"transversals", file, "--count", "--shard", fmt.Sprintf("%d/%d", i, n)}, args...)...)
		if code != 0 {
			t.Fatalf("shard %d/%d %v: exit %d: %s", i, n, args, code, errs)
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-tv-%d-of-%d%s.json", filepath.Base(file), i, n, strings.Join(args, "")))
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// tvRandomFile writes a random family of m quorums over n nodes as text.
func tvRandomFile(t *testing.T, dir string, seed uint64, n, m int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	var b strings.Builder
	for range m {
		var q []string
		for v := 1; v <= n; v++ {
			if r.IntN(3) == 0 {
				q = append(q, fmt.Sprint(v))
			}
		}
		if len(q) == 0 {
			q = append(q, fmt.Sprint(1+r.IntN(n)))
		}
		b.WriteString(strings.Join(q, " ") + "\n")
	}
	path := filepath.Join(dir, fmt.Sprintf("random-%d.txt", seed))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The merge of N shards of a transversal count prints exactly what the
// unsplit count prints, table and JSON, for N = 1, 2, 3, 7: PG(2,3), the
// 4×4 grid, random families and a threshold family (one piece, carried by
// shard 1).
func TestMergeTransversalsEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		avGenerate(t, dir, "pg3.json", "fpp", "--order", "3"),
		avGenerate(t, dir, "grid.json", "grid", "--n", "16"),
		avGenerate(t, dir, "maj.json", "majority", "--n", "9"),
		tvRandomFile(t, dir, 1, 20, 30),
		tvRandomFile(t, dir, 2, 30, 60),
	}
	for _, file := range files {
		for _, args := range [][]string{nil, {"--json"}} {
			code, want, errs := runAvailabilityCmd(t, append([]string{"transversals", file, "--count"}, args...)...)
			if code != 0 || want == "" {
				t.Fatalf("%s %v: exit %d: %s", file, args, code, errs)
			}
			for _, n := range []int{1, 2, 3, 7} {
				parts := tvSplit(t, dir, file, n)
				code, got, errs := runAvailabilityCmd(t, append(append([]string{"merge"}, args...), parts...)...)
				if code != 0 || got != want {
					t.Errorf("%s %v: merge of %d shards: exit %d %s:\n%s\nwant\n%s", file, args, n, code, errs, got, want)
				}
			}
		}
	}
}

// Missing, duplicated and foreign transversal-count parts are refused
// with a message that says which, and so is a mix with availability.
func TestMergeTransversalsRefuses(t *testing.T) {
	dir := t.TempDir()
	grid := avGenerate(t, dir, "grid.json", "grid", "--n", "16")
	pg := avGenerate(t, dir, "pg3.json", "fpp", "--order", "3")
	three := tvSplit(t, dir, grid, 3)
	other := tvSplit(t, dir, pg, 3)
	av := avSplit(t, dir, grid, 3)
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{three[:2], "incomplete: shard 3 of 3 missing"},
		{[]string{three[0], three[1], three[1], three[2]}, "shard 2/3 is given twice"},
		{[]string{three[0], three[1], other[2]}, "of another input"},
		{[]string{three[0], three[1], av[2]}, "transversals"},
	} {
		code, out, errs := runAvailabilityCmd(t, append([]string{"merge"}, c.parts...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.parts, code, out, errs, c.want)
		}
	}
	for _, args := range [][]string{{"--shard", "1/2"}, {"--checkpoint", filepath.Join(dir, "ck")}} {
		code, _, errs := runAvailabilityCmd(t, append([]string{"transversals", grid}, args...)...)
		if code != 2 || !strings.Contains(errs, "go with --count") {
			t.Errorf("%v without --count: exit %d, %s", args, code, errs)
		}
	}
}

// --checkpoint: a count that resumes from a checkpoint holding some of
// the pieces (as a stopped run leaves it) prints what an uninterrupted
// count prints, and so does a shard resuming its own checkpoint; a
// stopped run saves nothing it did not finish; checkpoints of another
// input, shard or command are refused.
func TestTransversalsCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	file := tvRandomFile(t, dir, 4, 24, 40)
	grid := avGenerate(t, dir, "grid.json", "grid", "--n", "16")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := format.ReadBytes(data, format.Text, format.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	hash, err := inputHash(sys)
	if err != nil {
		t.Fatal(err)
	}
	// The family read here is the one the command reads.
	_, part, _ := runAvailabilityCmd(t, "transversals", file, "--count", "--shard", "1/1")
	if !strings.Contains(part, hash) {
		t.Fatalf("the part of %s does not carry the hash %s:\n%s", file, hash, part)
	}
	// A count stopped after some pieces: the first ten of shard 1/1.
	whole := shard.Spec{Index: 1, Count: 1}
	st, err := domination.CountTransversalPieces(context.Background(), sys.Family, func(p int) bool { return p < 10 }, nil, domination.Options{}, nil)
	if err != nil || st.Pieces <= 10 {
		t.Fatalf("%v, %d pieces", err, st.Pieces)
	}
	ck := filepath.Join(dir, "ck.json")
	if err := writeCheckpoint(ck, partfile.TransversalsCheckpoint(hash, whole, st)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{nil, {"--json"}} {
		_, want, _ := runAvailabilityCmd(t, append([]string{"transversals", file, "--count"}, args...)...)
		if err := writeCheckpoint(ck, partfile.TransversalsCheckpoint(hash, whole, st)); err != nil {
			t.Fatal(err)
		}
		code, got, errs := runAvailabilityCmd(t, append([]string{"transversals", file, "--count", "--checkpoint", ck}, args...)...)
		if code != 0 || got != want {
			t.Errorf("resumed %v: exit %d %s:\n%s\nwant\n%s", args, code, errs, got, want)
		}
		// The finished checkpoint gives the same again, counting nothing.
		if code, got, _ := runAvailabilityCmd(t, append([]string{"transversals", file, "--count", "--checkpoint", ck}, args...)...); code != 0 || got != want {
			t.Errorf("from a finished checkpoint %v: exit %d:\n%s", args, code, got)
		}
	}
	// Stopped before it counts anything more, a resumed count prints the
	// saved pieces' count marked partial and leaves the checkpoint as it was.
	if err := writeCheckpoint(ck, partfile.TransversalsCheckpoint(hash, whole, st)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(ck)
	stopped, cancelStopped := context.WithCancel(context.Background())
	cancelStopped()
	var sout, serr strings.Builder
	code := run(stopped, []string{"transversals", file, "--count", "--checkpoint", ck}, &streams{in: strings.NewReader(""), out: &sout, err: &serr})
	wantPartial := fmt.Sprintf("partial count, the search stopped before the end: at least %s minimal transversals", st.Count().Total)
	if code == 0 || !strings.Contains(sout.String(), wantPartial) || !strings.Contains(serr.String(), "stopped with 10 pieces done (saved in") {
		t.Errorf("stopped resume: exit %d, stdout %q, stderr %q", code, sout.String(), serr.String())
	}
	if after, _ := os.ReadFile(ck); string(after) != string(before) {
		t.Errorf("a stopped resume changed the checkpoint")
	}
	// A shard resumes its own checkpoint to the part an uninterrupted
	// shard writes.
	sp := shard.Spec{Index: 2, Count: 3}
	st2, err := domination.CountTransversalPieces(context.Background(), sys.Family, func(p int) bool { return sp.Owns(p) && p < 12 }, nil, domination.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ck2 := filepath.Join(dir, "ck2.json")
	if err := writeCheckpoint(ck2, partfile.TransversalsCheckpoint(hash, sp, st2)); err != nil {
		t.Fatal(err)
	}
	_, wantPart, _ := runAvailabilityCmd(t, "transversals", file, "--count", "--shard", "2/3")
	if code, got, errs := runAvailabilityCmd(t, "transversals", file, "--count", "--shard", "2/3", "--checkpoint", ck2); code != 0 || got != wantPart {
		t.Errorf("shard 2/3 resumed: exit %d %s:\n%s\nwant\n%s", code, errs, got, wantPart)
	}
	// A run stopped before it starts leaves no checkpoint.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ck3 := filepath.Join(dir, "ck3.json")
	var out, errb strings.Builder
	if code := run(ctx, []string{"transversals", file, "--count", "--checkpoint", ck3}, &streams{in: strings.NewReader(""), out: &out, err: &errb}); code == 0 {
		t.Errorf("a cancelled count succeeded: %s", out.String())
	}
	if _, err := os.Stat(ck3); err == nil {
		t.Errorf("a cancelled count wrote a checkpoint")
	}
	avCk := filepath.Join(dir, "av.json")
	b7 := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
	if code, _, errs := runAvailabilityCmd(t, "availability", b7, "--checkpoint", avCk); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		file, ck string
		args     []string
		want     string
	}{
		{grid, ck, nil, "a checkpoint of another input"},
		{file, ck, []string{"--shard", "1/2"}, "a checkpoint of shard 1/1, not 1/2"},
		{file, ck2, nil, "a checkpoint of shard 2/3, not 1/1"},
		{file, file, nil, "not a coterie checkpoint"},
	} {
		code, _, errs := runAvailabilityCmd(t, append([]string{"transversals", c.file, "--count", "--checkpoint", c.ck}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%s with %s %v: exit %d, %s; want %q", c.file, c.ck, c.args, code, errs, c.want)
		}
	}
	code, _, errs := runAvailabilityCmd(t, "transversals", b7, "--count", "--checkpoint", avCk)
	if code != 2 || !strings.Contains(errs, "a checkpoint of availability") {
		t.Errorf("availability checkpoint: exit %d, %s", code, errs)
	}
}
