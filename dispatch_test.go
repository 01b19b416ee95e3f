package coterie_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// representationOwners are the packages that may look at how a family is
// stored: set defines the forms, construct and quorum turn a family into
// its typed construction, and format reads and writes the forms (and
// rebuilds a construction from its kind and params through the registry).
var representationOwners = []string{"set", "construct", "format", "quorum"}

// listedPackage is what `go list -json` says of a package that matters here.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	Module     *struct{ Path string }
}

// listed holds what `go list` said, asked once for every test here.
var listed struct {
	once   sync.Once
	mine   []listedPackage
	export map[string]string
	err    error
}

// listPackages runs `go list -export -deps -json ./...` once: the module's
// packages and the export data of every package they import.
func listPackages(t *testing.T) (mine []listedPackage, export map[string]string) {
	t.Helper()
	listed.once.Do(func() {
		out, err := exec.Command("go", "list", "-export", "-deps", "-json", "./...").Output()
		if err != nil {
			listed.err = fmt.Errorf("go list: %w", err)
			return
		}
		listed.export = map[string]string{}
		dec := json.NewDecoder(bytes.NewReader(out))
		for dec.More() {
			var p listedPackage
			if err := dec.Decode(&p); err != nil {
				listed.err = err
				return
			}
			listed.export[p.ImportPath] = p.Export
			if p.Module != nil && p.Module.Path+"/" == module || p.ImportPath+"/" == module {
				listed.mine = append(listed.mine, p)
			}
		}
	})
	if listed.err != nil {
		t.Fatal(listed.err)
	}
	return listed.mine, listed.export
}

// dispatch finds, in the type-checked files, every place that decides by a
// family's representation: a comparison or switch on set.Family's Kind or
// Params, and a call of its IsImplicit or IsThreshold.
func dispatch(fset *token.FileSet, files []*ast.File, info *types.Info) []string {
	isFamily := func(t types.Type) bool {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		return ok && n.Obj().Name() == "Family" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == module+"set"
	}
	// familyField reports whether e selects one of fields on a set.Family.
	familyField := func(e ast.Expr, fields ...string) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := info.Selections[sel]
		return s != nil && slices.Contains(fields, sel.Sel.Name) && isFamily(s.Recv())
	}
	var found []string
	report := func(n ast.Node, what string) {
		found = append(found, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), what))
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (familyField(n.X, "Kind", "Params") || familyField(n.Y, "Kind", "Params")) {
					report(n, "compares a family's kind or params")
				}
			case *ast.SwitchStmt:
				if n.Tag != nil && familyField(n.Tag, "Kind") {
					report(n, "switches on a family's kind")
				}
			case *ast.CallExpr:
				if familyField(n.Fun, "IsImplicit", "IsThreshold") {
					report(n, "asks a family's representation")
				}
			}
			return true
		})
	}
	return found
}

// check type-checks one package's files against the export data and
// returns its dispatches.
func check(t *testing.T, fset *token.FileSet, path string, files []*ast.File, export map[string]string) []string {
	t.Helper()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp}
	if _, err := conf.Check(path, fset, files, info); err != nil {
		t.Fatalf("type-checking %s: %v", path, err)
	}
	return dispatch(fset, files, info)
}

// TestNoRepresentationDispatch holds the rule that makes a new construction
// one file: outside the packages that own a family's representations, no
// code decides by a family's construction kind or params, or by whether it
// is stored as a list, a threshold or an implicit construction. Consumers
// ask the typed construction (construct.Form, construct.Typed) for what
// they need. Reading the kind to print it is fine; deciding by it is not.
func TestNoRepresentationDispatch(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the module")
	}
	pkgs, export := listPackages(t)
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p.ImportPath, module)
		if slices.Contains(representationOwners, rel) || len(p.GoFiles) == 0 {
			continue
		}
		fset := token.NewFileSet()
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		for _, d := range check(t, fset, p.ImportPath, files, export) {
			t.Errorf("%s (ask the typed construction instead)", d)
		}
	}
}

// TestDispatchFinds shows the check above catches what it is for, on a
// package written here that breaks the rule in each way.
func TestDispatchFinds(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks against the module's export data")
	}
	_, export := listPackages(t)
	const src = `package bad

import "github.com/coterie-dev/coterie/set"

func kinds(f *set.Family, g set.Family) int {
	if f.Kind == "tree" || "wall" != g.Kind {
		return 1
	}
	switch f.Kind {
	case "grid":
		return 2
	}
	if f.IsImplicit() || g.IsThreshold() {
		return 3
	}
	if f.Params == nil {
		return 4
	}
	type other struct{ Kind string }
	if (other{}).Kind == "fine" { // not a family
		return 5
	}
	return len(f.Kind) // reading the kind is fine
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "bad.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := check(t, fset, "example.com/bad", []*ast.File{f}, export)
	var lines []string
	for _, d := range got {
		pos, _, _ := strings.Cut(d, ": ")
		lines = append(lines, pos)
	}
	want := []string{"bad.go:6:5", "bad.go:6:25", "bad.go:9:2", "bad.go:13:5", "bad.go:13:23", "bad.go:16:5"}
	if !slices.Equal(lines, want) {
		t.Errorf("found %v, want %v:\n%s", lines, want, strings.Join(got, "\n"))
	}
}
