package shard

import (
	"bytes"
	"strings"
	"testing"
)

// Owns deals every piece to exactly one shard.
func TestOwns(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for p := range 100 {
			owners := 0
			for i := 1; i <= n; i++ {
				if (Spec{i, n}).Owns(p) {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("piece %d of %d shards has %d owners", p, n, owners)
			}
		}
	}
}

type sum struct {
	Total int `json:"total"`
}

func parts(t *testing.T, n int, hash string, opts any) []*Part {
	t.Helper()
	var ps []*Part
	for i := 1; i <= n; i++ {
		p, err := New("count", Spec{i, n}, hash, opts, sum{Total: i})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Write(&b, p); err != nil {
			t.Fatal(err)
		}
		back, err := Read(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, back)
	}
	return ps
}

func TestCheckAndDecode(t *testing.T) {
	h1 := HashInput([]byte("one"))
	h2 := HashInput([]byte("two"))
	opts := map[string]int{"seed": 1}
	names := func(ps []*Part) []string {
		var out []string
		for _, p := range ps {
			out = append(out, "part"+p.Shard)
		}
		return out
	}
	three := parts(t, 3, h1, opts)
	shuffled := []*Part{three[2], three[0], three[1]}
	got, err := Check(shuffled, names(shuffled))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Decode[sum](got)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Total != i+1 {
			t.Errorf("part %d decodes to %v", i+1, r)
		}
	}
	foreign := parts(t, 3, h2, opts)
	other := parts(t, 3, h1, map[string]int{"seed": 2})
	two := parts(t, 2, h1, opts)
	for _, c := range []struct {
		ps   []*Part
		want string
	}{
		{nil, "no partial results"},
		{three[:2], "shard 3 of 3 missing"},
		{[]*Part{three[0], three[1], three[1], three[2]}, "given twice"},
		{[]*Part{three[0], three[1], foreign[2]}, "another input"},
		{[]*Part{three[0], three[1], other[2]}, "other options"},
		{[]*Part{three[0], two[1]}, "different numbers of shards"},
	} {
		if _, err := Check(c.ps, names(c.ps)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check: err %v, want %q", err, c.want)
		}
	}
	if _, err := Decode[struct{ Other int }](three); err == nil {
		t.Error("a result with unknown fields was decoded")
	}
}

func TestReadRejects(t *testing.T) {
	for _, data := range []string{
		``, `{}`, `[1]`, `{"format": "coterie/1"}`,
		`{"format": "coterie-partial/1", "partial": false, "kind": "x", "shard": "1/1", "input_sha256": "` + strings.Repeat("0", 64) + `", "options": {}, "result": {}}`,
		`{"format": "coterie-partial/1", "partial": true, "kind": "x", "shard": "2/1", "input_sha256": "` + strings.Repeat("0", 64) + `", "options": {}, "result": {}}`,
		`{"format": "coterie-partial/1", "partial": true, "kind": "x", "shard": "1/1", "input_sha256": "abc", "options": {}, "result": {}}`,
		`{"format": "coterie-partial/1", "partial": true, "kind": "", "shard": "1/1", "input_sha256": "` + strings.Repeat("0", 64) + `", "options": {}, "result": {}}`,
		`{"format": "coterie-partial/1", "partial": true, "kind": "x", "shard": "1/1", "input_sha256": "` + strings.Repeat("0", 64) + `", "options": {}}`,
		`{"format": "coterie-partial/1", "partial": true, "kind": "x", "shard": "1/1", "input_sha256": "` + strings.Repeat("0", 64) + `", "options": {}, "result": {}, "extra": 1}`,
		`{"format": "coterie-partial/1", "partial": true, "kind": "x", "shard": "1/1", "input_sha256": "` + strings.Repeat("0", 64) + `", "options": {}, "result": {}} {}`,
	} {
		if _, err := Read([]byte(data)); err == nil {
			t.Errorf("Read(%s) accepted", data)
		}
	}
}

