package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// runOut runs the built command in dir and returns its exit status,
// stdout and stderr.
func runOut(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := coterieCmd(t, dir, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		code = cmd.ProcessState.ExitCode()
		if code < 0 {
			t.Fatalf("coterie %s: %v", strings.Join(args, " "), err)
		}
	}
	return code, out.String(), errb.String()
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareNodesFile gives nine nodes capacities, latencies and their own p.
const compareNodesFile = `node,capacity,latency,p
1,100,1,0.9
2,200,2,0.8
3,300,1,0.9
4,100,1,0.9
5,500,3,0.9
6,100,1,0.9
7,1000,1,0.95
8,100,1,0.9
9,100,0.5,0.7
`

// compare with --nodes gives, file by file, the figures info gives with
// the same nodes file; and the availability of the p column, which a
// brute force over all 2^9 sets of live nodes checks.
func TestCompareNodesEqualsInfo(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "nodes.csv"), compareNodesFile)
	for _, gen := range [][]string{
		{"generate", "majority", "--n", "9", "-o", "maj9.json"},
		{"generate", "grid", "--n", "9", "-o", "grid9.json"},
		{"generate", "wall", "--widths", "2,3,4", "-o", "wall9.json"},
	} {
		if code, _, errs := runOut(t, dir, gen...); code != 0 {
			t.Fatalf("%v: exit %d: %s", gen, code, errs)
		}
	}
	files := []string{"maj9.json", "grid9.json", "wall9.json"}
	type figures struct {
		ReadResilience  int    `json:"read_resilience"`
		WriteResilience int    `json:"write_resilience"`
		Resilience      int    `json:"resilience"`
		LoadExact       string `json:"load_exact"`
		CapacityExact   string `json:"capacity_exact"`
		Availability    []struct {
			P      float64 `json:"p"`
			Reads  float64 `json:"reads"`
			Writes float64 `json:"writes"`
		} `json:"availability"`
	}
	args := append([]string{"compare"}, files...)
	args = append(args, "--nodes", "nodes.csv", "--read-fraction", "0.9", "--json")
	code, out, errs := runOut(t, dir, args...)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	var cmp struct{ Systems []figures }
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	if len(cmp.Systems) != len(files) {
		t.Fatalf("compare gave %d systems, want %d", len(cmp.Systems), len(files))
	}
	ps := []float64{0.9, 0.8, 0.9, 0.9, 0.9, 0.9, 0.95, 0.9, 0.7}
	for i, f := range files {
		code, out, errs := runOut(t, dir, "info", f, "--nodes", "nodes.csv", "--read-fraction", "0.9", "--json")
		if code != 0 {
			t.Fatalf("info %s: exit %d: %s", f, code, errs)
		}
		var info figures
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Fatal(err)
		}
		got := cmp.Systems[i]
		got.Availability = nil
		if !reflect.DeepEqual(got, info) {
			t.Errorf("%s: compare gives %+v, info %+v", f, got, info)
		}
		// The nodes' own p, not --p, decide the availability.
		code, out, _ = runOut(t, dir, "quorums", f)
		if code != 0 {
			t.Fatalf("quorums %s: exit %d", f, code)
		}
		var quorums []uint
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var q uint
			for _, fld := range strings.FieldsFunc(line, func(r rune) bool { return r < '0' || r > '9' }) {
				var v int
				for _, c := range fld {
					v = 10*v + int(c-'0')
				}
				q |= 1 << (v - 1)
			}
			quorums = append(quorums, q)
		}
		want := 0.0
		for live := uint(0); live < 1<<9; live++ {
			pr := 1.0
			for v := range 9 {
				if live&(1<<v) != 0 {
					pr *= ps[v]
				} else {
					pr *= 1 - ps[v]
				}
			}
			for _, q := range quorums {
				if live&q == q {
					want += pr
					break
				}
			}
		}
		if len(cmp.Systems[i].Availability) != 1 {
			t.Fatalf("%s: availability %+v", f, cmp.Systems[i].Availability)
		}
		if a := cmp.Systems[i].Availability[0]; math.Abs(a.Reads-want) > 1e-9 || math.Abs(a.Writes-want) > 1e-9 {
			t.Errorf("%s: availability reads %v writes %v, brute force over 2^9 live sets %v", f, a.Reads, a.Writes, want)
		}
	}
}

