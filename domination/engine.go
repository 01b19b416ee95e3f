package domination

import (
	"context"
	"encoding/binary"
	"errors"

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

// mmcsRaceWork is the work, in word operations, that the MMCS engine may
// spend before [Decide] leaves the question to the SAT solver: about a
// second. It is counted, not timed, so that the answer (and the witness)
// is the same on every machine.
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
		return race(ctx, func(ctx context.Context) (*set.Set, error) {
			return mmcsWitness(ctx, f, h, max(1, mmcsRaceWork/uint64(h.mw*h.n)))
		}, sat)
	case use&useMMCS != 0:
		return mmcsWitness(ctx, f, newHyper(f), 0)
	}
	return sat(ctx)
}

// race runs the MMCS engine (under its work limit) and the SAT solver at
// once, and returns the answer whose witness does not depend on timing:
//
//   - MMCS's answer whenever it finishes within its limit (the first witness
//     in its fixed order, or "nondominated");
//   - "nondominated" as soon as the solver proves it (no witness to choose);
//   - otherwise the solver's answer, once MMCS has used up its limit.
//
// The loser is cancelled. On two cores a nondominated family that MMCS
// would have to list in full costs the solver's time, and a dominated one
// MMCS finds early costs MMCS's.
func race(ctx context.Context, mmcs, sat func(context.Context) (*set.Set, error)) (*set.Set, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		h   *set.Set
		err error
	}
	mc, sc := make(chan answer, 1), make(chan answer, 1)
	go func() { h, err := mmcs(ctx); mc <- answer{h, err} }()
	go func() { h, err := sat(ctx); sc <- answer{h, err} }()
	var satAnswer *answer
	mmcsOut := false
	for {
		select {
		case a := <-mc:
			if !errors.Is(a.err, ErrWorkLimit) {
				return a.h, a.err
			}
			mmcsOut, mc = true, nil
			if satAnswer != nil {
				return satAnswer.h, satAnswer.err
			}
		case a := <-sc:
			if a.err == nil && a.h == nil {
				return nil, nil
			}
			if mmcsOut {
				return a.h, a.err
			}
			satAnswer, sc = &a, nil
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
// minimal for k = 1. limit, if not 0, bounds the search nodes
// (ErrWorkLimit past it).
func mmcsWitness(ctx context.Context, f *set.Family, h *hyper, limit uint64) (*set.Set, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
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
	t := make([]uint64, h.nw)
	var found *set.Set
	var ferr error
	visit := func(s []int) bool {
		clear(t)
		for _, v := range s {
			setBit(t, v)
		}
		for j, x := range t {
			binary.LittleEndian.PutUint64(key[8*j:], x)
		}
		if _, isQuorum := quorums[string(key)]; isQuorum {
			return true
		}
		// Not a quorum: it must still contain none (f may not be a coterie).
		for e := range h.m {
			if subsetWords(h.edge(e), t) {
				return true
			}
		}
		hs := toSet(t, h.n)
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
	out := mmcsOut{ctx: ctx, visit: visit, limit: limit}
	e := newEngine(h, out, autoEngine)
	root := make([]uint64, h.nw)
	fill(root, h.n)
	e.load(nil, root)
	e.run()
	if ferr != nil {
		return nil, ferr
	}
	if found != nil {
		return found, nil
	}
	return nil, e.stats().err
}

func subsetWords(a, b []uint64) bool {
	for j, x := range a {
		if x&^b[j] != 0 {
			return false
		}
	}
	return true
}