// Owned counts the pieces Owns deals to a shard.
func TestOwned(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for i := 1; i <= n; i++ {
			s := Spec{i, n}
			for pieces := range 40 {
				want := 0
				for p := range pieces {
					if s.Owns(p) {
						want++
					}
				}
				if got := s.Owned(pieces); got != want {
					t.Fatalf("%v.Owned(%d) = %d, want %d", s, pieces, got, want)
				}
			}
		}
	}
}

type countCheckpoint struct {
	Format      string `json:"format"`
	Kind        string `json:"kind"`
	InputSHA256 string `json:"input_sha256"`
	Shard       string `json:"shard"`
	Done        []int  `json:"done"`
}

// A checkpoint is read back by its own run, and refused, with the
// reason, by a run of another kind, input or shard, and when it is not
// a checkpoint of the kind's shape.
func TestReadCheckpoint(t *testing.T) {
	h := HashInput([]byte("one"))
	sp := Spec{2, 3}
	var b bytes.Buffer
	if err := WriteCheckpoint(&b, countCheckpoint{CheckpointFormat, "count", h, sp.String(), []int{1, 4}}); err != nil {
		t.Fatal(err)
	}
	var got countCheckpoint
	if err := ReadCheckpoint(b.Bytes(), CheckpointHead{"count", h, sp}, &got); err != nil || len(got.Done) != 2 || got.Done[1] != 4 {
		t.Fatalf("read back %+v, %v", got, err)
	}
	for _, c := range []struct {
		data string
		want CheckpointHead
		prob CheckpointProblem
		what string
	}{
		{b.String(), CheckpointHead{"other", h, sp}, OtherKind, "count"},
		{b.String(), CheckpointHead{"count", HashInput([]byte("two")), sp}, OtherInput, ""},
		{b.String(), CheckpointHead{"count", h, Spec{1, 3}}, OtherShard, "2/3"},
		{`{"format": "coterie/1"}`, CheckpointHead{"count", h, sp}, NotCheckpoint, ""},
		{`[`, CheckpointHead{"count", h, sp}, NotCheckpoint, ""},
		{strings.Replace(b.String(), `"done"`, `"extra"`, 1), CheckpointHead{"count", h, sp}, NotCheckpoint, ""},
	} {
		err := ReadCheckpoint([]byte(c.data), c.want, &got)
		ce, ok := err.(*CheckpointError)
		if !ok || ce.Problem != c.prob || ce.Kind+ce.Shard != c.what {
			t.Errorf("ReadCheckpoint(%.40q, %v): %v, want problem %d (%q)", c.data, c.want, err, c.prob, c.what)
		}
	}
}

// Align drops differences of presentation and names a difference that
// matters, with both values.
func TestAlign(t *testing.T) {
	h := HashInput([]byte("one"))
	pres := func(k string) bool { return k == "name" }
	a := parts(t, 2, h, map[string]any{"name": "a.json", "seed": 1})
	b := parts(t, 2, h, map[string]any{"name": "b.json", "seed": 1})
	c := parts(t, 2, h, map[string]any{"name": "a.json", "seed": 2})
	d := parts(t, 2, h, map[string]any{"name": "a.json"})
	mixed := []*Part{a[0], b[1]}
	if err := Align(mixed, []string{"x", "y"}, pres); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(mixed, []string{"x", "y"}); err != nil {
		t.Errorf("parts that differ in the name only: %v", err)
	}
	for _, c := range []struct {
		ps       []*Part
		key, got string
		want     string
	}{
		{[]*Part{a[0], c[1]}, "seed", "2", "1"},
		{[]*Part{a[0], d[1]}, "seed", "absent", "1"},
	} {
		err := Align(c.ps, []string{"x", "y"}, pres)
		oe, ok := err.(*OptionsError)
		if !ok || oe.Key != c.key || oe.Got != c.got || oe.Want != c.want || oe.Name != "y" || oe.FirstShard != "1/2" {
			t.Errorf("Align: %v, want %s %s, not %s", err, c.key, c.got, c.want)
		}
	}
}
