package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// avSplit runs `availability FILE ARGS --shard i/n` for every i, writes
// the parts to dir and returns their paths.
func avSplit(t *testing.T, dir, file string, n int, args ...string) []string {
	t.Helper()
	var paths []string
	for i := 1; i <= n; i++ {
		code, out, errs := runAvailabilityCmd(t, append([]string{"availability", file, "--shard", fmt.Sprintf("%d/%d", i, n)}, args...)...)
		if code != 0 {
			t.Fatalf("shard %d/%d %v: exit %d: %s", i, n, args, code, errs)
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-part-%d-of-%d%s.json", filepath.Base(file), i, n, strings.Join(args, "")))
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

func avGenerate(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if code, _, errs := runAvailabilityCmd(t, append(append([]string{"generate"}, args...), "-o", path)...); code != 0 {
		t.Fatalf("generate %v: %s", args, errs)
	}
	return path
}

// The merge of N shards prints exactly what the unsplit run prints, for
// N = 1, 2, 3, 7: exact polynomials split in pieces by BDD (billiard
// q = 7 and 9), closed forms carried whole by shard 1
// (a grid, an (h,k)-arbiter of thresholds), in every output format; and
// Monte Carlo estimates split by samples (the same seed).
func TestMergeEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	billiard := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
	b9 := avGenerate(t, dir, "b9.json", "billiard", "--q", "9")
	grid := avGenerate(t, dir, "grid.json", "grid", "--n", "16")
	hk := avGenerate(t, dir, "hk.json", "uniform", "--n", "7", "--k", "2", "--hk")
	cases := []struct {
		file string
		args []string
	}{
		{b9, nil},
		{billiard, []string{"--json"}},
		{billiard, []string{"--polynomial", "--format", "csv"}},
		{billiard, []string{"--method", "bdd", "--p", "0.3,0.97", "--format", "csv"}},
		{billiard, []string{"--method", "estimate", "--samples", "65536", "--seed", "7", "--json"}},
		{grid, []string{"--polynomial"}},
		{grid, []string{"--method", "bdd", "--json"}},
		{hk, []string{"--json"}},
	}
	for _, c := range cases {
		code, want, errs := runAvailabilityCmd(t, append([]string{"availability", c.file}, c.args...)...)
		if code != 0 {
			t.Fatalf("whole %v: %s", c.args, errs)
		}
		for _, n := range []int{1, 2, 3, 7} {
			parts := avSplit(t, dir, c.file, n, c.args...)
			code, got, errs := runAvailabilityCmd(t, append([]string{"merge"}, parts...)...)
			if code != 0 {
				t.Fatalf("merge of %d shards %v: exit %d: %s", n, c.args, code, errs)
			}
			if got != want {
				t.Errorf("%s %v in %d shards: merged\n%s\nwhole\n%s", filepath.Base(c.file), c.args, n, got, want)
			}
		}
	}
	// merge --json prints the --json report.
	code, want, _ := runAvailabilityCmd(t, "availability", billiard, "--json")
	parts := avSplit(t, dir, billiard, 3)
	code2, got, errs := runAvailabilityCmd(t, append([]string{"merge", "--json"}, parts...)...)
	if code != 0 || code2 != 0 || got != want {
		t.Errorf("merge --json: exit %d %s:\n%s\nwant\n%s", code2, errs, got, want)
	}
}

// Every part says what it is: partial, its shard, the input's hash.
func TestPartFields(t *testing.T) {
	dir := t.TempDir()
	billiard := avGenerate(t, dir, "b9.json", "billiard", "--q", "9")
	parts := avSplit(t, dir, billiard, 2)
	data, err := os.ReadFile(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Partial bool   `json:"partial"`
		Shard   string `json:"shard"`
		Hash    string `json:"input_sha256"`
		Kind    string `json:"kind"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if !p.Partial || p.Shard != "2/2" || len(p.Hash) != 64 || p.Kind != "availability" {
		t.Errorf("part: %+v", p)
	}
	// The same system in another format has the same hash.
	txt := filepath.Join(dir, "b9.txt")
	if code, _, errs := runAvailabilityCmd(t, "convert", billiard, "-o", txt); code != 0 {
		t.Fatal(errs)
	}
	_, out, _ := runAvailabilityCmd(t, "availability", txt, "--shard", "2/2")
	if !strings.Contains(out, p.Hash) {
		t.Errorf("the text form of the system hashes differently")
	}
}

// Missing, duplicated, foreign and mismatched parts are refused with a
// message that says which.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	b9 := avGenerate(t, dir, "b9.json", "billiard", "--q", "9")
	b7 := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
	three := avSplit(t, dir, b9, 3)
	two := avSplit(t, dir, b9, 2)
	other := avSplit(t, dir, b7, 3)
	seeded := avSplit(t, dir, b9, 3, "--seed", "5")
	notPart := filepath.Join(dir, "not.json")
	os.WriteFile(notPart, []byte(`{"n": 3}`), 0o644)
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{three[:2], "incomplete: shard 3 of 3 missing"},
		{[]string{three[0], three[2]}, "shard 2 of 3 missing"},
		{[]string{three[0], three[1], three[1], three[2]}, "shard 2/3 is given twice"},
		{[]string{three[0], three[1], other[2]}, "of another input"},
		{[]string{three[0], three[1], seeded[2]}, "other options"},
		{[]string{three[0], two[1]}, "different numbers of shards"},
		{[]string{three[0], notPart}, "not a partial result"},
		{[]string{filepath.Join(dir, "missing.json")}, "cannot read"},
	} {
		code, out, errs := runAvailabilityCmd(t, append([]string{"merge"}, c.parts...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.parts, code, out, errs, c.want)
		}
	}
}

// A shard stopped by its node budget says so, and its part cannot be
// merged; run again with a checkpoint, it resumes.
func TestMergeUnfinishedShard(t *testing.T) {
	dir := t.TempDir()
	b9 := avGenerate(t, dir, "b9.json", "billiard", "--q", "9")
	parts := avSplit(t, dir, b9, 2)
	ck := filepath.Join(dir, "ck.json")
	code, out, errs := runAvailabilityCmd(t, "availability", b9, "--shard", "1/2", "--max-nodes", "1000", "--checkpoint", ck)
	if code != 0 {
		t.Fatalf("starved shard: exit %d: %s", code, errs)
	}
	starved := filepath.Join(dir, "starved.json")
	os.WriteFile(starved, []byte(out), 0o644)
	code, _, errs = runAvailabilityCmd(t, "merge", starved, parts[1])
	if code != 2 || !strings.Contains(errs, "shard 1/2 did not finish its pieces") {
		t.Errorf("merge with an unfinished shard: exit %d, %s", code, errs)
	}
	code, out, errs = runAvailabilityCmd(t, "availability", b9, "--shard", "1/2", "--checkpoint", ck)
	if code != 0 {
		t.Fatal(errs)
	}
	os.WriteFile(starved, []byte(out), 0o644)
	_, want, _ := runAvailabilityCmd(t, "availability", b9)
	if code, got, errs := runAvailabilityCmd(t, "merge", starved, parts[1]); code != 0 || got != want {
		t.Errorf("merge after resuming: exit %d %s:\n%s\nwant\n%s", code, errs, got, want)
	}
}

// --shard auto takes the index from a Kubernetes Indexed Job (0-based) or
// a Slurm array (1-based).
func TestShardAuto(t *testing.T) {
	dir := t.TempDir()
	b9 := avGenerate(t, dir, "b9.json", "billiard", "--q", "9")
	shardOf := func(args ...string) (int, string, string) {
		code, out, errs := runAvailabilityCmd(t, append([]string{"availability", b9}, args...)...)
		var p struct {
			Shard string `json:"shard"`
		}
		json.Unmarshal([]byte(out), &p)
		return code, p.Shard, errs
	}
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "3")
	// Slurm says the array's bounds: task 3 of 1-4 is shard 3, of 0-3
	// shard 4, and --shards is not needed.
	t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "4")
	if code, s, errs := shardOf("--shard", "auto"); code != 0 || s != "3/4" {
		t.Errorf("Slurm task 3 of 1-4: exit %d, shard %q, %s", code, s, errs)
	}
	t.Setenv("SLURM_ARRAY_TASK_MIN", "0")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "3")
	if code, s, errs := shardOf("--shard", "auto"); code != 0 || s != "4/4" {
		t.Errorf("Slurm task 3 of 0-3: exit %d, shard %q, %s", code, s, errs)
	}
	// A task resubmitted alone (--array=3) is an array 3-3: --shards
	// names the whole array, and a bare count that leaves the base open
	// is refused.
	t.Setenv("SLURM_ARRAY_TASK_MIN", "3")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "3")
	if code, s, errs := shardOf("--shard", "auto", "--shards", "1-4"); code != 0 || s != "3/4" {
		t.Errorf("Slurm task 3 resubmitted, --shards 1-4: exit %d, shard %q, %s", code, s, errs)
	}
	if code, _, errs := shardOf("--shard", "auto", "--shards", "4"); code != 2 || !strings.Contains(errs, "say which with --shards 0-3 or --shards 1-4") {
		t.Errorf("Slurm task 3 resubmitted, --shards 4: exit %d, %s", code, errs)
	}
	t.Setenv("SLURM_ARRAY_TASK_MIN", "")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "")
	t.Setenv("JOB_COMPLETION_INDEX", "0")
	if code, s, errs := shardOf("--shard", "auto", "--shards", "4"); code != 0 || s != "1/4" {
		t.Errorf("Kubernetes index 0 of 4: exit %d, shard %q, %s", code, s, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "auto"}, "give --shards N, the Job's completions"},
		{[]string{"--shard", "auto", "--shards", "0"}, "want N (the number of shards) or A-B"},
		{[]string{"--shard", "0/3"}, "1 ≤ I ≤ N"},
		{[]string{"--shard", "4/3"}, "1 ≤ I ≤ N"},
		{[]string{"--shard", "two"}, "want I/N"},
		{[]string{"--shard", "1/2", "--shards", "2"}, "--shards goes with --shard auto"},
		{[]string{"--shards", "2"}, "--shards goes with --shard auto"},
		{[]string{"--shard", "1/2", "--p-node", "1=0.5"}, "drop --p-node"},
	} {
		code, _, errs := shardOf(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
	t.Setenv("JOB_COMPLETION_INDEX", "4")
	if code, _, errs := shardOf("--shard", "auto", "--shards", "4"); code != 2 || !strings.Contains(errs, "JOB_COMPLETION_INDEX") {
		t.Errorf("index 4 of 4: exit %d, %s", code, errs)
	}
}

// --checkpoint: a run stopped part-way (its budget too small for some
// pieces) saves the pieces it did; the next run resumes and prints what
// an uninterrupted run prints. A checkpoint of another input is refused.
func TestCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	b9 := avGenerate(t, dir, "b9.json", "billiard", "--q", "9")
	b7 := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
	ck := filepath.Join(dir, "ck.json")
	_, want, _ := runAvailabilityCmd(t, "availability", b9, "--json")
	code, _, errs := runAvailabilityCmd(t, "availability", b9, "--json", "--checkpoint", ck, "--max-nodes", "1000")
	if code != 0 || !strings.Contains(errs, "pieces done (saved in "+ck) {
		t.Fatalf("starved run: exit %d, %s", code, errs)
	}
	var saved struct {
		Families []struct {
			Done []int `json:"done"`
		} `json:"families"`
	}
	data, _ := os.ReadFile(ck)
	if err := json.Unmarshal(data, &saved); err != nil || len(saved.Families) != 1 {
		t.Fatalf("checkpoint: %v %s", err, data)
	}
	if d := len(saved.Families[0].Done); d == 0 || d == 64 {
		t.Fatalf("checkpoint after the starved run holds %d of 64 pieces", d)
	}
	code, got, errs := runAvailabilityCmd(t, "availability", b9, "--json", "--checkpoint", ck)
	if code != 0 || got != want {
		t.Errorf("resumed: exit %d %s:\n%s\nwant\n%s", code, errs, got, want)
	}
	code, _, errs = runAvailabilityCmd(t, "availability", b7, "--checkpoint", ck)
	if code != 2 || !strings.Contains(errs, "a checkpoint of another input") {
		t.Errorf("checkpoint of another input: exit %d, %s", code, errs)
	}
}

// merge -o writes the merged result only when the merge succeeds: a
// refused merge (a missing part, parts of two differently split runs)
// leaves the old file as it was.
func TestMergeOutput(t *testing.T) {
	dir := t.TempDir()
	b7 := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
	three := avSplit(t, dir, b7, 3)
	two := avSplit(t, dir, b7, 2)
	out := filepath.Join(dir, "result.json")
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, parts := range [][]string{three[:2], {three[0], three[1], two[1]}} {
		code, stdout, errs := runAvailabilityCmd(t, append([]string{"merge", "--json", "-o", out}, parts...)...)
		if code != 2 || stdout != "" || errs == "" {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want exit 2", parts, code, stdout, errs)
		}
		if got, _ := os.ReadFile(out); string(got) != "old\n" {
			t.Errorf("merge %v refused, but %s now holds %q", parts, out, got)
		}
	}
	_, want, _ := runAvailabilityCmd(t, "availability", b7, "--json")
	if code, stdout, errs := runAvailabilityCmd(t, append([]string{"merge", "--json", "-o", out}, three...)...); code != 0 || stdout != "" {
		t.Fatalf("merge -o: exit %d, stdout %q, %s", code, stdout, errs)
	}
	if got, _ := os.ReadFile(out); string(got) != want {
		t.Errorf("merge -o wrote\n%s\nwant the unsplit report\n%s", got, want)
	}
}