// A file and the identical expression get the same p column.
func TestCompareFileAndExpressionSameP(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "n5.csv"), "node,p\n1,0.9\n2,0.8\n3,0.7\n4,0.9\n5,0.99\n")
	if code, _, errs := runOut(t, dir, "generate", "majority", "--n", "5", "-o", "maj5.json"); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runOut(t, dir, "compare", "--reads", "choose(3,1,2,3,4,5)", "maj5.json", "--nodes", "n5.csv", "--p", "0.9", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var cmp struct {
		Systems []struct {
			Availability []struct{ Reads, Writes float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	if len(cmp.Systems) != 2 {
		t.Fatalf("%d systems", len(cmp.Systems))
	}
	a, b := cmp.Systems[0].Availability[0], cmp.Systems[1].Availability[0]
	if a != b {
		t.Errorf("maj5.json %+v, the same system as an expression %+v", a, b)
	}
}

// A nodes file naming a node the system does not have is refused, by
// compare as by info, naming the file and line.
func TestCompareRefusesUnknownNode(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "bad.csv"), "node,p\n1,0.9\na1,0.9\n")
	if code, _, errs := runOut(t, dir, "generate", "majority", "--n", "5", "-o", "maj5.json"); code != 0 {
		t.Fatal(errs)
	}
	for _, cmd := range []string{"info", "compare"} {
		code, _, errs := runOut(t, dir, cmd, "maj5.json", "--nodes", "bad.csv")
		if code != 2 || !strings.Contains(errs, "bad.csv:3: unknown node a1") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2, bad.csv:3: unknown node a1", cmd, code, errs)
		}
	}
}

// merge takes parts that differ only in the input's path (the same
// SHA-256), and names the option that differs when one does.
func TestMergeSameInputOtherPath(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"generate", "grid", "--n", "9", "-o", "a.json"},
		{"convert", "a.json", "-o", "b.json"},
	} {
		if code, _, errs := runOut(t, dir, args...); code != 0 {
			t.Fatal(errs)
		}
	}
	part := func(file, shard string, extra ...string) string {
		args := append([]string{"availability", file, "--shard", shard}, extra...)
		args = append(args, "-o", file+"-"+strings.ReplaceAll(shard, "/", "of")+strings.Join(extra, "")+".json")
		if code, _, errs := runOut(t, dir, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
		return args[len(args)-1]
	}
	code, whole, errs := runOut(t, dir, "availability", "a.json")
	if code != 0 {
		t.Fatal(errs)
	}
	code, merged, errs := runOut(t, dir, "merge", part("a.json", "1/2"), part("b.json", "2/2", "--json"))
	if code != 0 || merged != whole {
		t.Errorf("merge of a.json 1/2 and b.json 2/2 (--json): exit %d, %q (stderr %q); the whole run prints %q", code, merged, errs, whole)
	}
	code, _, errs = runOut(t, dir, "merge", part("a.json", "1/2"), part("b.json", "2/2", "--seed=7"))
	if code != 2 || !strings.Contains(errs, "other options") || !strings.Contains(errs, "--seed 7, not 1") {
		t.Errorf("merge of parts with other seeds: exit %d, stderr %q; want exit 2 naming --seed", code, errs)
	}
}

// commandTree returns every command under the root, the root's help and
// completion aside.
func commandTree(t *testing.T) []*cobra.Command {
	t.Helper()
	s := &streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard}
	root := newRoot(s, &runState{}, nil)
	var all []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, k := range c.Commands() {
			if k.Name() == "help" || k.Name() == "completion" {
				continue
			}
			all = append(all, k)
			walk(k)
		}
	}
	walk(root)
	return all
}

