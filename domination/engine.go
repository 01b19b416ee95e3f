package domination

import (
	"context"
	"encoding/binary"
	"errors"
	"sync"

	"github.com/coterie-dev/coterie/set"
)

// engines selects the ways [Decide] may answer, for tests that compare
// them; Decide itself uses them all.
type engines uint8

const (
	// useStructure: recognise a family of all w-subsets of its support.
	useStructure engines = 1 << iota
	// useUpset: the table of every subset, for a support of at most
	// maxUpsetNodes nodes (k = 1).
	useUpset
	// useMMCS: minimal transversals with early exit, under a work limit.
	useMMCS
	// useSAT: the SAT solver.
	useSAT
	allEngines = useStructure | useUpset | useMMCS | useSAT
)

// ErrWorkLimit is returned (wrapped) by a search that used up its work
// limit, a count of search nodes: the same on every machine.
var ErrWorkLimit = errors.New("domination: work limit reached")

// mmcsRaceWork is the work, in word operations, within which a witness
// found by the MMCS engine is the one [Decide] reports (about a second);
// past it the solver's is. It is counted, not timed, so that the witness is
// the same on every machine.
const mmcsRaceWork = 1 << 30

// witnessSearch returns a witness of f (not necessarily minimal), or nil
// if f is nondominated, with the engines in use: for k = 1 the table of
// subsets when the support is small, otherwise MMCS and the SAT solver side
// by side (see race).
func witnessSearch(ctx context.Context, f *set.Family, use engines) (*set.Set, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.K == 1 && use&useUpset != 0 {
		if sup := support(f); len(sup) <= maxUpsetNodes {
			u, err := newUpset(ctx, f, sup)
			if err != nil {
				return nil, err
			}
			return u.witness(ctx, f.N, false)
		}
	}
	sat := func(ctx context.Context) (*set.Set, error) {
		if f.K == 1 {
			return colour(ctx, f)
		}
		return lazyArbiter(ctx, f, nil)
	}
	switch {
	case use&useMMCS != 0 && use&useSAT != 0:
		h := newHyper(f)
		return race(ctx, f, h, max(1, mmcsRaceWork/uint64(h.mw*h.n)), sat)
	case use&useMMCS != 0:
		w, _, err := mmcsWitness(ctx, f, newHyper(f), 0, nil, nil)
		return w, err
	}
	return sat(ctx)
}

// race runs the MMCS engine and the SAT solver at once and returns an
// answer that does not depend on timing:
//
//   - "nondominated" as soon as either proves it (no witness to choose);
//   - MMCS's witness if it finds one within limit search nodes (the first
//     in its fixed order);
//   - otherwise the solver's witness.
//
// So a solver's witness waits until MMCS has passed its limit (or found a
// late one). MMCS is not stopped at the limit: a nondominated family whose
// minimal transversals it lists in full (they are the quorums) is often
// its fast case and the solver's slow one. The loser is cancelled, and
// race returns once it has stopped.
//
// The solver starts only once MMCS has passed a 64th of its limit (or its
// limit): most families are decided by MMCS before that, and the solver's
// first step, gophersat's parsing of the clauses, takes no context, so a
// solver started at once would make race wait for a parse whose answer
// it no longer needs. Which answer race returns does not change: a
// solver's witness waits for the limit anyway, and a "nondominated" from
// either is the same verdict.
func race(ctx context.Context, f *set.Family, h *hyper, limit uint64, sat func(context.Context) (*set.Set, error)) (*set.Set, error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	type answer struct {
		h    *set.Set
		late bool // MMCS: found after the limit
		err  error
	}
	passed := make(chan struct{})
	start := make(chan struct{})
	var once sync.Once
	begin := func() { once.Do(func() { close(start) }) }
	mc, sc := make(chan answer, 1), make(chan answer, 1)
	wg.Add(2)
	go func() {
		defer wg.Done()
		w, late, err := mmcsWitness(ctx, f, h, limit, func() { begin(); close(passed) }, begin)
		mc <- answer{w, late, err}
	}()
	go func() {
		defer wg.Done()
		select {
		case <-start: // started, even if cancelled since
		default:
			select {
			case <-start:
			case <-ctx.Done():
				sc <- answer{err: ctx.Err()}
				return
			}
		}
		w, err := sat(ctx)
		sc <- answer{h: w, err: err}
	}()
	var satAnswer, lateMMCS *answer
	var satErr error
	mmcsPassed := false
	for {
		select {
		case <-passed:
			mmcsPassed, passed = true, nil
			if satAnswer != nil {
				return satAnswer.h, nil
			}
		case a := <-mc:
			mc = nil
			switch {
			case a.err != nil || a.h == nil || !a.late:
				return a.h, a.err
			case satAnswer != nil:
				return satAnswer.h, nil
			case satErr != nil:
				return a.h, nil // the solver failed: MMCS's witness will do
			}
			lateMMCS = &a
		case a := <-sc:
			sc = nil
			switch {
			case a.err != nil:
				if ctx.Err() != nil {
					return nil, a.err
				}
				if lateMMCS != nil {
					return lateMMCS.h, nil
				}
				satErr = a.err // MMCS decides alone
				if mc == nil {
					return nil, a.err
				}
				continue
			case a.h == nil:
				return nil, nil
			case mmcsPassed || lateMMCS != nil:
				return a.h, nil
			}
			satAnswer = &a
		}
	}
}

