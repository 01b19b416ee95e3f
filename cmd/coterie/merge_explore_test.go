package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// splitParts runs args with --shard i/n for every i, writes the parts to
// dir and returns their paths.
func splitParts(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	var paths []string
	for i := 1; i <= n; i++ {
		code, out, errs := runAvailabilityCmd(t, append(args, "--shard", fmt.Sprintf("%d/%d", i, n))...)
		if code != 0 {
			t.Fatalf("shard %d/%d of %v: exit %d: %s", i, n, args, code, errs)
		}
		f, err := os.CreateTemp(dir, fmt.Sprintf("part-%d-of-%d-*.json", i, n))
		if err != nil {
			t.Fatal(err)
		}
		path := f.Name()
		f.Close()
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// checkMergeEqualsWhole checks that the merge of the parts of N shards of
// args prints what args prints unsplit, with the same exit status, for
// N = 1, 2, 3, 7.
func checkMergeEqualsWhole(t *testing.T, dir string, args ...string) {
	t.Helper()
	code, want, errs := runAvailabilityCmd(t, args...)
	if code != 0 && code != 1 {
		t.Fatalf("whole %v: exit %d: %s", args, code, errs)
	}
	for _, n := range []int{1, 2, 3, 7} {
		parts := splitParts(t, dir, n, args...)
		got, gotOut, errs := runAvailabilityCmd(t, append([]string{"merge"}, parts...)...)
		if got != code || gotOut != want {
			t.Errorf("%v in %d shards: merge exit %d (whole %d) %s\nmerged\n%s\nwhole\n%s", args, n, got, code, errs, gotOut, want)
		}
	}
}

func writeTestFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The merge of a split `simulate --explore` prints the unsplit report,
// verdicts, state and transition counts and counterexamples, byte for
// byte, with its exit status: Maekawa's algorithm on Fig. 1(b) (safe, and
// cut by --max-depth) and on the degenerate N = 5 sets (a deadlock with
// three requests), the ordered and hk protocols, and a family with two
// disjoint quorums (a safety violation), as text and JSON.
func TestMergeExploreEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	fano := filepath.Join("..", "..", "testdata", "maekawa-fig1-k3.txt")
	n5 := filepath.Join("..", "..", "testdata", "maekawa-n5.txt")
	disjoint := writeTestFile(t, dir, "disjoint.txt", "1 2\n2 3\n3 4\n")
	for _, args := range [][]string{
		{"simulate", fano, "--explore", "--requests", "2"},
		{"simulate", n5, "--explore", "--requests", "3"},
		{"simulate", n5, "--explore", "--requests", "3", "--protocol", "ordered", "--json"},
		{"simulate", n5, "--explore", "--requests", "2", "--protocol", "hk"},
		{"simulate", disjoint, "--explore", "--requests", "2", "--protocol", "maekawa"},
		{"simulate", disjoint, "--explore", "--requests", "2", "--protocol", "ordered", "--json"},
		{"simulate", fano, "--explore", "--requests", "3", "--max-depth", "7"},
	} {
		checkMergeEqualsWhole(t, dir, args...)
	}
	// A shard beyond --max-states writes no part.
	code, _, errs := runAvailabilityCmd(t, "simulate", fano, "--explore", "--requests", "3", "--max-states", "3000", "--shard", "1/2")
	if code != 2 || !strings.Contains(errs, "a split run needs every shard to finish") {
		t.Errorf("a shard beyond --max-states: exit %d, %s", code, errs)
	}
	// The violation is found and the merged run exits 1, as the whole.
	code, out, _ := runAvailabilityCmd(t, "simulate", disjoint, "--explore", "--requests", "2", "--protocol", "maekawa")
	if code != 1 || !strings.Contains(out, "mutual exclusion  FAILS") {
		t.Errorf("two disjoint quorums: exit %d\n%s", code, out)
	}
}

// The merge of a split `domination --smallest` prints the unsplit report:
// grids (split by candidate size, solved), a 2-arbiter, PG(2,4) (Bruen's
// bound, carried whole by shard 1), the exhaustive table, a threshold
// system, and the nondominated Fano plane, as text and JSON.
func TestMergeSmallestEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	grid6 := avGenerate(t, dir, "g6.json", "grid", "--rows", "6", "--cols", "6")
	grid57 := avGenerate(t, dir, "g57.json", "grid", "--rows", "5", "--cols", "7")
	grid3 := avGenerate(t, dir, "g3.json", "grid", "--rows", "3", "--cols", "3")
	p4 := avGenerate(t, dir, "p4.json", "fpp", "--order", "4")
	maj := avGenerate(t, dir, "maj.json", "majority", "--n", "8")
	fano := filepath.Join("..", "..", "testdata", "maekawa-fig1-k3.txt")
	arb := writeTestFile(t, dir, "arb.txt", joinedArbiter())
	for _, args := range [][]string{
		{"domination", grid6, "--smallest"},
		{"domination", grid57, "--smallest", "--json"},
		{"domination", grid3, "--smallest"},
		{"domination", p4, "--smallest"},
		{"domination", maj, "--smallest", "--json"},
		{"domination", fano, "--smallest"},
		{"domination", arb, "--smallest"},
	} {
		checkMergeEqualsWhole(t, dir, args...)
	}
}

