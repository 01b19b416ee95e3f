package jsonreport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"reflect"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// roundTrip marshals v, reads the JSON back into a new value of v's type
// and marshals that again: a reader of the report gets every field the
// command wrote, and writing it again gives the same bytes. It returns
// the value read back.
func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back T
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields() // every field written has a home in the type
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("reading back %s: %v", b, err)
	}
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, again) {
		t.Errorf("written again differently:\n%s\n%s", b, again)
	}
	return back
}

func fano(t *testing.T) *set.Family {
	t.Helper()
	f, err := construct.ProjectivePlane(2)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The Fano plane, measured by the library and read back from its report:
// 7 lines of 3 points, every point on 3 lines; the load is 3/7 (Naor and
// Wool: a projective plane of order q has load (q+1)/(q²+q+1)), the
// resilience 2 (failing a whole line stops every quorum), and any two
// lines meet, so b-masking needs b = 0.
func TestInfoFano(t *testing.T) {
	ctx := context.Background()
	res, err := analysis.Measure(ctx, set.System{Family: fano(t)}, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.MeasureAvailability(ctx, analysis.Options{Points: []float64{0.9}}); err != nil {
		t.Fatal(err)
	}
	rep := jsonreport.FromInfo(res, jsonreport.InfoOptions{Strategy: true})
	back := roundTrip(t, rep)

	if back.N != 7 || back.K != 1 || back.Family == nil || len(back.Levels) != 0 {
		t.Fatalf("n %d, k %d, family %v, levels %d", back.N, back.K, back.Family != nil, len(back.Levels))
	}
	fi := back.Family
	if fi.Quorums.V.Int64() != 7 {
		t.Errorf("quorums %s, want 7", fi.Quorums)
	}
	for name, s := range map[string]jsonreport.Spread{"quorum size": fi.QuorumSize, "degree": fi.Degree} {
		if s.Min.V.Int64() != 3 || s.Max.V.Int64() != 3 || s.Mean.R.Cmp(big.NewRat(3, 1)) != 0 {
			t.Errorf("%s: %s..%s, mean %s; want 3 each", name, s.Min, s.Max, s.Mean.R.RatString())
		}
	}
	if !fi.Maekawa.EqualSize || !fi.Maekawa.EqualResponsibility {
		t.Errorf("Maekawa's (c) and (d): %+v, want both", fi.Maekawa)
	}
	if fi.LoadExact != "3/7" || fi.CapacityExact != "7/3" || fi.Load == nil || *fi.Load != 3.0/7 {
		t.Errorf("load %v = %s, capacity %s; want 3/7 and 7/3", fi.Load, fi.LoadExact, fi.CapacityExact)
	}
	// The optimal strategy's weights add up to 1.
	sum := new(big.Rat)
	for _, e := range fi.Strategy {
		w, ok := new(big.Rat).SetString(e.Exact)
		if !ok || e.Quorum < 1 || e.Quorum > 7 {
			t.Fatalf("strategy entry %+v", e)
		}
		sum.Add(sum, w)
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("strategy weights add up to %s", sum.RatString())
	}
	if fi.Resilience == nil || *fi.Resilience != 2 || len(fi.ResilienceWitness) != 3 {
		t.Errorf("resilience %v, witness %v; want 2 and a line of 3 points", fi.Resilience, fi.ResilienceWitness)
	}
	if fi.ByzantineBMax == nil || *fi.ByzantineBMax != 0 {
		t.Errorf("byzantine_b_max %v, want 0", fi.ByzantineBMax)
	}
	// Messages under light demand: 3·(3 − 1) = 6 (Maekawa).
	if fi.MessagesPerEntry != 6 {
		t.Errorf("messages per entry %v, want 6", fi.MessagesPerEntry)
	}
	if len(fi.Availability) != 1 || fi.Availability[0].P != 0.9 || !fi.Availability[0].Exact {
		t.Fatalf("availability %+v", fi.Availability)
	}
	// Brute force over the 2^7 sets of live nodes.
	want := 0.0
	f := fano(t)
	for live := range 1 << 7 {
		s := set.New(7)
		k := 0
		for v := range 7 {
			if live>>v&1 == 1 {
				s.Add(v)
				k++
			}
		}
		for i := range f.Quorums {
			if set.Subset(&f.Quorums[i], s) {
				want += pow(0.9, k) * pow(0.1, 7-k)
				break
			}
		}
	}
	if got := fi.Availability[0].Availability; got-want > 1e-12 || want-got > 1e-12 {
		t.Errorf("AV(0.9) = %v, brute force %v", got, want)
	}
}

func pow(x float64, k int) float64 {
	r := 1.0
	for range k {
		r *= x
	}
	return r
}

// The verify report of the Fano plane: valid, and the projective-plane
// property (every two lines meet in exactly one point) holds; a pair of
// disjoint quorums fails intersection with 1-based positions.
func TestVerifyFano(t *testing.T) {
	ctx := context.Background()
	r, err := verify.Verify(ctx, set.System{Family: fano(t)}, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, jsonreport.FromVerify(r))
	if !back.Valid || back.N != 7 || back.Quorums != float64(7) {
		t.Errorf("valid %v, n %d, quorums %v", back.Valid, back.N, back.Quorums)
	}
	checks := map[string]jsonreport.Check{}
	for _, c := range back.Checks {
		checks[c.Name] = c
	}
	if c, ok := checks["projective_plane"]; !ok || !c.OK {
		t.Errorf("projective_plane: %+v", c)
	}

	bad := &set.Family{N: 4, K: 1, Quorums: []set.Set{*set.Of(0, 1), *set.Of(2, 3)}}
	r, err = verify.Verify(ctx, set.System{Family: bad}, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	back = roundTrip(t, jsonreport.FromVerify(r))
	if back.Valid {
		t.Fatal("two disjoint quorums verified")
	}
	for _, c := range back.Checks {
		if c.Name == "intersection" {
			if c.OK || c.Witness == nil || !reflect.DeepEqual(c.Witness.Quorums, []int{1, 2}) {
				t.Errorf("intersection: %+v, witness %+v; want quorums 1 and 2", c, c.Witness)
			}
		}
	}
}

// The availability report of the majority of 3 at p = 0.9: AV = 0.972
// (p³ + 3p²(1 − p)), 1 − AV = 0.028, and the coefficients 0, 0, 3, 1.
func TestAvailabilityMajority(t *testing.T) {
	ctx := context.Background()
	r, err := availability.Compute(ctx, set.NewThreshold(3, 2), availability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pts, err := r.Evaluate(ctx, []float64{0.9}, availability.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sys := jsonreport.AvailabilitySystem{Name: "maj3", N: 3, K: 1, Families: []jsonreport.AvailabilityResult{{Result: r, Points: pts}}}
	rep, ok := jsonreport.FromAvailability([]jsonreport.AvailabilitySystem{sys}, 10, true).(jsonreport.AvailabilityFamily)
	if !ok {
		t.Fatalf("one coterie's report is a %T", rep)
	}
	back := roundTrip(t, rep)
	var coef []string
	for _, c := range back.Coefficients {
		coef = append(coef, *c)
	}
	if !back.Exact || !reflect.DeepEqual(coef, []string{"0", "0", "3", "1"}) {
		t.Errorf("exact %v, coefficients %v", back.Exact, coef)
	}
	if len(back.Points) != 1 || back.Points[0].Availability != "0.972" || back.Points[0].Unavailability != "0.028" {
		t.Errorf("points %+v", back.Points)
	}
}
