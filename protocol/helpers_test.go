package protocol

import (
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// owned builds a coterie over n nodes from 1-based quorums, quorum i owned by
// owners[i] (1-based; 0 for none). A nil owners means no owners.
func owned(n int, owners []int, qs ...[]int) *set.Family {
	f := set.NewFamily(n)
	for i, q := range qs {
		s := set.New(n)
		for _, v := range q {
			s.Add(v - 1)
		}
		o := set.NoOwner
		if owners != nil && owners[i] > 0 {
			o = owners[i] - 1
		}
		f.Add(s, o)
	}
	return f
}

// Maekawa's Fig. 1(b), K = 3: S_1 = {1,2,3}, S_4 = {1,4,5}, ...
func fig1b() *set.Family {
	return owned(7, []int{1, 4, 6, 2, 5, 7, 3},
		[]int{1, 2, 3}, []int{1, 4, 5}, []int{1, 6, 7}, []int{2, 4, 6},
		[]int{2, 5, 7}, []int{3, 4, 7}, []int{3, 5, 6})
}

// Maekawa's Fig. 1(c) (and Fig. 2a), K = 4, N = 13.
func fig1c() *set.Family {
	return owned(13, []int{1, 5, 8, 11, 2, 6, 7, 10, 3, 9, 13, 4, 12},
		[]int{1, 2, 3, 4}, []int{1, 5, 6, 7}, []int{1, 8, 9, 10}, []int{1, 11, 12, 13},
		[]int{2, 5, 8, 11}, []int{2, 6, 9, 12}, []int{2, 7, 10, 13}, []int{3, 5, 10, 12},
		[]int{3, 6, 8, 13}, []int{3, 7, 9, 11}, []int{4, 5, 9, 13}, []int{4, 6, 10, 11},
		[]int{4, 7, 8, 12})
}

// Maekawa's Section 7, Method 1, the degenerated sets for N = 5.
func method1N5() *set.Family {
	return owned(5, []int{1, 2, 3, 4, 5},
		[]int{1, 2, 3}, []int{2, 4}, []int{3, 4, 5}, []int{1, 4, 5}, []int{2, 5})
}

// The triangle {{1,2},{2,3},{1,3}}: a coterie, and not a 2-arbiter.
func triangle(k int) *set.Family {
	f := owned(3, nil, []int{1, 2}, []int{2, 3}, []int{1, 3})
	f.K = k
	return f
}

// pg returns the lines of PG(2,p), p prime, from homogeneous coordinates mod
// p, each point owning a line through it.
func pg(p int) *set.Family {
	return planeOver(p, func(a, b [3]int) bool { return (a[0]*b[0]+a[1]*b[1]+a[2]*b[2])%p == 0 })
}

// planeOver returns the lines of the projective plane over a field of q
// elements 0..q-1 in which point a lies on line b iff on(a, b): points and
// lines are the normalized triples (first non-zero coordinate 1). Each point
// owns a line through it: a perfect matching of the incidence graph, found
// by augmenting paths.
func planeOver(q int, on func(a, b [3]int) bool) *set.Family {
	var pts [][3]int
	for x := range q {
		for y := range q {
			for z := range q {
				v := [3]int{x, y, z}
				first := 0
				for first < 3 && v[first] == 0 {
					first++
				}
				if first < 3 && v[first] == 1 {
					pts = append(pts, v)
				}
			}
		}
	}
	n := len(pts)
	lines := make([][]int, n)
	for l, a := range pts {
		for i, b := range pts {
			if on(b, a) {
				lines[l] = append(lines[l], i)
			}
		}
	}
	match := make([]int, n) // match[l] = the point owning line l
	for i := range match {
		match[i] = -1
	}
	lineOf := make([][]int, n)
	for l, pts := range lines {
		for _, v := range pts {
			lineOf[v] = append(lineOf[v], l)
		}
	}
	var try func(v int, seen []bool) bool
	try = func(v int, seen []bool) bool {
		for _, l := range lineOf[v] {
			if seen[l] {
				continue
			}
			seen[l] = true
			if match[l] < 0 || try(match[l], seen) {
				match[l] = v
				return true
			}
		}
		return false
	}
	for v := range n {
		if !try(v, make([]bool, n)) {
			panic("no perfect matching")
		}
	}
	f := set.NewFamily(n)
	f.Kind = "fpp"
	for l, pts := range lines {
		s := set.New(n)
		for _, v := range pts {
			s.Add(v)
		}
		f.Add(s, match[l])
	}
	return f
}

func system(t testing.TB, f *set.Family) *System {
	t.Helper()
	s, err := NewSystem(set.System{Family: f})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func hkSystem(t testing.TB, a *set.HK) *System {
	t.Helper()
	s, err := NewSystem(set.System{HK: a})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSpec(t testing.TB, name string) Spec {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no protocol %q", name)
	}
	return s
}

// pg16 returns the lines of PG(2,16) (273 points, 17 per line) over GF(16) =
// GF(2)[x]/(x⁴+x+1), owned as pg owns them. It stands in for the fpp
// constructor in the benchmark.
func pg16() *set.Family {
	var exp [30]int
	var log [16]int
	v := 1
	for i := range 15 {
		exp[i], exp[i+15] = v, v
		log[v] = i
		v <<= 1
		if v&16 != 0 {
			v ^= 0b10011
		}
	}
	mul := func(a, b int) int {
		if a == 0 || b == 0 {
			return 0
		}
		return exp[log[a]+log[b]]
	}
	return planeOver(16, func(a, b [3]int) bool {
		return mul(a[0], b[0])^mul(a[1], b[1])^mul(a[2], b[2]) == 0
	})
}
