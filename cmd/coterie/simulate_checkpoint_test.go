package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
)

// pollCtx counts the polls of its Err, which is nil for the first left
// polls and then context.Canceled (never, when left is negative): a stop
// part way through a computation after a fixed amount of work, which the
// explorer's workers may poll together.
type pollCtx struct {
	context.Context
	left  int64
	polls atomic.Int64
}

func (c *pollCtx) Err() error {
	if n := c.polls.Add(1); c.left >= 0 && n > c.left {
		return context.Canceled
	}
	return nil
}

// runCtx runs the command with ctx.
func runCtx(ctx context.Context, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(ctx, args, &streams{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

// exCheckpoint is the --checkpoint file of an exploration, as the
// tests read it.
type exCheckpoint struct {
	Format         string          `json:"format"`
	Kind           string          `json:"kind"`
	InputSHA256    string          `json:"input_sha256"`
	Shard          string          `json:"shard"`
	Options        json.RawMessage `json:"options"`
	Finished       bool            `json:"finished"`
	States         int             `json:"states"`
	Expanded       int             `json:"expanded"`
	SnapshotSHA256 string          `json:"snapshot_sha256"`
	Snapshot       []byte          `json:"snapshot"`
}

// readExCheckpoint reads the checkpoint at path.
func readExCheckpoint(t *testing.T, path string) exCheckpoint {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ck exCheckpoint
	if err := json.Unmarshal(data, &ck); err != nil {
		t.Fatal(err)
	}
	return ck
}

// stopAndResume runs args with --checkpoint ck, stopped after 2, 4, 8, …
// polls of its context, until a run is not stopped, and returns that
// run's exit status and output. Each stopped run must say where it saved,
// and at least one must leave a search saved part way.
func stopAndResume(t *testing.T, ck string, args ...string) (int, string, string) {
	t.Helper()
	args = append(args, "--checkpoint", ck)
	partWay := false
	for polls := int64(2); ; polls *= 2 {
		code, out, errs := runCtx(&pollCtx{Context: context.Background(), left: polls}, args...)
		if !strings.Contains(errs, "stopped before the end") {
			if !partWay {
				t.Errorf("%v: no run stopped part way through the search", args)
			}
			return code, out, errs
		}
		if code != exitInterrupted || out != "" {
			t.Fatalf("%v stopped after %d polls: exit %d, stdout %q", args, polls, code, out)
		}
		if _, err := os.Stat(ck); err == nil {
			if !strings.Contains(errs, "saved in "+ck+": run again to resume") {
				t.Fatalf("%v stopped after %d polls: %s", args, polls, errs)
			}
			if c := readExCheckpoint(t, ck); !c.Finished && c.Expanded > 0 {
				partWay = true
			}
		}
		if polls > 1<<20 {
			t.Fatalf("%v: still stopped after %d polls", args, polls)
		}
	}
}

// An exploration stopped part way and resumed from its --checkpoint, as
// often as it takes, prints exactly the report of an uninterrupted run,
// with its exit status: Maekawa's algorithm on Fig. 1(b) (safe; and cut
// by --max-depth), on the degenerate N = 5 sets (a deadlock), the ordered
// protocol there (JSON), and two disjoint quorums (a safety violation). A
// shard resumes to the part an uninterrupted shard prints. A finished
// checkpoint gives the report again with only the merge's work, and is
// left as it was.
func TestExploreCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	fano := filepath.Join("..", "..", "testdata", "maekawa-fig1-k3.txt")
	n5 := filepath.Join("..", "..", "testdata", "maekawa-n5.txt")
	disjoint := writeTestFile(t, dir, "disjoint.txt", "1 2\n2 3\n3 4\n")
	cases := [][]string{
		{"simulate", fano, "--explore", "--requests", "2"},
		{"simulate", fano, "--explore", "--requests", "3", "--max-depth", "7"},
		{"simulate", n5, "--explore", "--requests", "3"},
		{"simulate", n5, "--explore", "--requests", "3", "--protocol", "ordered", "--json"},
		{"simulate", disjoint, "--explore", "--requests", "2", "--protocol", "maekawa"},
		{"simulate", n5, "--explore", "--requests", "3", "--shard", "2/3"},
	}
	for i, args := range cases {
		wantCode, want, errs := runAvailabilityCmd(t, args...)
		if wantCode != 0 && wantCode != exitFailed {
			t.Fatalf("%v: exit %d: %s", args, wantCode, errs)
		}
		ck := filepath.Join(dir, "ck"+string(rune('a'+i))+".json")
		code, got, errs := stopAndResume(t, ck, args...)
		if code != wantCode || got != want {
			t.Errorf("%v resumed: exit %d (want %d) %s\n%s\nwant\n%s", args, code, wantCode, errs, got, want)
		}
		if c := readExCheckpoint(t, ck); !c.Finished {
			t.Errorf("%v: the checkpoint of a finished run is not finished", args)
		}
		// From the finished checkpoint: the same again, doing only the
		// merge's work (as many polls of the context as `coterie merge`
		// of the one part makes), and the file unchanged.
		before, _ := os.ReadFile(ck)
		counted := &pollCtx{Context: context.Background(), left: -1}
		code, got, _ = runCtx(counted, append(args, "--checkpoint", ck)...)
		if code != wantCode || got != want {
			t.Errorf("%v from a finished checkpoint: exit %d:\n%s", args, code, got)
		}
		if after, _ := os.ReadFile(ck); !bytes.Equal(after, before) {
			t.Errorf("%v: a finished checkpoint was rewritten", args)
		}
		if strings.Contains(strings.Join(args, " "), "--shard") {
			continue
		}
		part := splitParts(t, dir, 1, args...)
		merged := &pollCtx{Context: context.Background(), left: -1}
		if code, got, _ := runCtx(merged, "merge", part[0]); code != wantCode || got != want {
			t.Fatalf("%v: merge of the one part: exit %d\n%s", args, code, got)
		}
		whole := &pollCtx{Context: context.Background(), left: -1}
		runCtx(whole, args...)
		if counted.polls.Load() != merged.polls.Load() {
			t.Errorf("%v from a finished checkpoint: %d polls, the merge %d (the whole search %d)", args,
				counted.polls.Load(), merged.polls.Load(), whole.polls.Load())
		}
	}
}

// A search that reaches --max-states is explored again without the
// checkpoint, and reported as the plain search reports it.
func TestExploreCheckpointStateBound(t *testing.T) {
	dir := t.TempDir()
	fano := filepath.Join("..", "..", "testdata", "maekawa-fig1-k3.txt")
	args := []string{"simulate", fano, "--explore", "--requests", "2", "--max-states", "300"}
	wantCode, want, _ := runAvailabilityCmd(t, args...)
	if !strings.Contains(want, "INCOMPLETE (stopped at --max-states 300)") {
		t.Fatalf("the search is not cut by its bound:\n%s", want)
	}
	ck := filepath.Join(dir, "ck.json")
	for range 2 { // the second run resumes what the first saved
		code, got, errs := runAvailabilityCmd(t, append(args, "--checkpoint", ck)...)
		if code != wantCode || got != want || !strings.Contains(errs, "exploring again without --checkpoint") {
			t.Errorf("exit %d (want %d), %s\n%s\nwant\n%s", code, wantCode, errs, got, want)
		}
	}
	// A shard that reaches the bound fails as without a checkpoint.
	code, _, errs := runAvailabilityCmd(t, append(args, "--checkpoint", filepath.Join(dir, "ck2.json"), "--shard", "1/2")...)
	if code != exitError || !strings.Contains(errs, "a split run needs every shard to finish") {
		t.Errorf("a shard beyond --max-states: exit %d, %s", code, errs)
	}
}

// A checkpoint of another input, another search (protocol, requests,
// depth bound), another shard or command, a damaged file and a foreign
// one are refused, exit 2, with a message that says which, and left as
// they were; so are --checkpoint without --explore and with two files.
func TestExploreCheckpointRefuses(t *testing.T) {
	dir := t.TempDir()
	fano := filepath.Join("..", "..", "testdata", "maekawa-fig1-k3.txt")
	n5 := filepath.Join("..", "..", "testdata", "maekawa-n5.txt")
	base := []string{"simulate", n5, "--explore", "--requests", "3"}
	save := func(name string, args ...string) string {
		path := filepath.Join(dir, name)
		code, _, errs := runAvailabilityCmd(t, append(args, "--checkpoint", path)...)
		if code != 0 && code != exitFailed {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return path
	}
	whole := save("whole.json", base...)
	shard2 := save("shard2.json", append(base, "--shard", "2/3")...)
	// The shard 2/3 checkpoint relabelled as shard 1/3: its head passes,
	// its search does not.
	relabelled := filepath.Join(dir, "relabelled.json")
	data, _ := os.ReadFile(shard2)
	if err := os.WriteFile(relabelled, bytes.Replace(data, []byte(`"shard": "2/3"`), []byte(`"shard": "1/3"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	// One character of the saved search changed.
	damaged := filepath.Join(dir, "damaged.json")
	ck := readExCheckpoint(t, whole)
	ck.Snapshot[len(ck.Snapshot)/2] ^= 1
	if err := writeCheckpoint(damaged, ck); err != nil {
		t.Fatal(err)
	}
	truncated := writeTestFile(t, dir, "truncated.json", string(data[:len(data)/2]))
	tv := filepath.Join(dir, "tv.json")
	if code, _, errs := runAvailabilityCmd(t, "transversals", n5, "--count", "--checkpoint", tv); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		ck   string
		args []string
		want string
	}{
		{whole, []string{"simulate", fano, "--explore", "--requests", "3"}, "a checkpoint of another input"},
		{whole, append(base[:len(base):len(base)], "--protocol", "ordered"), "a checkpoint of --protocol maekawa-fixed, not ordered"},
		{whole, []string{"simulate", n5, "--explore", "--requests", "2"}, "a checkpoint of --requests 3, not 2"},
		{whole, append(base[:len(base):len(base)], "--max-depth", "5"), "a checkpoint of --max-depth 0, not 5"},
		{whole, append(base[:len(base):len(base)], "--requesters", "1,2"), "a checkpoint of --requesters all, not 1, 2"},
		{whole, append(base[:len(base):len(base)], "--shard", "2/3"), "a checkpoint of shard 1/1, not 2/3"},
		{shard2, base, "a checkpoint of shard 2/3, not 1/1"},
		{relabelled, append(base[:len(base):len(base)], "--shard", "1/3"), "the saved search does not fit this one"},
		{damaged, base, "a damaged checkpoint"},
		{truncated, base, "not a coterie checkpoint"},
		{n5, base, "not a coterie checkpoint"},
		{tv, base, "a checkpoint of transversals, not of simulate --explore"},
	} {
		before, _ := os.ReadFile(c.ck)
		code, out, errs := runAvailabilityCmd(t, append(c.args, "--checkpoint", c.ck)...)
		if code != exitError || out != "" || !strings.Contains(errs, c.want) || !strings.Contains(errs, c.ck) {
			t.Errorf("%v with %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, filepath.Base(c.ck), code, out, errs, c.want)
		}
		if after, _ := os.ReadFile(c.ck); !bytes.Equal(after, before) {
			t.Errorf("%v with %s: the file changed", c.args, filepath.Base(c.ck))
		}
	}
	for _, args := range [][]string{
		{"simulate", n5, "--checkpoint", filepath.Join(dir, "x.json")},
		{"simulate", n5, fano, "--explore", "--checkpoint", filepath.Join(dir, "x.json")},
		{"simulate", n5, "--explore", "--protocol", "maekawa,ordered", "--checkpoint", filepath.Join(dir, "x.json")},
	} {
		if code, _, errs := runAvailabilityCmd(t, args...); code != exitError || !strings.Contains(errs, "--checkpoint") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Error("a refused run wrote a checkpoint")
	}
}

// A checkpoint that cannot be written is an error before the search
// starts; one that stops being writable (a full disk) is reported and
// the search goes on to its report, the file keeping its last save.
func TestExploreCheckpointUnwritable(t *testing.T) {
	fano := filepath.Join("..", "..", "testdata", "maekawa-fig1-k3.txt")
	args := []string{"simulate", fano, "--explore", "--requests", "2"}
	missing := filepath.Join(t.TempDir(), "no-such-folder", "ck.json")
	code, out, errs := runAvailabilityCmd(t, append(args, "--checkpoint", missing)...)
	if code != exitError || out != "" || !strings.Contains(errs, "checkpoint "+missing) {
		t.Errorf("a checkpoint in a missing folder: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	wantCode, want, _ := runAvailabilityCmd(t, args...)
	full := filepath.Join(testsys.MountTmpfs(t, "size=16k"), "ck.json")
	code, out, errs = runAvailabilityCmd(t, append(args, "--checkpoint", full)...)
	if code != wantCode || out != want || !strings.Contains(errs, "the search goes on without saving") {
		t.Errorf("a full disk: exit %d (want %d), stderr %q\n%s", code, wantCode, errs, out)
	}
	if ck := readExCheckpoint(t, full); ck.Finished || ck.Expanded != 0 {
		t.Errorf("the first save: finished %v, %d states expanded", ck.Finished, ck.Expanded)
	}
}

// A search stopped by the memory budget is saved, exits 2, and resumes
// with a larger budget to the report of the plain search.
func TestExploreCheckpointMemoryBudget(t *testing.T) {
	n5 := filepath.Join("..", "..", "testdata", "maekawa-n5.txt")
	args := []string{"simulate", n5, "--explore", "--requests", "3"}
	wantCode, want, _ := runAvailabilityCmd(t, args...)
	ck := filepath.Join(t.TempDir(), "ck.json")
	code, out, errs := runAvailabilityCmd(t, append(args, "--checkpoint", ck, "--max-memory", "1MiB")...)
	if code != exitError || out != "" || !strings.Contains(errs, "stopped at the memory budget") || !strings.Contains(errs, "saved in "+ck) {
		t.Fatalf("within 1 MiB: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if c := readExCheckpoint(t, ck); c.Finished || c.Expanded == 0 {
		t.Errorf("within 1 MiB: finished %v, %d states expanded", c.Finished, c.Expanded)
	}
	code, out, errs = runAvailabilityCmd(t, append(args, "--checkpoint", ck)...)
	if code != wantCode || out != want {
		t.Errorf("resumed without the budget: exit %d (want %d) %s\n%s\nwant\n%s", code, wantCode, errs, out, want)
	}
}
