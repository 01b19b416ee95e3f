package verify

import (
	"fmt"
	"iter"
)

// CriticalPatterns yields the critical conflicting request patterns of
// h-out of-k mutual exclusion (Manabe and Tajima, Definitions 3 and 4): the
// bags of integers in 1..k whose sum is at least k+1 while removing any one
// element leaves a sum of at most k. Since removing the smallest element α
// leaves the largest sum, these are exactly the bags with
// k+1 ≤ Σ ≤ k+α (Theorem 2). Each bag is yielded in increasing order, and
// the bags in lexicographic order; the slice is reused between iterations.
// For k = 4 that is {1 1 1 1 1}, {1 1 1 2}, {1 1 3}, {1 2 2}, {1 4},
// {2 2 2}, {2 3}, {2 4}, {3 3}, {3 4}, {4 4}. It yields nothing if k < 1.
//
// Their number grows like the partitions of k: 11 for k = 4, thousands
// for k = 30.
func CriticalPatterns(k int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		if k < 1 {
			return
		}
		bag := make([]int, 0, k+1)
		// extend appends elements ≥ lo (nondecreasing) to bag, whose first
		// element alpha is the minimum, with running sum sum.
		var extend func(lo, sum, alpha int) bool
		extend = func(lo, sum, alpha int) bool {
			if sum >= k+1 {
				// sum ≤ k+alpha holds by construction.
				return yield(bag)
			}
			for h := lo; h <= k && sum+h <= k+alpha; h++ {
				bag = append(bag, h)
				ok := extend(h, sum+h, alpha)
				bag = bag[:len(bag)-1]
				if !ok {
					return false
				}
			}
			return true
		}
		for alpha := 1; alpha <= k; alpha++ {
			bag = append(bag[:0], alpha)
			if !extend(alpha, alpha, alpha) {
				return
			}
		}
	}
}

// IsCritical reports whether the bag r is a critical conflicting request
// pattern for k, straight from Definition 4: every element lies in 1..k,
// the sum is at least k+1, and removing any one element leaves at most k.
func IsCritical(r []int, k int) bool {
	sum := 0
	for _, h := range r {
		if h < 1 || h > k {
			return false
		}
		sum += h
	}
	if sum < k+1 {
		return false
	}
	for _, h := range r {
		if sum-h >= k+1 {
			return false
		}
	}
	return true
}

// FormatPattern formats a request pattern as the paper writes bags:
// "{1, 1, 1, 2}".
func FormatPattern(r []int) string {
	s := "{"
	for i, h := range r {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(h)
	}
	return s + "}"
}
