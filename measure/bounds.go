package measure

import (
	"context"
	"errors"
	"math"
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// boundRounds is the number of rounds of the game LoadBounds plays: a
// count of work, so the bounds are the same on every machine.
const boundRounds = 4000

// LoadBounds returns proved bounds lower ≤ L ≤ upper on the load of the
// explicit family f, without a linear program, in work proportional to
// boundRounds × the total size of the quorums.
//
// The load is the value of a game in which one player picks a quorum and
// the other a node, paid when the node is in the quorum. Multiplicative
// weights play it: the node player's distribution y grows on the nodes of
// each quorum the other picks, and the quorum player answers each y with
// its lightest quorum. Every y proves L ≥ min_Q y(Q) (weak LP duality: any
// strategy's busiest node carries at least the average that y gives it),
// and the picks, counted, form a strategy whose busiest node proves the
// upper bound. Both are evaluated exactly, in rationals. strategy is that
// strategy, as integer counts over the rounds.
func LoadBounds(ctx context.Context, f *set.Family) (lower, upper *big.Rat, err error) {
	if f, err = explicitFamily(ctx, f); err != nil {
		return nil, nil, err
	}
	if t, ok := construct.Form(f).(quorum.Thresholder); ok {
		// Every node is in the same share of the w-subsets: w/n exactly.
		l := big.NewRat(int64(t.Threshold()), int64(f.N))
		return l, new(big.Rat).Set(l), nil
	}
	if len(f.Quorums) == 0 {
		return nil, nil, errors.New("measure: load bounds of a family without quorums")
	}
	lower, upper, _, err = loadBounds(ctx, f)
	return lower, upper, err
}

func loadBounds(ctx context.Context, f *set.Family) (lower, upper *big.Rat, picks []int64, err error) {
	n, m := f.N, len(f.Quorums)
	members := make([][]int, m)
	for i := range f.Quorums {
		members[i] = f.Quorums[i].Elements()
	}
	y := make([]float64, n)
	for x := range y {
		y[x] = 1
	}
	picks = make([]int64, m)
	bestY := make([]float64, n)
	best := -1.0
	// The step: the game's values are 0 or 1, the load about c/n; a step
	// near the load's scale converges fastest in practice.
	eta := math.Sqrt(math.Log(float64(n)+1) / boundRounds)
	for r := range boundRounds {
		if r%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
		}
		total := 0.0
		for _, v := range y {
			total += v
		}
		q, qw := -1, math.Inf(1)
		for i, mem := range members {
			s := 0.0
			for _, x := range mem {
				s += y[x]
			}
			if s < qw {
				q, qw = i, s
			}
		}
		if v := qw / total; v > best {
			best = v
			for x := range y {
				bestY[x] = y[x] / total
			}
		}
		picks[q]++
		grow := math.Exp(eta)
		for _, x := range members[q] {
			y[x] *= grow
		}
		// Keep the weights in range.
		if y[members[q][0]] > 1e100 {
			for x := range y {
				y[x] /= 1e100
			}
		}
	}
	// Upper: the busiest node under the counted strategy, exactly.
	hits := make([]int64, n)
	for q, c := range picks {
		for _, x := range members[q] {
			hits[x] += c
		}
	}
	most := int64(0)
	for _, h := range hits {
		most = max(most, h)
	}
	upper = big.NewRat(most, boundRounds)
	// Lower: the best y, rounded down to integers over a common
	// denominator (their sum), evaluated exactly.
	ints := make([]int64, n)
	sum := int64(0)
	for x, v := range bestY {
		ints[x] = int64(v * (1 << 30))
		sum += ints[x]
	}
	lower = new(big.Rat)
	if sum > 0 {
		least := int64(-1)
		for _, mem := range members {
			s := int64(0)
			for _, x := range mem {
				s += ints[x]
			}
			if least < 0 || s < least {
				least = s
			}
		}
		lower.SetFrac64(least, sum)
	}
	return lower, upper, picks, nil
}

// boundedLoad is LoadOf's answer when the LP is beyond its work limit:
// the bounds of LoadBounds, and the strategy that reaches the upper one.
func boundedLoad(ctx context.Context, f *set.Family) (*Load, error) {
	lower, upper, picks, err := loadBounds(ctx, f)
	if err != nil {
		return nil, err
	}
	l := &Load{Method: MethodBounds, Lower: lower, Upper: upper}
	l.Value, _ = upper.Float64()
	net := new(big.Rat)
	for q, c := range picks {
		if c == 0 {
			continue
		}
		w := big.NewRat(c, boundRounds)
		wf, _ := w.Float64()
		l.Strategy = append(l.Strategy, Weight{Quorum: q, W: wf, Exact: w})
		net.Add(net, new(big.Rat).Mul(w, big.NewRat(int64(f.Quorums[q].Len()), 1)))
	}
	l.NetworkLoadExact = net
	l.NetworkLoad, _ = net.Float64()
	return l, nil
}
