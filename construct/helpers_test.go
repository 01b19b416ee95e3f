package construct

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// readFig reads a system of the repository's testdata (the papers'
// examples) in the contract's text format, with the quorums in the file's
// order and the owners of its "# owner:" comments.
func readFig(t testing.TB, name string) *set.Family {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	sys, err := format.ReadBytes(data, format.Text, format.DefaultOptions())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return sys.Family
}

// checkIntersecting fails t unless every two quorums of f meet.
func checkIntersecting(t testing.TB, f *set.Family) {
	t.Helper()
	for i := range f.Quorums {
		for j := i + 1; j < len(f.Quorums); j++ {
			if !set.Intersects(&f.Quorums[i], &f.Quorums[j]) {
				t.Fatalf("quorums %d %v and %d %v are disjoint", i+1, &f.Quorums[i], j+1, &f.Quorums[j])
			}
		}
	}
}

// checkOwned fails t unless quorum i is owned by node i and contains it, for
// every node (Maekawa's property (b), in canonical order).
func checkOwned(t testing.TB, f *set.Family) {
	t.Helper()
	if len(f.Quorums) != f.N || len(f.Owners) != f.N {
		t.Fatalf("%d quorums and %d owners for %d nodes", len(f.Quorums), len(f.Owners), f.N)
	}
	for i, o := range f.Owners {
		if o != i || !f.Quorums[i].Has(i) {
			t.Fatalf("quorum %d %v is owned by %d", i+1, &f.Quorums[i], o+1)
		}
	}
}

// checkPlane fails t unless f is a projective plane of order q: q²+q+1
// points and lines, every line with q+1 points, any two lines meeting in
// exactly one point, any two points on exactly one line.
func checkPlane(t testing.TB, f *set.Family, q int) {
	t.Helper()
	n := q*q + q + 1
	if f.N != n || len(f.Quorums) != n {
		t.Fatalf("%d points and %d lines, want %d of each", f.N, len(f.Quorums), n)
	}
	for i := range f.Quorums {
		if got := f.Quorums[i].Len(); got != q+1 {
			t.Fatalf("line %d %v has %d points, want %d", i+1, &f.Quorums[i], got, q+1)
		}
		for j := i + 1; j < n; j++ {
			if got := set.IntersectionLen(&f.Quorums[i], &f.Quorums[j]); got != 1 {
				t.Fatalf("lines %d and %d meet in %d points", i+1, j+1, got)
			}
		}
	}
	lines := make([]int, n*n) // lines through each pair of points
	for i := range f.Quorums {
		pts := f.Quorums[i].Elements()
		for a, x := range pts {
			for _, y := range pts[a+1:] {
				lines[x*n+y]++
			}
		}
	}
	for x := range n {
		for y := x + 1; y < n; y++ {
			if lines[x*n+y] != 1 {
				t.Fatalf("points %d and %d lie on %d lines", x+1, y+1, lines[x*n+y])
			}
		}
	}
}

// lineSets returns the quorums of f as sorted node lists, sorted.
func lineSets(f *set.Family) [][]int {
	var out [][]int
	for i := range f.Quorums {
		out = append(out, f.Quorums[i].Elements())
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// totalSize returns the sum of the quorum sizes of f.
func totalSize(f *set.Family) int {
	s := 0
	for i := range f.Quorums {
		s += f.Quorums[i].Len()
	}
	return s
}

// checkParamError fails t unless err is a *ParamError for param whose
// message contains want.
func checkParamError(t *testing.T, err error, param, want string) {
	t.Helper()
	var pe *ParamError
	if !errors.As(err, &pe) {
		t.Errorf("error %v (%T), want a *ParamError for %s", err, err, param)
		return
	}
	if pe.Param != param || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q for parameter %q, want %q for %q", err, pe.Param, want, param)
	}
}
