package systems

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// ZooKeeperOf answers a family held by its rule (a threshold) or by its
// construction (an implicit family) as it answers the same family listed:
// the same configuration, or the same refusal.
func TestZooKeeperFormsAgreeWithListed(t *testing.T) {
	ctx := context.Background()
	write := func(f *set.Family) (string, error) {
		var b bytes.Buffer
		err := WriteZooKeeper(ctx, &b, f)
		return b.String(), err
	}
	var cases []*set.Family
	for n := 1; n <= 7; n++ {
		for w := 1; w <= n; w++ {
			cases = append(cases, set.NewThreshold(n, w))
		}
	}
	for _, c := range []struct {
		kind   string
		params set.Params
	}{
		{"vote", set.Params{"weights": "2,1,1"}},
		{"vote", set.Params{"weights": "3,2,2,1,1"}},
		{"hqc", set.Params{"levels": "3,3"}},
		{"tree", set.Params{"degree": 2, "height": 1}},
		{"wall", set.Params{"widths": "1,2,3"}},
	} {
		f, err := construct.Implicit(c.kind, c.params)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, f)
	}
	accepted, implicitAccepted := 0, 0
	for _, f := range cases {
		e, err := construct.Explicit(ctx, f, 1<<12)
		if err == nil && e == f {
			e, err = f.Enumerate(1 << 12)
		}
		if err != nil {
			t.Fatal(err)
		}
		a, errA := write(f)
		b, errB := write(e)
		if errors.Is(errA, ErrNotZooKeeper) != errors.Is(errB, ErrNotZooKeeper) || (errA == nil) != (errB == nil) {
			t.Errorf("%v: %v, listed %v", f, errA, errB)
			continue
		}
		if errA == nil {
			accepted++
			if f.Implicit {
				implicitAccepted++
			}
			if a != b {
				t.Errorf("%v: configuration\n%s\nlisted\n%s", f, a, b)
			}
		}
	}
	if accepted < 8 || implicitAccepted == 0 {
		t.Errorf("only %d of the families were written, %d implicit", accepted, implicitAccepted)
	}
}
