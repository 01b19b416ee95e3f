package domination

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sync"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// pieceTarget is how many pieces the MMCS tree is cut into at least
// (when it has that many nodes near the top): enough for many shards and
// every core of each to stay busy however unevenly the subtrees are sized.
const pieceTarget = 1024

// PieceCount is a count of minimal transversals split into pieces (see
// [CountTransversalPieces]): the pieces counted so far and their sum.
type PieceCount struct {
	// Pieces is how many pieces the search of the family is cut into.
	Pieces int
	// Done lists the pieces counted, in increasing order.
	Done []int
	// BySize maps a size to the number of minimal transversals of that
	// size found in the pieces of Done; sizes with none are absent.
	BySize map[int]*big.Int
}

// Count returns the sum of the pieces as a [TransversalCount] (Partial
// is left false: the caller knows whether every piece is in).
func (pc *PieceCount) Count() *TransversalCount {
	c := &TransversalCount{Total: new(big.Int), BySize: map[int]*big.Int{}, Smallest: -1}
	for size, k := range pc.BySize {
		if k.Sign() == 0 {
			continue
		}
		c.BySize[size] = new(big.Int).Set(k)
		c.Total.Add(c.Total, k)
		if c.Smallest < 0 || size < c.Smallest {
			c.Smallest = size
		}
	}
	return c
}

// splitPieces cuts the MMCS tree of h into subtrees: the top levels are
// expanded, in search order, until there are at least pieceTarget or the
// tree has no more levels. The cut depends on h alone.
func splitPieces(ctx context.Context, h *hyper) ([]mmcsTask, error) {
	tasks := expandTop(ctx, h, newMMCSN(h, mmcsOut{ctx: ctx}), pieceTarget)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return tasks, nil
}

// CountTransversalPieces counts the minimal transversals of f in the
// pieces that owns accepts, adding them to st (nil: start from nothing).
// The MMCS search tree is cut into pieces, numbered 0..Pieces−1 in search
// order, by f alone: the same family is cut the same way on every
// machine, so the sums of disjoint sets of pieces that cover them all add
// up to [CountTransversals]. A threshold family is one piece, counted by
// closed form.
//
// The owned pieces not yet in st.Done are counted on every core; after
// each one save, if not nil, is called with the state (never from two
// goroutines at once), so that a stopped count resumes from it. When ctx
// is cancelled (or save fails) it returns the state so far with the error;
// a piece cut short is not counted.
func CountTransversalPieces(ctx context.Context, f *set.Family, owns func(piece int) bool, st *PieceCount, o Options, save func(*PieceCount) error) (*PieceCount, error) {
	f, err := explicitFamily(ctx, f)
	if err != nil {
		return nil, err
	}
	if err := checkTransversable(f); err != nil {
		return nil, err
	}
	var tasks []mmcsTask
	var h *hyper
	left := int64(0)
	pieces := 1
	w, thr := quorum.ThresholdOf(construct.Form(f))
	if !thr {
		var err error
		if h, left, err = o.packFor(f); err != nil {
			return nil, err
		}
		if tasks, err = splitPieces(ctx, h); err != nil {
			return st, err
		}
		pieces = len(tasks)
	}
	if st == nil {
		st = &PieceCount{Pieces: pieces, BySize: map[int]*big.Int{}}
	}
	if st.Pieces != pieces {
		return nil, fmt.Errorf("domination: the count to resume is cut into %d pieces, this family into %d", st.Pieces, pieces)
	}
	if st.BySize == nil {
		st.BySize = map[int]*big.Int{}
	}
	var todo []int
	for p := range pieces {
		if owns(p) && !slices.Contains(st.Done, p) {
			todo = append(todo, p)
		}
	}
	var mu sync.Mutex
	var firstErr error
	finished := int64(0)
	add := func(p int, counts []uint64) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil {
			return
		}
		for size, k := range counts {
			if k == 0 {
				continue
			}
			if st.BySize[size] == nil {
				st.BySize[size] = new(big.Int)
			}
			st.BySize[size].Add(st.BySize[size], new(big.Int).SetUint64(k))
		}
		i, _ := slices.BinarySearch(st.Done, p)
		st.Done = slices.Insert(st.Done, i, p)
		finished++
		o.Progress.Report("pieces", finished, int64(len(todo)))
		if save != nil {
			if err := save(st); err != nil {
				firstErr = err
			}
		}
	}
	if h == nil {
		if len(todo) == 1 {
			size := f.N - w + 1
			st.BySize[size] = set.Binomial(f.N, size)
			add(0, nil)
		}
		return st, firstErr
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(todo)))
	var next int
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := newEngine(h, mmcsOut{ctx: ctx, maxBytes: left / int64(workers)}, autoEngine)
			out := e.stats()
			for {
				mu.Lock()
				stop := firstErr != nil || next >= len(todo)
				i := next
				next++
				mu.Unlock()
				if stop || ctx.Err() != nil {
					return
				}
				clear(out.counts)
				e.load(tasks[todo[i]].s, tasks[todo[i]].cand)
				e.run()
				if out.err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = out.err
					}
					mu.Unlock()
					return
				}
				add(todo[i], out.counts)
			}
		}()
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return st, firstErr
}

