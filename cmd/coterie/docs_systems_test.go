package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestSystemsDoc keeps docs/systems.md and the script that runs its
// examples (testdata/script/docs_systems.txtar) the same: every file of the
// script — each configuration and each expected output — is in the doc
// verbatim, and every command the doc shows is run by the script.
func TestSystemsDoc(t *testing.T) {
	docData, err := os.ReadFile(filepath.Join("..", "..", "docs", "systems.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(docData)
	ar, err := txtar.ParseFile(filepath.Join("testdata", "script", "docs_systems.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if !strings.Contains(doc, "```\n"+string(f.Data)+"```\n") {
			t.Errorf("docs/systems.md does not hold %s of the script as a block:\n%s", f.Name, f.Data)
		}
	}
	script := string(ar.Comment)
	runs := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^(?:! )?exec (coterie .*)$`).FindAllStringSubmatch(script, -1) {
		runs[strings.TrimSpace(m[1])] = true
	}
	shown := regexp.MustCompile(`(?m)^(?:\$ )?(coterie (?:check-config|verify|availability|info|compare|draw|report) [^#\n]*?)\s*(?:#.*)?$`).FindAllStringSubmatch(doc, -1)
	if len(shown) < 10 {
		t.Fatalf("only %d commands found in the doc", len(shown))
	}
	for _, m := range shown {
		cmd := strings.TrimSpace(m[1])
		if strings.Contains(cmd, "FILE") {
			continue // the synopsis
		}
		if !runs[cmd] {
			t.Errorf("the doc shows %q, which the script does not run", cmd)
		}
	}
}
