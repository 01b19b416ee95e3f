package testsys

import (
	"os"
	"os/exec"
	"testing"
)

// MountTmpfs mounts a tmpfs with the mount options opts ("size=64k",
// "ro") in a temporary folder that the test's cleanup unmounts, and
// returns the folder; without root, or when mount fails, it skips the
// test saying why. Output tests use it for a full or read-only disk.
func MountTmpfs(t *testing.T, opts string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}