// mmcsWitness looks for a minimal transversal T of f such that H = T
// (k = 1) or H = V∖T (k > 1) is a witness, stopping at the first:
//
//   - k = 1: a minimal transversal that contains no quorum. In a coterie
//     every quorum meets every other, so a minimal transversal that
//     contains a quorum is that quorum; the others are the witnesses, and f
//     is nondominated iff its minimal transversals are its quorums.
//   - k > 1: P1 says H contains no quorum and P2 only gets easier as H
//     grows, so some witness is a maximal set with no quorum, the
//     complement of a minimal transversal; each is checked for P2.
//
// The first witness in MMCS's fixed order is returned; T itself is already
// minimal for k = 1. With limit not 0, passed is called once as the
// search passes limit nodes, and late reports a witness found after that;
// early, if not nil, is called once as it passes a 64th of limit.
func mmcsWitness(ctx context.Context, f *set.Family, h *hyper, limit uint64, passed, early func()) (w *set.Set, late bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	quorums := make(map[string]struct{}, h.m)
	key := make([]byte, 8*h.nw)
	keyOf := func(a []uint64) string {
		for j, x := range a {
			binary.LittleEndian.PutUint64(key[8*j:], x)
		}
		return string(key) // copied; used only for inserts
	}
	for e := range h.m {
		quorums[keyOf(h.edge(e))] = struct{}{}
	}
	t := make(set.Words, h.nw)
	var found *set.Set
	var ferr error
	visit := func(s []int) bool {
		clear(t)
		for _, v := range s {
			t.Add(v)
		}
		for j, x := range t {
			binary.LittleEndian.PutUint64(key[8*j:], x)
		}
		if _, isQuorum := quorums[string(key)]; isQuorum {
			return true
		}
		// Not a quorum: it must still contain none (f may not be a coterie).
		for e := range h.m {
			if h.edge(e).SubsetOf(t) {
				return true
			}
		}
		hs := t.Set()
		if f.K == 1 {
			found = hs
			return false
		}
		hs.Complement(hs, f.N)
		ks, err := missedIntersection(ctx, f, hs)
		if err != nil {
			ferr = err
			return false
		}
		if ks == nil {
			found = hs
			return false
		}
		return true
	}
	out := mmcsOut{ctx: ctx, visit: visit, limit: limit, onLimit: passed}
	if early != nil {
		out.early, out.onEarly = max(1, limit/64), early
	}
	e := newEngine(h, out, autoEngine)
	root := make(set.Words, h.nw)
	root.Fill(h.n)
	e.load(nil, root)
	e.run()
	if ferr != nil {
		return nil, false, ferr
	}
	st := e.stats()
	if found != nil {
		return found, limit != 0 && st.nodes >= limit, nil
	}
	return nil, false, st.err
}