// The vocabulary of docs/cli.md, checked on every command: a flag of a
// shared name means the same and takes the same syntax everywhere.
func TestVocabulary(t *testing.T) {
	// Commands whose result is a file or a printed report: each has -o.
	noOutput := map[string]bool{"coterie serve": true, "coterie generate": true}
	for _, c := range commandTree(t) {
		path := c.CommandPath()
		flags := c.Flags()
		if f := flags.Lookup("p"); f != nil {
			if _, ok := f.Value.(*probsValue); !ok {
				t.Errorf("%s: --p is a %s, not a list of probabilities", path, f.Value.Type())
			}
			if flags.Lookup("p-node") == nil {
				t.Errorf("%s: --p without --p-node", path)
			}
		}
		if flags.Lookup("p-node") != nil && flags.Lookup("p") == nil {
			t.Errorf("%s: --p-node without --p", path)
		}
		flags.VisitAll(func(f *pflag.Flag) {
			if strings.HasPrefix(f.DefValue, "[") && f.DefValue != "[]" { // pflag hides [], shows [0.900000]
				t.Errorf("%s --%s: default shown as %s", path, f.Name, f.DefValue)
			}
			switch f.Name {
			case "timeout", "budget", "exact-time", "request-timeout", "latency-limit":
				if f.Value.Type() != "duration" {
					t.Errorf("%s --%s: a %s, not a duration", path, f.Name, f.Value.Type())
				}
			case "max-memory", "max-body":
				if f.Value.Type() != "bytes" {
					t.Errorf("%s --%s: a %s, not a size with units", path, f.Name, f.Value.Type())
				}
			case "format":
				comp, ok := c.GetFlagCompletionFunc("format")
				if !ok {
					t.Errorf("%s --format: no completion", path)
					return
				}
				words, _ := comp(c, nil, "")
				for _, w := range []string{"table", "json", "csv", "text", "dat", "html", "md"} {
					if strings.Contains(f.Usage, w) && !slices.Contains(words, w) {
						t.Errorf("%s --format: the help names %s, the completion offers %v", path, w, words)
					}
				}
			}
		})
		if c.Runnable() && !noOutput[path] && flags.ShorthandLookup("o") == nil {
			t.Errorf("%s: no -o", path)
		}
		if flags.Lookup("nodes") != nil && !c.HasParent() {
			t.Errorf("%s: --nodes on the root", path)
		}
	}
}

// A command run without the files it needs says what is missing, in its
// words, not cobra's count of arguments.
func TestMissingArguments(t *testing.T) {
	for _, c := range commandTree(t) {
		// serve needs no file (it would start serving), nor do search
		// and generate, whose own messages say what they need.
		if !c.Runnable() || c.Parent().Name() != "coterie" || slices.Contains([]string{"serve", "search", "generate"}, c.Name()) {
			continue
		}
		var o, e bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		code := run(ctx, []string{c.Name()}, &streams{in: strings.NewReader(""), out: &o, err: &e})
		cancel()
		msg := e.String()
		if code != exitError || strings.Contains(msg, "arg(s)") || !strings.Contains(msg, "need") && !strings.Contains(msg, "give") {
			t.Errorf("coterie %s: exit %d, %q; want exit 2 saying what it needs", c.Name(), code, msg)
		}
	}
}

// A long expression is cut at its top-level operators: the pieces put
// together again are the expression, and each fits the width.
func TestWrapExpr(t *testing.T) {
	var sum, prod []string
	for i := 1; i <= 16; i++ {
		sum = append(sum, "a"+itoa(i)+"*b"+itoa(i))
		prod = append(prod, "(a"+itoa(i)+" + b"+itoa(i)+")")
	}
	for _, e := range []string{strings.Join(sum, " + "), strings.Join(prod, "*"), "choose(2, a, b, c)"} {
		for _, width := range []int{30, 45, 1000} {
			parts := wrapExpr(e, width)
			joined := parts[0]
			for _, p := range parts[1:] {
				if strings.HasPrefix(p, "+ ") {
					joined += " " + p
				} else {
					joined += p
				}
			}
			if joined != e {
				t.Errorf("wrapExpr(%q, %d) = %q: put together, %q", e, width, parts, joined)
			}
			for _, p := range parts {
				if len(p) > width {
					t.Errorf("wrapExpr(%q, %d): %q is wider", e, width, p)
				}
			}
		}
	}
}
