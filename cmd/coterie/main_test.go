package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

// TestMain lets the scripts run "coterie" as a real program: the test
// binary re-executes itself as the command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"coterie": func() {
			os.Exit(mainProcess())
		},
	})
}

// TestScripts runs the end-to-end scripts in testdata/script. $TESTDATA is
// the repository's testdata directory (the papers' examples).
func TestScripts(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTDATA", testdata)
			return nil
		},
	})
}
