package systems

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestSniffLeavesQuorumFiles: no configuration format claims a quorum
// file — the repository's examples and every .json, .txt, .csv and .dat
// file of the command's scripts that is not a configuration — since the
// commands try the formats' Sniff on every file they read.
func TestSniffLeavesQuorumFiles(t *testing.T) {
	files := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = data
	}
	scripts, _ := filepath.Glob(filepath.Join("..", "cmd", "coterie", "testdata", "script", "*.txtar"))
	for _, s := range scripts {
		if strings.Contains(filepath.Base(s), "systems") {
			continue // the configurations' own scripts
		}
		ar, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			switch filepath.Ext(f.Name) {
			case ".json", ".txt", ".q", ".csv", ".dat":
				files[s+":"+f.Name] = f.Data
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d quorum files found", len(files))
	}
	t.Logf("%d quorum files", len(files))
	for name, data := range files {
		if f, ok := Sniff(filepath.Base(name), data); ok {
			t.Errorf("%s is taken for a %s configuration", name, f.Name)
		}
	}
}