// Missing, duplicated and foreign shards (another input, other options)
// of the explorer and of --smallest are refused, exit 2, with a message
// that says which; so are --shard without what it splits.
func TestMergeExploreSmallestRefuses(t *testing.T) {
	dir := t.TempDir()
	fano := filepath.Join("..", "..", "testdata", "maekawa-fig1-k3.txt")
	n5 := filepath.Join("..", "..", "testdata", "maekawa-n5.txt")
	ex := splitParts(t, dir, 3, "simulate", n5, "--explore", "--requests", "2")
	exOther := splitParts(t, dir, 3, "simulate", fano, "--explore", "--requests", "2")
	exMore := splitParts(t, dir, 3, "simulate", n5, "--explore", "--requests", "3")
	exProto := splitParts(t, dir, 3, "simulate", n5, "--explore", "--requests", "2", "--protocol", "ordered")
	grid6 := avGenerate(t, dir, "g6.json", "grid", "--rows", "6", "--cols", "6")
	grid57 := avGenerate(t, dir, "g57.json", "grid", "--rows", "5", "--cols", "7")
	sm := splitParts(t, dir, 3, "domination", grid6, "--smallest")
	smOther := splitParts(t, dir, 3, "domination", grid57, "--smallest")
	smJSON := splitParts(t, dir, 3, "domination", grid6, "--smallest", "--json")
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{ex[:2], "incomplete: shard 3 of 3 missing"},
		{[]string{ex[0], ex[1], ex[1], ex[2]}, "shard 2/3 is given twice"},
		{[]string{ex[0], ex[1], exOther[2]}, "of another input"},
		{[]string{ex[0], ex[1], exMore[2]}, "other options"},
		{[]string{ex[0], ex[1], exProto[2]}, "other options"},
		{[]string{ex[0], ex[1], sm[2]}, "cannot be merged"},
		{sm[1:], "incomplete: shard 1 of 3 missing"},
		{[]string{sm[0], sm[1], sm[2], sm[2]}, "shard 3/3 is given twice"},
		{[]string{sm[0], sm[1], smOther[2]}, "of another input"},
	} {
		code, out, errs := runAvailabilityCmd(t, append([]string{"merge"}, c.parts...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.parts, code, out, errs, c.want)
		}
	}
	// Parts that differ only in --json are of one computation: they merge,
	// printed as the first part asks.
	code, want, _ := runAvailabilityCmd(t, append([]string{"merge"}, sm...)...)
	code2, got, errs := runAvailabilityCmd(t, "merge", sm[0], sm[1], smJSON[2])
	if code != 0 || code2 != 0 || got != want {
		t.Errorf("merge with one --json part: exit %d, %q (stderr %q); the plain parts: exit %d, %q", code2, got, errs, code, want)
	}
	// Tampered parts: an explorer graph cut short, a split into a billion
	// cubes, a witness that is not one.
	tamper := func(path, old, new string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := strings.Replace(string(data), old, new, 1)
		if out == string(data) {
			t.Fatalf("%s holds no %q", path, old)
		}
		return writeTestFile(t, dir, "tampered.json", out)
	}
	data, _ := os.ReadFile(ex[2])
	graph := regexp.MustCompile(`"graph": "[^"]{12}`).FindString(string(data))
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{[]string{ex[0], ex[1], tamper(ex[2], graph, `"graph": "AAAA`)}, "merge"},
		{[]string{sm[0], sm[1], tamper(sm[2], `"cubes": 64`, `"cubes": 1000000000`)}, "merge"},
	} {
		code, out, errs := runAvailabilityCmd(t, append([]string{"merge"}, c.parts...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("tampered: exit %d, stdout %q, stderr %q", code, out, errs)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", fano, "--shard", "1/2"}, "go with --explore"},
		{[]string{"simulate", fano, n5, "--explore", "--shard", "1/2"}, "one file"},
		{[]string{"simulate", fano, "--explore", "--protocol", "maekawa,ordered", "--shard", "1/2"}, "one protocol"},
		{[]string{"simulate", fano, "--explore", "--shard", "3/2"}, "1 ≤ I ≤ N"},
		{[]string{"domination", grid6, "--shard", "1/2"}, "--shard splits --smallest"},
		{[]string{"domination", grid6, "--smallest", "--shards", "2"}, "--shards goes with --shard auto"},
	} {
		code, _, errs := runAvailabilityCmd(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// joinedArbiter is Kuo's join of two copies of the 2-arbiter "every 4 of
// 5 nodes" at node 1, as a list: 9 nodes, 21 quorums, no threshold.
func joinedArbiter() string {
	var b strings.Builder
	b.WriteString("# k: 2\n1 2 3 4\n")
	for skip := 2; skip <= 5; skip++ {
		for out := 5; out <= 9; out++ {
			var q []string
			for v := 2; v <= 5; v++ {
				if v != skip {
					q = append(q, fmt.Sprint(v-1))
				}
			}
			for v := 5; v <= 9; v++ {
				if v != out {
					q = append(q, fmt.Sprint(v))
				}
			}
			b.WriteString(strings.Join(q, " ") + "\n")
		}
	}
	return b.String()
}

// --checkpoint on --smallest: a run resumed from some of its answers (a
// run stopped part-way leaves them) prints what an uninterrupted run
// prints; a shard's checkpoint gives the same part; a checkpoint of
// another input or shard, or with a false witness, is refused.
func TestSmallestCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	grid6 := avGenerate(t, dir, "g6.json", "grid", "--rows", "6", "--cols", "6")
	grid57 := avGenerate(t, dir, "g57.json", "grid", "--rows", "5", "--cols", "7")
	ck := filepath.Join(dir, "ck.json")
	_, want, _ := runAvailabilityCmd(t, "domination", grid6, "--smallest")
	if code, got, errs := runAvailabilityCmd(t, "domination", grid6, "--smallest", "--checkpoint", ck); code != 0 || got != want {
		t.Fatalf("with a checkpoint: exit %d %s:\n%s\nwant\n%s", code, errs, got, want)
	}
	var saved map[string]any
	data, _ := os.ReadFile(ck)
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	answers, _ := saved["answers"].([]any)
	if len(answers) < 2 {
		t.Fatalf("the checkpoint holds %d answers: %s", len(answers), data)
	}
	write := func(v map[string]any) {
		b, _ := json.Marshal(v)
		if err := os.WriteFile(ck, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved["answers"] = answers[:1]
	write(saved)
	if code, got, errs := runAvailabilityCmd(t, "domination", grid6, "--smallest", "--checkpoint", ck); code != 0 || got != want {
		t.Errorf("resumed: exit %d %s:\n%s\nwant\n%s", code, errs, got, want)
	}
	_, part, _ := runAvailabilityCmd(t, "domination", grid6, "--smallest", "--shard", "2/3")
	ck2 := filepath.Join(dir, "ck2.json")
	for range 2 {
		if code, got, errs := runAvailabilityCmd(t, "domination", grid6, "--smallest", "--shard", "2/3", "--checkpoint", ck2); code != 0 || got != part {
			t.Errorf("shard 2/3 with a checkpoint: exit %d %s:\n%s\nwant\n%s", code, errs, got, part)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{grid57, "--smallest", "--checkpoint", ck}, "a checkpoint of another input"},
		{[]string{grid6, "--smallest", "--shard", "1/3", "--checkpoint", ck2}, "a checkpoint of shard 2/3"},
		{[]string{grid6, "--checkpoint", ck}, "--checkpoint saves --smallest"},
	} {
		code, _, errs := runAvailabilityCmd(t, append([]string{"domination"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
	answers[0] = map[string]any{"size": answers[0].(map[string]any)["size"], "witness": []int{1, 2}}
	saved["answers"] = answers[:1]
	write(saved)
	if code, _, errs := runAvailabilityCmd(t, "domination", grid6, "--smallest", "--checkpoint", ck); code != 2 || !strings.Contains(errs, "not a witness") {
		t.Errorf("a false witness in the checkpoint: exit %d, %s", code, errs)
	}
}
