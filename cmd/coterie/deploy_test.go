package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// deployEnv runs deploy/slurm-array.sh as a Slurm task would: with this
// test binary as coterie and a stand-in sbatch that records the merge
// jobs it is asked to queue.
type deployEnv struct {
	t          *testing.T
	sh, script string
	path       string // PATH with coterie and the stand-in sbatch first
	wraps      string // the stand-in's record of --wrap commands, one a file
}

func newDeployEnv(t *testing.T) *deployEnv {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	// testscript.Main (main_test.go) runs the command when the binary is
	// called coterie.
	if err := os.Symlink(self, filepath.Join(bin, "coterie")); err != nil {
		t.Fatal(err)
	}
	wraps := t.TempDir()
	fake := `#!/bin/sh
n=$(ls ` + wraps + ` | wc -l)
for a; do
	case $a in
	--dependency=*) printf '%s\n' "${a#--dependency=}" >` + wraps + `/dep-$n ;;
	--wrap=*) printf '%s\n' "${a#--wrap=}" >` + wraps + `/wrap-$n ;;
	esac
done
`
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "deploy", "slurm-array.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return &deployEnv{t: t, sh: sh, script: script, wraps: wraps,
		path: bin + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// task runs task id of the array lo-hi (job id job) on args.
func (d *deployEnv) task(job, id, lo, hi int, args ...string) {
	d.t.Helper()
	cmd := exec.Command(d.sh, append([]string{d.script}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+d.path, "JOB_COMPLETION_INDEX=",
		"SLURM_ARRAY_JOB_ID="+strconv.Itoa(job), "SLURM_ARRAY_TASK_ID="+strconv.Itoa(id),
		"SLURM_ARRAY_TASK_MIN="+strconv.Itoa(lo), "SLURM_ARRAY_TASK_MAX="+strconv.Itoa(hi),
		"SLURM_ARRAY_TASK_COUNT="+strconv.Itoa(hi-lo+1), "SLURM_ARRAY_TASK_STEP=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		d.t.Fatalf("task %d of %d-%d: %v: %s", id, lo, hi, err, out)
	}
}

// merges returns the dependencies and commands of the merge jobs queued
// so far.
func (d *deployEnv) merges() (deps, wraps []string) {
	d.t.Helper()
	for i := 0; ; i++ {
		dep, err1 := os.ReadFile(filepath.Join(d.wraps, "dep-"+strconv.Itoa(2*i)))
		wrap, err2 := os.ReadFile(filepath.Join(d.wraps, "wrap-"+strconv.Itoa(2*i)))
		if err1 != nil || err2 != nil {
			return deps, wraps
		}
		deps = append(deps, strings.TrimSpace(string(dep)))
		wraps = append(wraps, string(wrap))
	}
}

// runMergeJob runs a queued merge command as the merge job would.
func (d *deployEnv) runMergeJob(wrap string) error {
	cmd := exec.Command(d.sh, "-c", wrap)
	cmd.Env = append(os.Environ(), "PATH="+d.path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		d.t.Logf("merge job: %s", out)
	}
	return err
}

// deploy/slurm-array.sh, run as the tasks of a 0-based and of a 1-based
// array, leaves parts whose merge (queued once, by the first task, after
// the whole array) is the unsplit result; a task resubmitted alone is the
// same shard and queues a merge of its own.
func TestDeploySlurmScript(t *testing.T) {
	for _, first := range []int{0, 1} {
		d := newDeployEnv(t)
		dir := t.TempDir()
		input := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
		out := filepath.Join(dir, "b7-availability")
		for id := first; id < first+3; id++ {
			d.task(42, id, first, first+2, input)
		}
		deps, wraps := d.merges()
		if len(deps) != 1 || deps[0] != "afterany:42" {
			t.Fatalf("array %d-%d: merges queued %v, want one after job 42", first, first+2, deps)
		}
		if got, _ := os.ReadFile(filepath.Join(out, "array")); strings.TrimSpace(string(got)) != strconv.Itoa(first)+"-"+strconv.Itoa(first+2) {
			t.Errorf("array %d-%d recorded as %q", first, first+2, got)
		}
		_, want, _ := runAvailabilityCmd(t, "availability", input, "--json")
		result := filepath.Join(out, "result.json")
		if err := d.runMergeJob(wraps[0]); err != nil {
			t.Fatalf("merge job: %v", err)
		}
		if got, _ := os.ReadFile(result); string(got) != want {
			t.Errorf("array %d-%d: result.json\n%s\nwant\n%s", first, first+2, got, want)
		}

		// A lost part: the merge refuses and leaves no result; the task
		// resubmitted alone (a new job) writes the same part and queues
		// its own merge.
		lost := filepath.Join(out, "part-"+strconv.Itoa(first+1)+".json")
		before, _ := os.ReadFile(lost)
		os.Remove(lost)
		os.Remove(result)
		if err := d.runMergeJob(wraps[0]); err == nil {
			t.Errorf("the merge succeeded with a part missing")
		}
		if _, err := os.Stat(result); err == nil {
			t.Errorf("a refused merge left %s", result)
		}
		d.task(43, first+1, first+1, first+1, input)
		if after, _ := os.ReadFile(lost); string(after) != string(before) {
			t.Errorf("the resubmitted task wrote\n%s\nwant\n%s", after, before)
		}
		deps, wraps = d.merges()
		if len(deps) != 2 || deps[1] != "afterany:43" {
			t.Fatalf("after the resubmission: merges queued %v, want a second after job 43", deps)
		}
		if err := d.runMergeJob(wraps[1]); err != nil {
			t.Fatalf("second merge job: %v", err)
		}
		if got, _ := os.ReadFile(result); string(got) != want {
			t.Errorf("after the resubmission: result.json\n%s\nwant\n%s", got, want)
		}
	}
}

// Two inputs, and two commands on one input, write to folders of their
// own.
func TestDeploySlurmFolders(t *testing.T) {
	d := newDeployEnv(t)
	dir := t.TempDir()
	b7 := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
	b5 := avGenerate(t, dir, "b5.json", "billiard", "--q", "5")
	for id := 1; id <= 2; id++ {
		d.task(7, id, 1, 2, b7)
		d.task(8, id, 1, 2, b5)
		d.task(9, id, 1, 2, b7, "transversals", "--count")
	}
	for _, c := range []struct{ folder, kind string }{
		{"b7-availability", `"kind": "availability"`},
		{"b5-availability", `"kind": "availability"`},
		{"b7-transversals", `"kind": "transversals"`},
	} {
		for id := 1; id <= 2; id++ {
			part, err := os.ReadFile(filepath.Join(dir, c.folder, "part-"+strconv.Itoa(id)+".json"))
			if err != nil || !strings.Contains(string(part), c.kind) || !strings.Contains(string(part), `"shard": "`+strconv.Itoa(id)+`/2"`) {
				t.Errorf("%s/part-%d.json: %v\n%s", c.folder, id, err, part)
			}
		}
	}
	_, want, _ := runAvailabilityCmd(t, "transversals", b7, "--count", "--json")
	_, wraps := d.merges()
	if len(wraps) != 3 {
		t.Fatalf("%d merges queued, want 3", len(wraps))
	}
	if err := d.runMergeJob(wraps[2]); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "b7-transversals", "result.json")); string(got) != want {
		t.Errorf("transversals --count merged:\n%s\nwant\n%s", got, want)
	}
}
