package atomicfile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/coterie-dev/coterie/internal/atomicfile"
)

// Write a file so that readers see the old content or the new, never a
// mix: the new content goes to a temporary file that Commit renames into
// place; an aborted write leaves the old file as it was.
func Example() {
	dir, _ := os.MkdirTemp("", "atomicfile-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "plane.txt")
	_ = os.WriteFile(path, []byte("old\n"), 0o644)

	f, _ := atomicfile.Create(path)
	fmt.Fprint(f, "1 2 3\n1 4 5\n")
	f.Abort()
	b, _ := os.ReadFile(path)
	fmt.Printf("after Abort: %q\n", b)

	f, _ = atomicfile.Create(path)
	defer f.Abort()
	fmt.Fprint(f, "1 2 3\n1 4 5\n")
	if err := f.Commit(); err != nil {
		panic(err)
	}
	b, _ = os.ReadFile(path)
	fmt.Printf("after Commit: %q\n", b)
	entries, _ := os.ReadDir(dir)
	fmt.Println("files in the folder:", len(entries))
	// Output:
	// after Abort: "old\n"
	// after Commit: "1 2 3\n1 4 5\n"
	// files in the folder: 1
}
