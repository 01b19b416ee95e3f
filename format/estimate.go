package format

import (
	"iter"
	"math"
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// EstimateSample is how many quorums the size estimates format.
const EstimateSample = 1000

// EstimateThreshold estimates the size in bytes of the threshold family fam
// listed in format f: the number of quorums times the size of a quorum of
// evenly spread nodes, whose digits are those of an average quorum (every
// node is in equally many). Beyond int64 it is math.MaxInt64.
func EstimateThreshold(fam *set.Family, f Format) int64 {
	count := fam.Count()
	w := fam.Threshold
	q := set.New(fam.N)
	for i := range w {
		q.Add(i * fam.N / w)
	}
	one := &set.Family{N: fam.N, K: fam.K}
	one.Add(q, set.NoOwner)
	var cw countWriter
	sw, err := NewWriter(&cw, f, one, Options{Base: 1})
	if err != nil {
		return 0
	}
	sw.Flush()
	head := cw.n
	sw.Quorum(q, set.NoOwner)
	sw.Flush()
	per := cw.n - head
	if f == CSV { // each row repeats the quorum's number
		per += int64(w) * int64(len(count.String())-1)
	}
	est := new(big.Int).Mul(count, big.NewInt(per))
	est.Add(est, big.NewInt(head))
	if !est.IsInt64() {
		return math.MaxInt64
	}
	return est.Int64()
}

// EstimateFamily estimates the size in bytes of fam written in format f by
// formatting its first [EstimateSample] quorums and scaling by their
// number. A threshold family is written as one, and measured exactly.
func EstimateFamily(fam *set.Family, f Format, opt Options) (int64, error) {
	var cw countWriter
	sw, err := NewWriter(&cw, f, fam, opt)
	if err != nil || fam.IsThreshold() {
		return cw.n, err
	}
	if err := sw.Flush(); err != nil {
		return 0, err
	}
	head := cw.n
	m := len(fam.Quorums)
	k := min(m, EstimateSample)
	for i := range k {
		if err := sw.Quorum(&fam.Quorums[i], fam.Owner(i)); err != nil {
			return 0, err
		}
	}
	if err := sw.Flush(); err != nil {
		return 0, err
	}
	if k == 0 {
		return cw.n, nil
	}
	return head + int64(float64(cw.n-head)/float64(k)*float64(m)), nil
}

// EstimateStream estimates the size in bytes of a streamed system, meta
// and its quorums, written in format f, by formatting its first
// [EstimateSample] quorums: a streamed construction has one quorum per
// node (construct.Spec.Stream), so the rest is scaled by meta.N. exact is
// true when the stream ended within the sample.
func EstimateStream(meta *set.Family, quorums iter.Seq2[*set.Set, int], f Format, opt Options) (size int64, exact bool, err error) {
	n := meta.N
	var cw countWriter
	sw, err := NewWriter(&cw, f, meta, opt)
	if err == nil {
		err = sw.Flush()
	}
	if err != nil {
		return 0, false, err
	}
	head := cw.n
	count := 0
	for q, owner := range quorums {
		if count == EstimateSample {
			if err := sw.Flush(); err != nil {
				return 0, false, err
			}
			per := float64(cw.n-head) / float64(count)
			est := float64(head) + per*float64(max(n, count))
			if est > math.MaxInt64/2 {
				est = math.MaxInt64 / 2
			}
			return int64(est), false, nil
		}
		count++
		if err := sw.Quorum(q, owner); err != nil {
			return 0, false, err
		}
	}
	if err := sw.Close(); err != nil {
		return 0, false, err
	}
	return cw.n, true, nil
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
