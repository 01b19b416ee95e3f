package rw

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/expr"
)

// The three ways of counting agree with the quorums listed: a listed side,
// a read-once expression (by formula), and one that is not read-once (by
// listing).
func TestSideCount(t *testing.T) {
	ctx := context.Background()
	for _, src := range []string{"1*2*3 + 4*5*6", "choose(2, 1, 2, 3)", "1*2 + 2*3 + 1*3", "choose(2, 1*2, 2*3, 3*4, 4*1)"} {
		e, err := expr.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if e, err = e.Bind(func(name string) (int, error) {
			var v int
			_, err := fmt.Sscan(name, &v)
			return v - 1, err
		}); err != nil {
			t.Fatal(err)
		}
		s, err := New(6, e, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		for range s.Reads.Expr.MinimalQuorums() {
			listed++
		}
		got, err := s.Reads.Count(ctx)
		if err != nil || got.Cmp(big.NewInt(int64(listed))) != 0 {
			t.Errorf("%s: count %v, %v; %d listed", src, got, err, listed)
		}
		f, err := s.Reads.Family(s.N, 1<<10)
		if err != nil {
			t.Fatal(err)
		}
		s.Reads.List = f
		if got, err := s.Reads.Count(ctx); err != nil || got.Cmp(big.NewInt(int64(listed))) != 0 {
			t.Errorf("%s as a list: count %v, %v; %d listed", src, got, err, listed)
		}
	}
}
