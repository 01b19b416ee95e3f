package verify

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// The speed targets, measured with `go test -bench . -run '^$'
// ./verify`: PG(2,64) pairwise < 0.5 s, PG(2,128) < 5 s; the 4-cube
// 3-arbiter with a = 4 < 0.2 s; the 6-cube 5-arbiter with a = 3 < 1 s; the
// 5-cube (h,4)-arbiter with a = 3 over all its critical patterns < 5 s.
// The Brute benchmarks give the ratio where brute force is feasible.

var benchCache = map[string]set.System{}

func benchSystem(b *testing.B, name string, build func() set.System) set.System {
	b.Helper()
	if s, ok := benchCache[name]; ok {
		return s
	}
	s := build()
	benchCache[name] = s
	return s
}

func benchVerify(b *testing.B, sys set.System, m Method) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := Verify(context.Background(), sys, Options{Method: m})
		if err != nil || !r.Valid {
			b.Fatalf("valid %v, err %v", r != nil && r.Valid, err)
		}
	}
}

func pg(b *testing.B, e int) set.System {
	return benchSystem(b, "pg"+string(rune('0'+e)), func() set.System {
		return set.System{Family: testsys.Plane(b, 1<<e)}
	})
}

func BenchmarkPG64(b *testing.B)      { benchVerify(b, pg(b, 6), Search) }
func BenchmarkPG64Brute(b *testing.B) { benchVerify(b, pg(b, 6), Brute) }
func BenchmarkPG128(b *testing.B)     { benchVerify(b, pg(b, 7), Search) }
func BenchmarkPG128Brute(b *testing.B) {
	if testing.Short() {
		b.Skip("about three minutes a run")
	}
	benchVerify(b, pg(b, 7), Brute)
}

func cube(b *testing.B, a, k int) set.System {
	return benchSystem(b, "cube"+string(rune('0'+a))+string(rune('0'+k)), func() set.System {
		return set.System{Family: cubeArbiter(a, k)}
	})
}

func BenchmarkCube4x3(b *testing.B)      { benchVerify(b, cube(b, 4, 3), Search) }
func BenchmarkCube4x3Brute(b *testing.B) { benchVerify(b, cube(b, 4, 3), Brute) }
func BenchmarkCube3x5(b *testing.B)      { benchVerify(b, cube(b, 3, 5), Search) }

func BenchmarkCubeHK3x4(b *testing.B) {
	sys := benchSystem(b, "cubehk34", func() set.System { return set.System{HK: cubeHK(3, 4)} })
	benchVerify(b, sys, Search)
}

// BenchmarkFindDisjointCube4x3 is the search alone on the 4-cube, 4-wise.
func BenchmarkFindDisjointCube4x3(b *testing.B) {
	f := cube(b, 4, 3).Family
	for b.Loop() {
		if w, err := FindDisjoint(context.Background(), f, 4); w != nil || err != nil {
			b.Fatal(w, err)
		}
	}
}
