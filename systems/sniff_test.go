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

// TestSniffQuickRefusals: the cheap refusals the sniffers make before
// splitting a file into lines keep every configuration they would have
// taken, whatever the case of its keys, and containsFoldASCII agrees with
// lowering the text.
func TestSniffQuickRefusals(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"c.cql", "CREATE KEYSPACE shop WITH REPLICATION = {'class': 'SimpleStrategy', 'replication_factor': 3};\n", "cassandra"},
		{"fp.conf", "nodes: 6\nPHASE1: 3\nPhase2: 4\n", "fpaxos"},
		{"fp.conf", "# phase1 and phase2\nnodes: 6\nphAse2: 4\nphase1 = 3\n", "fpaxos"},
		{"zk.properties", "tickTime=2000\nserver.1=a:2888:3888\nserver.2=b:2888:3888\nserver.3=c:2888:3888\n", "zookeeper"},
		{"q.dat", strings.Repeat("1 2 4 7 10 14 18 22 26\n", 10000), ""},
		{"q.txt", "# n: 3\n1 2\n2 3\n1 3\n", ""},
	} {
		f, ok := Sniff(tt.name, []byte(tt.data))
		if got := f.Name; !ok && got != "" || got != tt.want {
			t.Errorf("%s: sniffed %q, want %q", tt.name, got, tt.want)
		}
	}
	for _, s := range []string{"", "phas", "PHASE", "xxPhAsEyy", "p h a s e", "phasE1", "ph\u0130se", "\u212aphase", "pha\u017fe", "PHA"} {
		if got, want := containsFoldASCII([]byte(s), "phase"), strings.Contains(strings.ToLower(s), "phase"); got != want {
			t.Errorf("containsFoldASCII(%q, phase) = %v, want %v", s, got, want)
		}
	}
}
