package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/coterie-dev/coterie/internal/testsys"
)

// write runs Create, Write, Commit on path.
func write(path string, data []byte) error {
	af, err := Create(path)
	if err != nil {
		return err
	}
	defer af.Abort()
	if _, err := af.Write(data); err != nil {
		return err
	}
	return af.Commit()
}

// leftovers lists the temporary files left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var tmp []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			tmp = append(tmp, e.Name())
		}
	}
	return tmp
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewFileHonoursUmask(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	p := filepath.Join(t.TempDir(), "new.json")
	if err := write(p, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o640 {
		t.Errorf("mode %v, want 0640 (0666 less umask 027)", got)
	}
	if got := mustRead(t, p); got != "hello" {
		t.Errorf("content %q", got)
	}
}

func TestReplaceKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := write(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if got := mustRead(t, p); got != "new" {
		t.Errorf("content %q", got)
	}
	if l := leftovers(t, dir); l != nil {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestSymlinkTargetWritten(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "real")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(sub, "data.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real/data.json", link); err != nil {
		t.Fatal(err)
	}
	// A chain: link2 -> link.json -> real/data.json.
	link2 := filepath.Join(dir, "link2.json")
	if err := os.Symlink("link.json", link2); err != nil {
		t.Fatal(err)
	}
	if err := write(link2, []byte("new")); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, link2} {
		fi, err := os.Lstat(l)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", l)
		}
	}
	if got := mustRead(t, target); got != "new" {
		t.Errorf("target content %q, want new", got)
	}
	if l := leftovers(t, sub); l != nil {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestDanglingSymlinkCreatesTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "out.json")
	if err := os.Symlink("made.json", link); err != nil {
		t.Fatal(err)
	}
	if err := write(link, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(dir, "made.json")); got != "x" {
		t.Errorf("target content %q", got)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
}

func TestSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink("b", a)
	os.Symlink("a", b)
	if err := write(a, []byte("x")); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("err = %v, want a loop error", err)
	}
}

func TestFIFOWrittenDirectly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	af, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if !af.Direct() || af.TempPath() != "" {
		t.Error("a FIFO must be written directly, without a temporary file")
	}
	af.Write([]byte("through the pipe"))
	if err := af.Commit(); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "through the pipe" {
		t.Errorf("reader got %q", b)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO", p)
	}
	if l := leftovers(t, dir); l != nil {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestFolderRefused(t *testing.T) {
	dir := t.TempDir()
	_, err := Create(dir)
	if err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("err = %v, want a folder error", err)
	}
}

func TestHardLinkKept(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(p, q); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if err := write(p, []byte("new content")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, q); got != "new content" {
		t.Errorf("the other link reads %q: the link was split", got)
	}
	a, _ := os.Stat(p)
	b, _ := os.Stat(q)
	if !os.SameFile(a, b) {
		t.Error("the two names are no longer the same file")
	}
	if l := leftovers(t, dir); l != nil {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestAbortLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "keep.txt")
	os.WriteFile(p, []byte("old"), 0o644)
	af, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	af.Write([]byte("half"))
	af.Abort()
	if got := mustRead(t, p); got != "old" {
		t.Errorf("content %q after abort", got)
	}
	if l := leftovers(t, dir); l != nil {
		t.Errorf("temporary files left: %v", l)
	}
	if err := af.Commit(); err == nil {
		t.Error("commit after abort succeeded")
	}
}

func TestLongName(t *testing.T) {
	dir := t.TempDir()
	name := strings.Repeat("é", 100) + strings.Repeat("x", 45) + ".json" // 250 bytes
	if len(name) != 250 {
		t.Fatalf("name is %d bytes", len(name))
	}
	p := filepath.Join(dir, name)
	if err := write(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := write(p, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, p); got != "y" {
		t.Errorf("content %q", got)
	}
}

func TestTempNameFits(t *testing.T) {
	for _, base := range []string{"", "a.json", strings.Repeat("z", 255), strings.Repeat("é", 127) + "x", strings.Repeat("€", 85)} {
		n := TempName(base)
		if len(n) > nameMax {
			t.Errorf("TempName(%d bytes) is %d bytes", len(base), len(n))
		}
		if !utf8.ValidString(n) {
			t.Errorf("TempName cut a character: %q", n)
		}
		if !strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".tmp") {
			t.Errorf("TempName = %q", n)
		}
	}
	if a, b := TempName("a"), TempName("a"); a == b {
		t.Error("two temporary names are equal")
	}
}

func TestFullDisk(t *testing.T) {
	dir := testsys.MountTmpfs(t, "size=64k")
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := write(p, bytes.Repeat([]byte("x"), 1<<20))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("err = %v, want no space left", err)
	}
	if got := mustRead(t, p); got != "old" {
		t.Errorf("old file now %q", got)
	}
	if l := leftovers(t, dir); l != nil {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestReadOnlyFolder(t *testing.T) {
	dir := testsys.MountTmpfs(t, "size=64k")
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only: %v: %s", err, out)
	}
	err := write(p, []byte("new"))
	if !errors.Is(err, syscall.EROFS) {
		t.Errorf("err = %v, want a read-only file system", err)
	}
	if got := mustRead(t, p); got != "old" {
		t.Errorf("old file now %q", got)
	}
}

// Where the system has unnamed files, nothing appears in the folder until
// Commit: a process killed while writing leaves nothing behind.
func TestUnnamedWhileWriting(t *testing.T) {
	dir := t.TempDir()
	af, err := Create(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer af.Abort()
	af.Write([]byte("data"))
	ents, _ := os.ReadDir(dir)
	if af.TempPath() == "" {
		if len(ents) != 0 {
			t.Errorf("an unnamed file shows in the folder: %v", ents)
		}
	} else {
		t.Logf("no unnamed files here; writing %s", af.TempPath())
	}
	if err := af.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(dir, "out.txt")); got != "data" {
		t.Errorf("content %q", got)
	}
	if l := leftovers(t, dir); l != nil {
		t.Errorf("temporary files left: %v", l)
	}
}
