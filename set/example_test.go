package set_test

import (
	"fmt"

	"github.com/coterie-dev/coterie/set"
)

// Sets of nodes in the style of math/big, a family of quorums, and the
// packed form the exponential searches run on.
func Example() {
	a, b := set.Of(0, 1, 2), set.Of(2, 3)
	var c set.Set
	c.Intersect(a, b)
	fmt.Println(&c, set.Intersects(a, b), set.IntersectionLen(a, b))

	f := set.NewFamily(4)
	f.Add(a, 0)
	f.Add(b, 3)
	f.Add(set.Of(0, 3), set.NoOwner)
	fmt.Println(f.Degrees())

	// The quorums that avoid node 3, and those that hold node 0.
	p := set.Pack(f.N, f.Quorums)
	if err := p.BuildAvoiders(p.TableBytes()); err != nil {
		fmt.Println(err)
	}
	if err := p.BuildContaining(p.TableBytes()); err != nil {
		fmt.Println(err)
	}
	fmt.Println(p.Avoiders(3).Set(), p.Containing(0).Set(), p.Row(1).AndLen(p.Row(2)))
	// Output:
	// {2} true 1
	// [2 1 2 2]
	// {0} {0 2} 1
}

// The quorums of a threshold family, one at a time: all 2-subsets of 4
// nodes, without building the family's list.
func ExampleFamily_All() {
	for i, q := range set.NewThreshold(4, 2).All() {
		fmt.Printf("%d:%v ", i, q)
	}
	fmt.Println()
	// Output:
	// 0:{0 1} 1:{0 2} 2:{0 3} 3:{1 2} 4:{1 3} 5:{2 3}
}
