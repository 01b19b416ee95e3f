package construct_test

import (
	"fmt"

	"github.com/coterie-dev/coterie/construct"
)

func ExampleBilliard() {
	// Agrawal, Eğecioğlu, El Abbadi, Fig. 5: q = 9, N = 40.
	f, _ := construct.Billiard(9)
	fmt.Println(f.N, oneBased(&f.Quorums[10]), oneBased(&f.Quorums[33]))
	// Output: 40 [11 15 16 18 19 21 22 23 26] [3 7 11 15 19 24 29 34 38]
}

func ExampleCubeHK() {
	// The 4-cube (h,3)-arbiter over 3^4 = 81 nodes: quorum sizes by level.
	a, _ := construct.CubeHK(3, 3, 0)
	for _, l := range a.Levels {
		fmt.Printf("h=%d z=%d |q|=%d bound=%d\n", l.H, construct.CubeZ(3, l.H), l.Quorums[0].Len(), construct.CubeBound(3, 3, l.H))
	}
	// Output:
	// h=1 z=1 |q|=65 bound=108
	// h=2 z=1 |q|=65 bound=108
	// h=3 z=2 |q|=21 bound=27
}

func ExampleJoin() {
	// Kuo, Section 4: the 3-subsets of {1,2,3,4} joined at 4 with those
	// of {a,b,c,d}.
	outer, _ := construct.Uniform(4, 2)
	inner, _ := construct.Uniform(4, 2)
	inner.Labels = []string{"a", "b", "c", "d"}
	j, _ := construct.Join(outer, inner, 3, 100)
	fmt.Println(len(j.Quorums), j.Labels, j.Params)
	for i := range 3 {
		var ls []string
		for v := range j.Quorums[i].All() {
			ls = append(ls, j.Label(v))
		}
		fmt.Println(ls)
	}
	// Output:
	// 13 [1 2 3 a b c d] map[at:4 inner_kind:uniform inner_n:4 inner_threshold:3 outer_kind:uniform outer_n:4 outer_threshold:3]
	// [1 2 3]
	// [1 2 a b c]
	// [1 2 a b d]
}
