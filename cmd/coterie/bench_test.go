package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// go test ./cmd/coterie -run '^$' -bench 'DominationSmallest' -benchtime 20x
//
// The whole command `coterie domination FILE --smallest --json` on PG(2,q),
// q = 3..9, read from a JSON file as `coterie generate fpp` writes it.
func BenchmarkDominationSmallest(b *testing.B) {
	dir := b.TempDir()
	for _, q := range []int{3, 4, 5, 7, 8, 9} {
		f, err := construct.ProjectivePlane(q)
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("p%d.json", q))
		if err := writeFile(path, f); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("PG(2,%d)", q), func(b *testing.B) {
			for b.Loop() {
				var out, errs strings.Builder
				if rc := run(context.Background(), []string{"domination", path, "--smallest", "--json"},
					&streams{in: strings.NewReader(""), out: &out, err: &errs}); rc != 0 || !strings.Contains(out.String(), `"smallest": true`) {
					b.Fatalf("exit %d: %s%s", rc, out.String(), errs.String())
				}
			}
		})
	}
}

func writeFile(path string, f *set.Family) error {
	var b strings.Builder
	if err := format.Write(&b, set.System{Family: f}, format.JSON, format.Options{}); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
