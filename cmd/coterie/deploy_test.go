package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// deploy/slurm-array.sh, run as the tasks of a 3-task array (with this
// test binary as coterie and a stand-in sbatch), leaves the three parts
// whose merge is the unsplit result, and queues the merge once.
func TestDeploySlurmScript(t *testing.T) {
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
	sbatchLog := filepath.Join(bin, "sbatch.log")
	fake := "#!/bin/sh\necho \"$@\" >> " + sbatchLog + "\n"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	input := avGenerate(t, dir, "b7.json", "billiard", "--q", "7")
	script, err := filepath.Abs(filepath.Join("..", "..", "deploy", "slurm-array.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		cmd := exec.Command(sh, script, input)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"SHARDS=3", "SLURM_ARRAY_TASK_ID="+strconv.Itoa(i), "SLURM_ARRAY_JOB_ID=42", "JOB_COMPLETION_INDEX=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("task %d: %v: %s", i, err, out)
		}
	}
	log, err := os.ReadFile(sbatchLog)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "afterok:42"); n != 1 {
		t.Errorf("the merge was queued %d times: %s", n, log)
	}
	var parts []string
	for i := 1; i <= 3; i++ {
		parts = append(parts, filepath.Join(dir, "part-"+strconv.Itoa(i)+".json"))
	}
	_, want, _ := runAvailabilityCmd(t, "availability", input, "--json")
	code, got, errs := runAvailabilityCmd(t, append([]string{"merge", "--json"}, parts...)...)
	if code != 0 || got != want {
		t.Errorf("merge of the array's parts: exit %d %s:\n%s\nwant\n%s", code, errs, got, want)
	}
}
