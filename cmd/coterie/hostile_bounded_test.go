package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chainExpr is the sum n1*n2 + n2*n3 + … of m products: a read side that
// uses nodes twice, whose dual (its minimal vertex covers) outgrows any
// listing limit.
func chainExpr(m int) string {
	terms := make([]string, m)
	for i := range terms {
		terms[i] = fmt.Sprintf("n%d*n%d", i+1, i+2)
	}
	return strings.Join(terms, " + ")
}

// putBytes writes data to dir/name.
func putBytes(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkStopped checks a run stopped with want (124 for --timeout) well
// within limit of starting, left old as the content of out, and did not
// crash. The bound is generous: what is checked is that the run stops,
// not how fast a loaded machine is.
func checkStopped(t *testing.T, o outcome, want int, limit time.Duration, dir, out, old string) {
	t.Helper()
	t.Logf("exit %d after %v, peak memory %d MiB", o.code, o.took.Round(time.Millisecond), o.maxRSS>>20)
	if o.code != want || o.took > limit {
		t.Errorf("exit %d after %v; want %d within %v (stderr %s)", o.code, o.took.Round(time.Millisecond), want, limit, short(o.stderr))
	}
	if strings.Contains(o.stderr, "panic") || strings.Contains(o.stderr, "goroutine ") {
		t.Errorf("crashed:\n%s", short(o.stderr))
	}
	if out != "" {
		got, err := os.ReadFile(filepath.Join(dir, out))
		if err != nil || string(got) != old {
			t.Errorf("%s: %q, %v; want the old content %q", out, short(string(got)), err, old)
		}
	}
}

// runSignalled runs the built command in dir with args, sends it sig once
// after delay, and returns what it did; it kills it after 30 s.
func runSignalled(t *testing.T, dir string, sig syscall.Signal, delay time.Duration, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, coterieBinary(t), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(delay)
	_ = cmd.Process.Signal(sig)
	err := cmd.Wait()
	o := outcome{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("coterie %s: still running 30 s after %v, killed", strings.Join(args, " "), sig)
	case errors.As(err, &ee):
		o.code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o
}

// A read side that uses nodes twice has its dual listed under the
// command's context: --timeout, Ctrl-C and SIGTERM stop it at once.
func TestBoundedDualListing(t *testing.T) {
	dir := t.TempDir()
	reads := chainExpr(1000)
	for _, c := range []string{"verify", "info"} {
		o := runHostile(t, dir, nil, 30*time.Second, c, "--reads", reads, "--timeout", "1s")
		checkStopped(t, o, exitTimeout, 10*time.Second, dir, "", "")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		o := runSignalled(t, dir, sig, 500*time.Millisecond, "verify", "--reads", reads)
		want := exitInterrupted
		if sig == syscall.SIGTERM {
			want = exitTerminated
		}
		checkStopped(t, o, want, 10*time.Second, dir, "", "")
	}
}

// A threshold of a million nodes: C(10^6, 500001) is counted at once (a
// number of 301030 digits), its availability polynomial (tens of GB) is
// refused by the memory budget, and a single quorum of 10^6 nodes stops at
// --timeout.
func TestBoundedMillionNodes(t *testing.T) {
	dir := t.TempDir()
	putBytes(t, dir, "maj.json", []byte(`{"format": "coterie/1", "kind": "majority", "params": {"n": 1000000}, "n": 1000000, "k": 1, "threshold": 500001}`+"\n"))
	o := runHostile(t, dir, nil, 30*time.Second, "info", "maj.json", "--json", "--timeout", "20s")
	if o.code != 0 {
		t.Fatalf("info on a majority of 10^6: exit %d, %s", o.code, short(o.stderr))
	}
	var rep struct {
		Quorums json.Number `json:"quorums"`
	}
	if err := json.Unmarshal([]byte(o.stdout), &rep); err != nil {
		t.Fatalf("info --json: %v", err)
	}
	// log10 C(10^6, 500001) = 301026.3 (Stirling): 301027 digits.
	if n := len(rep.Quorums.String()); n != 301027 {
		t.Errorf("C(10^6, 500001) has %d digits, want 301027", n)
	}
	o = runHostile(t, dir, nil, 30*time.Second, "compare", "maj.json", "--max-memory", "512MiB")
	if o.code != 0 || !strings.Contains(o.stderr+o.stdout, "not found within the memory budget (--max-memory 512 MiB)") {
		t.Errorf("compare on a majority of 10^6: exit %d, stdout %s, stderr %s", o.code, short(o.stdout), short(o.stderr))
	}
	o = runHostile(t, dir, nil, 30*time.Second, "availability", "maj.json", "--p", "0.9", "--max-memory", "512MiB")
	if o.code != exitError || !strings.Contains(o.stderr, "memory budget") {
		t.Errorf("availability on a majority of 10^6: exit %d, %s", o.code, short(o.stderr))
	}
	var one bytes.Buffer
	for v := 1; v <= 1000000; v++ {
		fmt.Fprintf(&one, "%d ", v)
	}
	one.WriteString("\n")
	putBytes(t, dir, "one.txt", one.Bytes())
	o = runHostile(t, dir, nil, 30*time.Second, "compare", "one.txt", "--timeout", "1s")
	checkStopped(t, o, exitTimeout, 10*time.Second, dir, "", "")
	// A drawing of 10^6 cells would take several times the budget: it is
	// refused before it is made, naming the budget.
	putBytes(t, dir, "d.svg", []byte("old"))
	o = runHostile(t, dir, nil, 30*time.Second, "draw", "one.txt", "-o", "d.svg", "--max-memory", "256MiB")
	checkStopped(t, o, exitError, 10*time.Second, dir, "d.svg", "old")
	if !strings.Contains(o.stderr, "--max-memory 256 MiB") || o.maxRSS > max(256<<20, selfMaxRSS()) {
		t.Errorf("draw on 10^6 cells: peak %d MiB, %s; want the budget named, and kept", o.maxRSS>>20, short(o.stderr))
	}
	putBytes(t, dir, "rep.html", []byte("old"))
	o = runHostile(t, dir, nil, 30*time.Second, "report", "one.txt", "-o", "rep.html", "--timeout", "2s")
	checkStopped(t, o, exitTimeout, 12*time.Second, dir, "rep.html", "old")
}

// A million quorums as a read-write system: refused past the budget,
// stopped at --timeout otherwise, with memory below the budget.
func TestBoundedMillionQuorums(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[[3]int]bool{}
	var b bytes.Buffer
	for len(seen) < 1000000 {
		q := [3]int{1 + r.IntN(200), 1 + r.IntN(200), 1 + r.IntN(200)}
		if q[0] == q[1] || q[1] == q[2] || q[0] == q[2] || seen[q] {
			continue
		}
		seen[q] = true
		fmt.Fprintf(&b, "%d %d %d\n", q[0], q[1], q[2])
	}
	putBytes(t, dir, "q.txt", b.Bytes())
	o := runHostile(t, dir, nil, 60*time.Second, "strategy", "q.txt", "--read-fraction", "0.5", "--max-memory", "512MiB")
	if o.code != exitError || !strings.Contains(o.stderr, "--max-memory 512 MiB") || o.maxRSS > max(512<<20, selfMaxRSS()) {
		t.Errorf("strategy on 10^6 quorums, --max-memory 512MiB: exit %d, peak %d MiB, %s", o.code, o.maxRSS>>20, short(o.stderr))
	}
	o = runHostile(t, dir, nil, 60*time.Second, "strategy", "q.txt", "--read-fraction", "0.5", "--max-memory", "2GiB", "--timeout", "2s")
	checkStopped(t, o, exitTimeout, 12*time.Second, dir, "", "")
}

// An expression of 10^5 and 4·10^5 terms in a read-write file: its tree
// is refused past its share of the budget, and the work on it stops at
// --timeout.
func TestBoundedLongExpression(t *testing.T) {
	dir := t.TempDir()
	for name, e := range map[string]string{
		"chain.json":  chainExpr(100000),
		"repeat.json": strings.Repeat("n1*n2 + ", 399999) + "n1*n2",
	} {
		data, err := json.Marshal(map[string]string{"reads": e})
		if err != nil {
			t.Fatal(err)
		}
		putBytes(t, dir, name, data)
		o := runHostile(t, dir, nil, 30*time.Second, "verify", name, "--max-memory", "32MiB")
		if o.code != exitError || !strings.Contains(o.stderr, name+":1: \"reads\": expr: at column") || !strings.Contains(o.stderr, "--max-memory 32 MiB") {
			t.Errorf("verify %s --max-memory 32MiB: exit %d, %s", name, o.code, short(o.stderr))
		}
	}
	for _, c := range []string{"verify", "info", "compare"} {
		o := runHostile(t, dir, nil, 30*time.Second, c, "chain.json", "--max-memory", "256MiB", "--timeout", "1s")
		checkStopped(t, o, exitTimeout, 10*time.Second, dir, "", "")
	}
	o := runSignalled(t, dir, syscall.SIGINT, time.Second, "info", "chain.json")
	checkStopped(t, o, exitInterrupted, 10*time.Second, dir, "", "")
}

// An exhaustive exploration stopped at the memory budget is a partial
// result: exit 2, as the other partial results.
func TestBoundedExploreBudget(t *testing.T) {
	dir := t.TempDir()
	putBytes(t, dir, "fano.txt", []byte(fanoText))
	for _, extra := range [][]string{nil, {"--json"}, {"--checkpoint", "ck.json"}} {
		args := append([]string{"simulate", "fano.txt", "--protocol", "maekawa", "--explore", "--requests", "3", "--max-memory", "1MiB"}, extra...)
		o := runHostile(t, dir, nil, 30*time.Second, args...)
		if o.code != exitError || !strings.Contains(o.stderr, "memory budget") {
			t.Errorf("coterie %s: exit %d, %s; want 2 at the memory budget", strings.Join(args, " "), o.code, short(o.stderr))
		}
	}
}

// A search says what stopped it: --timeout or a signal, not its budget.
// (64 nodes with 100,000 random orders per grid shape: minutes of work.)
func TestBoundedSearchStop(t *testing.T) {
	dir := t.TempDir()
	o := runHostile(t, dir, nil, 30*time.Second, "search", "--n", "64", "--shuffles", "100000", "--read-fraction", "0.5", "--budget", "0", "--timeout", "1s")
	checkStopped(t, o, exitTimeout, 10*time.Second, dir, "", "")
	if !strings.Contains(o.stdout, "search stopped by --timeout") || strings.Contains(o.stdout, "budget") {
		t.Errorf("stdout %s; want \"search stopped by --timeout\"", short(o.stdout))
	}
	o = runSignalled(t, dir, syscall.SIGINT, time.Second, "search", "--n", "64", "--shuffles", "100000", "--read-fraction", "0.5", "--budget", "0")
	checkStopped(t, o, exitInterrupted, 10*time.Second, dir, "", "")
	if !strings.Contains(o.stdout, "search interrupted") || strings.Contains(o.stdout, "budget") {
		t.Errorf("stdout %s; want \"search interrupted\"", short(o.stdout))
	}
}

// A threshold over 2^24 nodes (binomials of millions of digits, in the
// statistics and the exact availability) ends the process soon after the
// first signal or the deadline, with its status, the old output file
// intact: the binomials watch the context, and a computation that did not
// would still be ended by the grace period.
func TestBoundedStopGrace(t *testing.T) {
	dir := t.TempDir()
	putBytes(t, dir, "big.json", []byte(`{"format": "coterie/1", "n": 16777216, "threshold": 8388609}`+"\n"))
	putBytes(t, dir, "out.json", []byte("old"))
	o := runHostile(t, dir, nil, 30*time.Second, "info", "big.json", "--timeout", "1s", "-o", "out.json")
	checkStopped(t, o, exitTimeout, 10*time.Second, dir, "out.json", "old")
	o = runSignalled(t, dir, syscall.SIGTERM, 500*time.Millisecond, "info", "big.json", "-o", "out.json")
	checkStopped(t, o, exitTerminated, 10*time.Second, dir, "out.json", "old")
}
