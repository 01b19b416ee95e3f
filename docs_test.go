package coterie_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/coterie-dev/coterie/"

// sourceImports returns, for every package of the module (a folder with
// non-test Go files, outside testdata), the packages of the module its
// non-test files import.
func sourceImports(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if dir == "." {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		imps := pkgs[dir]
		if imps == nil {
			imps = []string{}
		}
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if rest, ok := strings.CutPrefix(p, module); ok && !slices.Contains(imps, rest) {
				imps = append(imps, rest)
			}
		}
		slices.Sort(imps)
		pkgs[dir] = imps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

var backticked = regexp.MustCompile("`([^`]+)`")

// docTable returns the rows of the markdown table that follows the line
// starting with heading: the backticked names of the first column, each
// with the backticked names of the second column outside parentheses.
func docTable(t *testing.T, doc, heading string) map[string][]string {
	t.Helper()
	i := strings.Index(doc, heading)
	if i < 0 {
		t.Fatalf("docs/architecture.md has no %q", heading)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(doc[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(cells[1], "---") {
			continue
		}
		var deps []string
		depth := 0
		var plain strings.Builder
		for _, r := range cells[2] {
			switch {
			case r == '(':
				depth++
			case r == ')':
				depth--
			case depth == 0:
				plain.WriteRune(r)
			}
		}
		for _, m := range backticked.FindAllStringSubmatch(plain.String(), -1) {
			deps = append(deps, m[1])
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[1], -1) {
			rows[m[1]] = deps
		}
	}
	return rows
}

// TestArchitectureDoc checks docs/architecture.md against the source: every
// package is in the table of packages and in the table of imports, and
// each row of the imports table lists exactly the packages of the module
// that the package's source imports.
func TestArchitectureDoc(t *testing.T) {
	b, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	jobs := docTable(t, doc, "| package | job |")
	imports := docTable(t, doc, "| package | imports (inside the module) |")
	src := sourceImports(t)
	for pkg, got := range src {
		if _, ok := jobs[pkg]; !ok {
			t.Errorf("package %s is not in the table of packages", pkg)
		}
		want, ok := imports[pkg]
		if !ok {
			t.Errorf("package %s is not in the table of imports", pkg)
			continue
		}
		want = slices.Clone(want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("package %s imports %v; docs/architecture.md says %v", pkg, got, want)
		}
	}
	for pkg := range imports {
		if _, ok := src[pkg]; !ok {
			t.Errorf("docs/architecture.md lists %s, which is not a package", pkg)
		}
	}
	for pkg := range jobs {
		if _, ok := src[pkg]; !ok {
			t.Errorf("docs/architecture.md describes %s, which is not a package", pkg)
		}
	}
}
