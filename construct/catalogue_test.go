package construct

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// minimalLive returns, by brute force over all 2^n subsets, the minimal
// subsets of 0..n−1 on which live (a monotone predicate, given membership)
// holds, as sorted node lists in sorted order.
func minimalLive(n int, live func(in []bool) bool) [][]int {
	in := make([]bool, n)
	var out [][]int
	for mask := 0; mask < 1<<n; mask++ {
		for v := range n {
			in[v] = mask&(1<<v) != 0
		}
		if !live(in) {
			continue
		}
		minimal := true
		for v := 0; v < n && minimal; v++ {
			if in[v] {
				in[v] = false
				minimal = !live(in)
				in[v] = true
			}
		}
		if minimal {
			var q []int
			for v := range n {
				if in[v] {
					q = append(q, v)
				}
			}
			out = append(out, q)
		}
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// sameQuorums fails t unless f lists exactly the quorums want, each once.
func sameQuorums(t *testing.T, f *set.Family, want [][]int) {
	t.Helper()
	got := lineSets(f)
	if !slices.EqualFunc(got, want, func(a, b []int) bool { return slices.Equal(a, b) }) {
		t.Fatalf("%d quorums %v\nwant %d: %v", len(got), got, len(want), want)
	}
	if f.Len() != len(want) {
		t.Fatalf("family lists %d quorums, want %d", f.Len(), len(want))
	}
	checkIntersecting(t, f)
}

// Tree quorums against the recursive predicate of Agrawal and El Abbadi
// read off the definition: a subtree is live when its root is up and some
// child subtree is live, or when every child subtree is live; a leaf is live
// when it is up.
func TestTreeBrute(t *testing.T) {
	for _, dh := range [][2]int{{2, 0}, {2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 1}} {
		d, h := dh[0], dh[1]
		t.Run(fmt.Sprintf("d%d_h%d", d, h), func(t *testing.T) {
			f, err := Tree(d, h)
			if err != nil {
				t.Fatal(err)
			}
			n := TreeNodes(d, h)
			var live func(in []bool, v, depth int) bool
			live = func(in []bool, v, depth int) bool {
				if depth == h {
					return in[v]
				}
				some, all := false, true
				for c := v*d + 1; c <= v*d+d; c++ {
					l := live(in, c, depth+1)
					some = some || l
					all = all && l
				}
				return (in[v] && some) || all
			}
			want := minimalLive(n, func(in []bool) bool { return live(in, 0, 0) })
			sameQuorums(t, f, want)
			if got := TreeCount(d, h); got.Cmp(big.NewInt(int64(len(want)))) != 0 {
				t.Errorf("TreeCount = %v, want %d", got, len(want))
			}
		})
	}
	// Agrawal and El Abbadi: with no failure a quorum is a root-to-leaf
	// path of h+1 nodes, the smallest quorums; 2^(2^h) − 1 quorums for d = 2.
	f, err := Tree(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if st := f.Stats(); st.MinSize != 4 || len(f.Quorums) != 255 {
		t.Errorf("binary tree of height 3: smallest quorum %d, %d quorums; want 4 and 255", st.MinSize, len(f.Quorums))
	}
}

// HQC against "a majority of live subgroups at every level".
func TestHQCBrute(t *testing.T) {
	for _, levels := range [][]int{{3}, {4}, {3, 3}, {2, 3}, {3, 2, 2}, {5, 2}, {1, 3}} {
		t.Run(fmt.Sprint(levels), func(t *testing.T) {
			f, err := HQC(levels)
			if err != nil {
				t.Fatal(err)
			}
			n := 1
			for _, g := range levels {
				n *= g
			}
			var live func(in []bool, level, lo, size int) bool
			live = func(in []bool, level, lo, size int) bool {
				if level == len(levels) {
					return in[lo]
				}
				g := levels[level]
				up := 0
				for c := range g {
					if live(in, level+1, lo+c*size/g, size/g) {
						up++
					}
				}
				return 2*up > g
			}
			want := minimalLive(n, func(in []bool) bool { return live(in, 0, 0, n) })
			sameQuorums(t, f, want)
			if got := HQCCount(levels); got.Cmp(big.NewInt(int64(len(want)))) != 0 {
				t.Errorf("HQCCount = %v, want %d", got, len(want))
			}
		})
	}
	// Kumar: with groups of 3 at every level a quorum has 2^l of the 3^l
	// nodes.
	f, err := HQC([]int{3, 3, 3})
	if err != nil {
		t.Fatal(err)
	}
	if st := f.Stats(); st.MinSize != 8 || st.MaxSize != 8 {
		t.Errorf("hqc 3,3,3: quorum sizes %d..%d, want 8", st.MinSize, st.MaxSize)
	}
}

// wallLive is the crumbling wall's predicate: some row is all up and every
// row below it has a node up.
func wallLive(widths []int) func(in []bool) bool {
	return func(in []bool) bool {
		start := 0
		var full, nonempty []bool
		for _, w := range widths {
			f, ne := true, false
			for v := start; v < start+w; v++ {
				f = f && in[v]
				ne = ne || in[v]
			}
			full, nonempty = append(full, f), append(nonempty, ne)
			start += w
		}
		for i := range widths {
			if full[i] && !slices.Contains(nonempty[i+1:], false) {
				return true
			}
		}
		return false
	}
}

func TestWallBrute(t *testing.T) {
	for _, widths := range [][]int{{1}, {3}, {1, 2}, {1, 2, 3}, {2, 2, 2}, {1, 3, 2, 2}, {4, 5}, {1, 2, 3, 4}} {
		t.Run(fmt.Sprint(widths), func(t *testing.T) {
			f, err := Wall(widths)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, w := range widths {
				n += w
			}
			sameQuorums(t, f, minimalLive(n, wallLive(widths)))
		})
	}
	tri, err := Triangle(4)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := Wall([]int{1, 2, 3, 4})
	if !slices.EqualFunc(lineSets(tri), lineSets(w), slices.Equal) || tri.Kind != "triangle" {
		t.Errorf("triangle 4 is not the wall 1,2,3,4")
	}
	for _, bad := range [][]int{{}, {0}, {2, 1}, {1, 3, 1}} {
		if _, err := Wall(bad); err == nil {
			t.Errorf("Wall(%v) accepted", bad)
		}
	}
}

// The wheel against its definition: the hub and a rim node, or the rim.
func TestWheelBrute(t *testing.T) {
	for n := 3; n <= 9; n++ {
		f, err := Wheel(n)
		if err != nil {
			t.Fatal(err)
		}
		sameQuorums(t, f, minimalLive(n, func(in []bool) bool {
			rim, any := true, false
			for v := 1; v < n; v++ {
				rim = rim && in[v]
				any = any || in[v]
			}
			return rim || (in[0] && any)
		}))
	}
	if _, err := Wheel(2); err == nil {
		t.Error("wheel of 2 nodes accepted")
	}
}

// CWlog: row i holds ⌈lg 2i⌉ nodes, the remainder joins the last row.
func TestCWlogWidths(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want []int
	}{
		{1, []int{1}}, {2, []int{2}}, {3, []int{1, 2}}, {6, []int{1, 2, 3}}, {9, []int{1, 2, 3, 3}},
		{13, []int{1, 2, 3, 3, 4}}, {20, []int{1, 2, 3, 3, 4, 7}}, {21, []int{1, 2, 3, 3, 4, 4, 4}},
	} {
		got := CWlogWidths(tt.n)
		if !slices.Equal(got, tt.want) {
			t.Errorf("CWlogWidths(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
	for n := 1; n <= 500; n++ {
		w := CWlogWidths(n)
		sum := 0
		for _, x := range w {
			sum += x
		}
		if sum != n || w[0] < 1 || slices.Contains(w[1:], 1) {
			t.Fatalf("CWlogWidths(%d) = %v", n, w)
		}
	}
}

func TestCGridBrute(t *testing.T) {
	for _, rc := range [][2]int{{1, 1}, {1, 3}, {3, 1}, {2, 2}, {2, 3}, {3, 3}, {4, 3}, {3, 4}} {
		r, c := rc[0], rc[1]
		t.Run(fmt.Sprint(rc), func(t *testing.T) {
			f, err := CGrid(r, c)
			if err != nil {
				t.Fatal(err)
			}
			sameQuorums(t, f, minimalLive(r*c, func(in []bool) bool {
				someFull, allNonempty := false, true
				for col := range c {
					full, ne := true, false
					for row := range r {
						full = full && in[row*c+col]
						ne = ne || in[row*c+col]
					}
					someFull = someFull || full
					allNonempty = allNonempty && ne
				}
				return someFull && allNonempty
			}))
		})
	}
}

// The B-grid against Naor and Wool's definition read as a predicate: every
// band has a mini-column all up, and some band has a node up in each of its
// mini-columns.
func TestBGridBrute(t *testing.T) {
	for _, p := range [][3]int{{2, 1, 2}, {2, 2, 2}, {3, 2, 2}, {2, 3, 2}, {2, 2, 3}, {3, 1, 3}, {3, 3, 1}, {1, 2, 2}} {
		cols, bands, rows := p[0], p[1], p[2]
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			f, err := BGrid(cols, bands, rows)
			if err != nil {
				t.Fatal(err)
			}
			n := cols * bands * rows
			sameQuorums(t, f, minimalLive(n, func(in []bool) bool {
				everyFull, someCovered := true, false
				for b := range bands {
					full, covered := false, true
					for c := range cols {
						all, any := true, false
						for i := range rows {
							v := (b*rows+i)*cols + c
							all = all && in[v]
							any = any || in[v]
						}
						full = full || all
						covered = covered && any
					}
					everyFull = everyFull && full
					someCovered = someCovered || covered
				}
				return everyFull && someCovered
			}))
			if cols >= 2 && rows >= 2 && f.Len() != int(BGridCount(cols, bands, rows).Int64()) {
				t.Errorf("BGridCount = %v, listed %d", BGridCount(cols, bands, rows), f.Len())
			}
		})
	}
}

// The M-Grid against "t full rows and t full columns".
func TestMGridBrute(t *testing.T) {
	for _, nb := range [][2]int{{4, 0}, {9, 0}, {9, 1}, {16, 1}, {16, 2}, {9, 2}} {
		n, b := nb[0], nb[1]
		t.Run(fmt.Sprint(nb), func(t *testing.T) {
			f, err := MGrid(n, b)
			if n == 9 && b == 2 {
				// 3×3, t = 2: two faulty nodes block two rows, leaving one.
				if err == nil {
					t.Fatal("mgrid n = 9, b = 2 accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, tt := 0, MGridSide(b)
			for s*s < n {
				s++
			}
			sameQuorums(t, f, minimalLive(n, func(in []bool) bool {
				rows, cols := 0, 0
				for i := range s {
					r, c := true, true
					for j := range s {
						r = r && in[i*s+j]
						c = c && in[j*s+i]
					}
					if r {
						rows++
					}
					if c {
						cols++
					}
				}
				return rows >= tt && cols >= tt
			}))
		})
	}
	if _, err := MGrid(10, 0); err == nil {
		t.Error("mgrid over 10 nodes accepted")
	}
}

func TestVoteBrute(t *testing.T) {
	for _, tt := range []struct {
		weights []int
		t       int
	}{
		{[]int{3, 1, 1, 1, 1}, 0}, {[]int{2, 2, 1, 1, 1}, 0}, {[]int{5, 4, 3, 2, 1, 1}, 0},
		{[]int{1, 1, 1, 1, 1, 1}, 5}, {[]int{2, 0, 1, 1, 3, 2, 1}, 6}, {[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0},
		{[]int{1}, 0}, {[]int{0, 4, 0}, 0},
	} {
		t.Run(fmt.Sprint(tt.weights, tt.t), func(t *testing.T) {
			f, err := Vote(tt.weights, tt.t)
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for _, w := range tt.weights {
				total += w
			}
			need := tt.t
			if need == 0 {
				need = total/2 + 1
			}
			want := minimalLive(len(tt.weights), func(in []bool) bool {
				s := 0
				for v, w := range tt.weights {
					if in[v] {
						s += w
					}
				}
				return s >= need
			})
			if f.IsThreshold() {
				var err error
				if f, err = f.Enumerate(1 << 16); err != nil {
					t.Fatal(err)
				}
			}
			sameQuorums(t, f, want)
		})
	}
	// Equal votes are stored symbolically, as majority is.
	f, err := Vote([]int{2, 2, 2, 2, 2, 2, 2}, 0)
	if err != nil || !f.IsThreshold() || f.Threshold != 4 {
		t.Errorf("equal votes: %v, %v", f, err)
	}
	for _, bad := range []struct {
		w []int
		t int
	}{{nil, 0}, {[]int{0, 0}, 0}, {[]int{1, 1, 1, 1}, 2}, {[]int{1, 1}, 3}, {[]int{-1, 2}, 0}} {
		if _, err := Vote(bad.w, bad.t); err == nil {
			t.Errorf("Vote(%v, %d) accepted", bad.w, bad.t)
		}
	}
}

// Malkhi and Reiter, Section 4: the threshold constructions need n ≥ 4b+1
// (masking) and n ≥ 3b+1 (dissemination); below, coterie refuses with the
// bound in the message.
func TestByzantineBounds(t *testing.T) {
	for b := 0; b <= 6; b++ {
		for n := 1; n <= 30; n++ {
			for _, masking := range []bool{true, false} {
				f, err := Byzantine(n, b, masking)
				need := 3*b + 1
				if masking {
					need = 4*b + 1
				}
				if n < need {
					if err == nil || !strings.Contains(err.Error(), fmt.Sprint(need)) {
						t.Fatalf("n = %d, b = %d, masking %v: %v", n, b, masking, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				q := f.Threshold
				inter := 2*q - n
				if masking && inter < 2*b+1 || !masking && inter < b+1 || n-b < q {
					t.Fatalf("n = %d, b = %d, masking %v: quorum size %d", n, b, masking, q)
				}
			}
		}
	}
}

func TestCatalogueRefusesHugeFamilies(t *testing.T) {
	for name, err := range map[string]error{
		"tree":   func() error { _, err := Tree(2, 5); return err }(),
		"wall":   func() error { _, err := Triangle(30); return err }(),
		"cgrid":  func() error { _, err := CGrid(100, 100); return err }(),
		"hqc":    func() error { _, err := HQC([]int{3, 3, 3, 3, 3, 3}); return err }(),
		"vote":   func() error { _, err := Vote(slices.Repeat([]int{1, 2}, 30), 0); return err }(),
		"mgrid":  func() error { _, err := MGrid(10000, 3); return err }(),
		"badhqc": func() error { _, err := HQC(nil); return err }(),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestCatalogueSpecs(t *testing.T) {
	for _, tt := range []struct {
		name string
		vals map[string]any
		ok   bool
	}{
		{"tree", map[string]any{"height": 2}, true},
		{"hqc", map[string]any{"levels": "3,3"}, true},
		{"hqc", map[string]any{"levels": "3,x"}, false},
		{"wall", map[string]any{"widths": "1,2,3"}, true},
		{"wall", map[string]any{"cwlog": true, "n": 20}, true},
		{"wall", map[string]any{"cwlog": true}, false},
		{"wall", map[string]any{"widths": "1,2", "cwlog": true, "n": 3}, false},
		{"wall", map[string]any{}, false},
		{"triangle", map[string]any{"rows": 4}, true},
		{"wheel", map[string]any{"n": 5}, true},
		{"vote", map[string]any{"weights": "3,1,1,1,1"}, true},
		{"vote", map[string]any{"weights": "1,1", "threshold": 1}, false},
		{"cgrid", map[string]any{"rows": 3, "cols": 3}, true},
		{"bgrid", map[string]any{"cols": 2, "bands": 2}, true},
		{"byzantine", map[string]any{"n": 9, "b": 2, "masking": true}, true},
		{"byzantine", map[string]any{"n": 8, "b": 2, "masking": true}, false},
		{"byzantine", map[string]any{"n": 7, "b": 2, "dissemination": true}, true},
		{"byzantine", map[string]any{"n": 7, "b": 2}, false},
		{"byzantine", map[string]any{"n": 9, "b": 2, "masking": true, "dissemination": true}, false},
		{"mgrid", map[string]any{"n": 16, "b": 1}, true},
	} {
		sys, err := build(tt.name, tt.vals)
		if (err == nil) != tt.ok {
			t.Errorf("%s %v: err = %v", tt.name, tt.vals, err)
			continue
		}
		if err == nil {
			if err := sys.Validate(); err != nil || sys.Kind() != tt.name && !(tt.name == "triangle") {
				t.Errorf("%s %v: kind %q, %v", tt.name, tt.vals, sys.Kind(), err)
			}
		}
	}
}

// boostFPP against its predicate: some line of the plane whose every
// point's group has at least 3b+1 nodes up; b = 0 is the plane itself.
func TestBoostFPPBrute(t *testing.T) {
	for _, qb := range [][2]int{{1, 0}, {2, 0}, {1, 1}, {3, 0}} {
		q, b := qb[0], qb[1]
		t.Run(fmt.Sprint(qb), func(t *testing.T) {
			f, err := BoostFPP(q, b)
			if err != nil {
				t.Fatal(err)
			}
			plane, err := ProjectivePlane(q)
			if err != nil {
				t.Fatal(err)
			}
			g := 4*b + 1
			sameQuorums(t, f, minimalLive(plane.N*g, func(in []bool) bool {
				for i := range plane.Quorums {
					ok := true
					for p := range plane.Quorums[i].All() {
						up := 0
						for v := p * g; v < (p+1)*g; v++ {
							if in[v] {
								up++
							}
						}
						ok = ok && up >= 3*b+1
					}
					if ok {
						return true
					}
				}
				return false
			}))
			if b == 0 && !slices.EqualFunc(lineSets(f), lineSets(plane), slices.Equal) {
				t.Errorf("boostFPP with b = 0 is not the plane")
			}
		})
	}
	if _, err := BoostFPP(6, 1); err == nil {
		t.Error("order 6 accepted")
	}
}

func TestParseInts(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []int
		ok   bool
	}{
		{"1,2,3", []int{1, 2, 3}, true},
		{" 1, 2 ,3 ", []int{1, 2, 3}, true},
		{"7", []int{7}, true},
		{"", nil, false},
		{" ", nil, false},
		{"1,,2", nil, false},
		{"1,x", nil, false},
		{"0,1", nil, false},
		{"1,-2", nil, false},
		{"99999999999999999999", nil, false},
	} {
		got, err := ParseInts("test", "list", tt.in, 1)
		if (err == nil) != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("ParseInts(%q) = %v, %v", tt.in, got, err)
		}
	}
}
