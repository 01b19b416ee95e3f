package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/internal/testsys"
)

// timeoutCases are commands whose work, left alone, takes far more than
// a minute (measured: info and availability on Maekawa's sets for 3000
// nodes, verify on the 4-cube 3-arbiter of side 6 over 1296 nodes, all
// still running after 60 s) or writes 2^21 quorums (the wall of 21 rows
// of 2), each under --timeout 1s. ins are the inputs they read, made by
// generate first.
var timeoutCases = []struct {
	name string
	args []string
}{
	{"generate", []string{"generate", "wall", "--widths", "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2", "-o", "wall.json"}},
	{"info", []string{"info", "mk.json"}},
	{"availability", []string{"availability", "mk.json"}},
	{"verify", []string{"verify", "cube.json"}},
}

// timeoutInputs are the commands that make the inputs of timeoutCases.
var timeoutInputs = [][]string{
	{"generate", "maekawa", "--n", "3000", "-o", "mk.json"},
	{"generate", "cube", "--a", "6", "--k", "3", "-o", "cube.json"},
}

// TestTimeoutEndsProcess: each command of timeoutCases, run as a
// process, exits with 124 at --timeout 1s: the process ends, and with it
// all its work. The bound of a minute only catches a process that runs
// on; the time taken is logged.
func TestTimeoutEndsProcess(t *testing.T) {
	dir := t.TempDir()
	for _, args := range timeoutInputs {
		if code, errs := runCoterie(t, dir, args...); code != 0 {
			t.Fatalf("coterie %s: exit %d: %s", strings.Join(args, " "), code, errs)
		}
	}
	for _, tc := range timeoutCases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := coterieCmd(t, dir, append(tc.args, "--timeout", "1s")...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			timer := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
			defer timer.Stop()
			code := waitStatus(t, cmd)
			took := time.Since(start)
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			t.Logf("exit %d after %v (CPU %v)", code, took.Round(time.Millisecond), cpu.Round(time.Millisecond))
			if code != exitTimeout || !strings.Contains(errb.String(), "stopped at the --timeout limit") {
				t.Errorf("exit %d, want 124 (killed after a minute: -1): %s", code, errb.String())
			}
		})
	}
}

// computingStacks returns the stacks of the goroutines that are in code of
// the packages that compute (construct, availability, measure, verify,
// domination, set).
func computingStacks() []string {
	return testsys.Computing("construct.", "availability.", "measure.", "verify.", "domination.", "set.")
}

// TestTimeoutLeavesNoWork: in this process, each command of timeoutCases
// returns 124 at --timeout 1s, and when it has returned no goroutine is
// computing any more: nothing was abandoned to run on (the work of each
// lasts far longer than the test).
func TestTimeoutLeavesNoWork(t *testing.T) {
	dir := t.TempDir()
	abs := func(args []string) []string {
		out := append([]string(nil), args...)
		for i, a := range out {
			if strings.HasSuffix(a, ".json") {
				out[i] = filepath.Join(dir, a)
			}
		}
		return out
	}
	runIn := func(args []string) (int, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), abs(args), &streams{in: strings.NewReader(""), out: &out, err: &errb})
		return code, errb.String()
	}
	for _, args := range timeoutInputs {
		if code, errs := runIn(args); code != 0 {
			t.Fatalf("coterie %s: exit %d: %s", strings.Join(args, " "), code, errs)
		}
	}
	// Work that an earlier test left running would be counted here: let
	// it end first.
	for wait := 0; len(computingStacks()) > 0; wait++ {
		if wait == 100 {
			left := computingStacks()
			t.Fatalf("%d goroutines still compute 10 s before the test starts, the first:\n%s", len(left), left[0])
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, tc := range timeoutCases {
		t.Run(tc.name, func(t *testing.T) {
			code, errs := runIn(append(tc.args, "--timeout", "1s"))
			if code != exitTimeout {
				t.Errorf("exit %d, want 124: %s", code, errs)
			}
			if left := computingStacks(); len(left) > 0 {
				t.Errorf("%d goroutines still compute after the command returned, the first:\n%s", len(left), left[0])
			}
		})
	}
}