// Check reports whether pc can be the saved count of a family over n
// nodes: pieces done listed once each, within 0..Pieces−1, and sizes
// within 0..n.
func (pc *PieceCount) Check(n int) error {
	done := slices.Clone(pc.Done)
	slices.Sort(done)
	if len(slices.Compact(slices.Clone(done))) != len(done) || len(done) > 0 && (done[0] < 0 || done[len(done)-1] >= pc.Pieces) {
		return errors.New("bad list of pieces done")
	}
	for size, k := range pc.BySize {
		if size < 0 || size > n || k == nil || k.Sign() < 0 {
			return fmt.Errorf("size %d is not 0..%d", size, n)
		}
	}
	return nil
}

// ShardCount is what one shard of a split count found (see
// [CountTransversalPieces]): how many pieces the search is cut into, how
// many of the shard's own it counted, and the minimal transversals in
// them by size.
type ShardCount struct {
	Pieces, PiecesDone int
	BySize             map[int]*big.Int
}

// Share returns the shard's count that pc is.
func (pc *PieceCount) Share() *ShardCount {
	return &ShardCount{Pieces: pc.Pieces, PiecesDone: len(pc.Done), BySize: pc.BySize}
}

// MergeShardCounts adds up the counts of the N shards of one split, given
// in shard order: every shard must have counted all the pieces it owns,
// of the same cut. The sum is [CountTransversals] of the family. A set of
// counts that does not make a whole is refused with a
// *[shard.MergeError].
func MergeShardCounts(parts []*ShardCount) (*TransversalCount, error) {
	if len(parts) == 0 {
		return nil, &shard.MergeError{Msg: "no counts"}
	}
	n := len(parts)
	first := parts[0]
	sum := &PieceCount{Pieces: first.Pieces, BySize: map[int]*big.Int{}}
	done := 0
	for i, pc := range parts {
		sp := shard.Spec{Index: i + 1, Count: n}
		if pc.Pieces != first.Pieces {
			return nil, &shard.MergeError{Shard: sp, Msg: fmt.Sprintf("shard %s cut the search into %d pieces, shard %s into %d", sp, pc.Pieces, shard.Spec{Index: 1, Count: n}, first.Pieces)}
		}
		if owned := sp.Owned(pc.Pieces); pc.PiecesDone != owned {
			return nil, &shard.MergeError{Shard: sp, Msg: fmt.Sprintf("shard %s counted %d of its %d pieces", sp, pc.PiecesDone, owned)}
		}
		done += pc.PiecesDone
		for size, k := range pc.BySize {
			if sum.BySize[size] == nil {
				sum.BySize[size] = new(big.Int)
			}
			sum.BySize[size].Add(sum.BySize[size], k)
		}
	}
	if done != first.Pieces {
		return nil, &shard.MergeError{Msg: fmt.Sprintf("the shards counted %d of %d pieces", done, first.Pieces)}
	}
	return sum.Count(), nil
}
