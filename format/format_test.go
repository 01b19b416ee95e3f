package format_test

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sameSystem reports how a and b differ, or "" if they hold the same
// system. Owners that are all set.NoOwner count as no owners.
func sameSystem(a, b set.System, quorumsOnly bool) string {
	if (a.HK == nil) != (b.HK == nil) {
		return "one is an (h,k)-arbiter, the other is not"
	}
	if !quorumsOnly {
		if a.N() != b.N() || a.K() != b.K() || a.Kind() != b.Kind() {
			return fmt.Sprintf("n/k/kind %d/%d/%q vs %d/%d/%q", a.N(), a.K(), a.Kind(), b.N(), b.K(), b.Kind())
		}
		if !reflect.DeepEqual(a.Labels(), b.Labels()) {
			return fmt.Sprintf("labels %q vs %q", a.Labels(), b.Labels())
		}
	}
	fa, fb := a.Families(), b.Families()
	if len(fa) != len(fb) {
		return fmt.Sprintf("%d levels vs %d", len(fa), len(fb))
	}
	for i := range fa {
		x, y := fa[i], fb[i]
		if !quorumsOnly && !reflect.DeepEqual(x.Params, y.Params) {
			return fmt.Sprintf("params %v vs %v", x.Params, y.Params)
		}
		if x.H != y.H || x.Threshold != y.Threshold || len(x.Quorums) != len(y.Quorums) {
			return fmt.Sprintf("level %d: h/threshold/quorums %d/%d/%d vs %d/%d/%d", i,
				x.H, x.Threshold, len(x.Quorums), y.H, y.Threshold, len(y.Quorums))
		}
		for j := range x.Quorums {
			if !set.Equal(&x.Quorums[j], &y.Quorums[j]) {
				return fmt.Sprintf("level %d quorum %d: %v vs %v", i, j, &x.Quorums[j], &y.Quorums[j])
			}
			if !quorumsOnly && x.Owner(j) != y.Owner(j) {
				return fmt.Sprintf("level %d quorum %d: owner %d vs %d", i, j, x.Owner(j), y.Owner(j))
			}
		}
	}
	return ""
}

func randomLabels(r *rand.Rand, n int) []string {
	if r.IntN(3) != 0 {
		return nil
	}
	// Labels with characters that need care in every format.
	pool := []string{"a", "b c", `q"uote`, "ü", "x,y", "#hash", "", "=1+1", `back\slash`}
	l := make([]string, n)
	for i := range l {
		l[i] = pool[r.IntN(len(pool))] + fmt.Sprint(i)
	}
	return l
}

func randomSystem(r *rand.Rand) set.System {
	n := 1 + r.IntN(70)
	k := 1 + r.IntN(3)
	kinds := []string{"", "fpp", "cube"}
	kind := kinds[r.IntN(len(kinds))]
	var params set.Params
	if kind != "" {
		params = set.Params{"order": r.IntN(9), "name": "x y", "ratio": 0.5, "on": true}
	}
	labels := randomLabels(r, n)
	if r.IntN(4) == 0 {
		a := &set.HK{N: n, K: k, Kind: kind, Params: params, Labels: labels}
		for h := 1; h <= k; h++ {
			if h > 1 && r.IntN(3) == 0 {
				continue
			}
			a.AddLevel(h, testsys.Varied(r, n, k))
		}
		return set.System{HK: a}
	}
	f := testsys.Varied(r, n, k)
	f.Kind, f.Params, f.Labels = kind, params, labels
	return set.System{Family: f}
}

// Every format gives back what it was given, over many random systems.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 2000 {
		sys := randomSystem(r)
		for _, f := range format.Formats() {
			var buf bytes.Buffer
			err := format.Write(&buf, sys, f, format.DefaultOptions())
			if f == format.Dat && (sys.HK != nil || sys.Family.IsThreshold()) {
				if err == nil {
					t.Fatalf("system %d: .dat accepted an (h,k)-arbiter or a threshold", i)
				}
				continue
			}
			if err != nil {
				t.Fatalf("system %d, %s: %v", i, f, err)
			}
			back, err := format.Read(bytes.NewReader(buf.Bytes()), f, format.DefaultOptions())
			if err != nil {
				t.Fatalf("system %d, %s: reading back: %v\n%s", i, f, err, buf.String())
			}
			if d := sameSystem(sys, back, f == format.Dat); d != "" {
				t.Fatalf("system %d, %s: %s\n%s", i, f, d, buf.String())
			}
			// Writing again gives the same bytes.
			var again bytes.Buffer
			if err := format.Write(&again, back, f, format.DefaultOptions()); err != nil {
				t.Fatal(err)
			}
			if f != format.Dat && !bytes.Equal(buf.Bytes(), again.Bytes()) {
				t.Fatalf("system %d, %s: second write differs", i, f)
			}
		}
	}
}

// The .dat format reads 0-based files with Base 0.
func TestDatBase(t *testing.T) {
	sys, err := format.ReadBytes([]byte("0 1\n1 2\n\n0 2\n"), format.Dat, format.Options{Base: 0})
	if err != nil {
		t.Fatal(err)
	}
	if got := sys.Family.String(); got != "n=3 k=1 [{0 1} {1 2} {0 2}]" {
		t.Errorf("got %s", got)
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, sys, format.Dat, format.Options{Base: 0}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "0 1\n1 2\n0 2\n" {
		t.Errorf("0-based .dat = %q", buf.String())
	}
}

func fano() set.System {
	// Maekawa's Fig. 1(b), the sets for K = 3, with their owners.
	f := &set.Family{N: 7, K: 1, Kind: "fpp", Params: set.Params{"order": 2}}
	for _, q := range [][]int{{1, 2, 3}, {2, 4, 6}, {3, 5, 6}, {1, 4, 5}, {2, 5, 7}, {1, 6, 7}, {3, 4, 7}} {
		s := set.New(7)
		for _, v := range q {
			s.Add(v - 1)
		}
		f.Add(s, len(f.Quorums))
	}
	return set.System{Family: f}
}

func goldenSystems() map[string]set.System {
	hk := &set.HK{N: 4, K: 2, Kind: "uniform", Params: set.Params{"n": 4, "k": 2}, Labels: []string{"a", "b", "c", "d"}}
	l1 := set.NewFamily(4)
	l1.Add(set.Of(0, 1), set.NoOwner)
	l1.Add(set.Of(2, 3), set.NoOwner)
	hk.AddLevel(1, l1)
	hk.AddLevel(2, set.NewThreshold(4, 3))
	maj := set.NewThreshold(5, 3)
	maj.Kind, maj.Params = "majority", set.Params{"n": 5}
	return map[string]set.System{
		"fano":     fano(),
		"hk":       {HK: hk},
		"majority": {Family: maj},
	}
}

// Golden files pin down each format's exact bytes.
func TestGolden(t *testing.T) {
	ext := map[format.Format]string{format.JSON: ".json", format.Text: ".txt", format.CSV: ".csv", format.Dat: ".dat"}
	for name, sys := range goldenSystems() {
		for _, f := range format.Formats() {
			var buf bytes.Buffer
			if err := format.Write(&buf, sys, f, format.DefaultOptions()); err != nil {
				if f == format.Dat {
					continue
				}
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+ext[f])
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s: output differs from the golden file\n got:\n%s\nwant:\n%s", path, buf.String(), want)
			}
			back, err := format.ReadBytes(want, f, format.DefaultOptions())
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if d := sameSystem(sys, back, f == format.Dat); d != "" {
				t.Errorf("%s: %s", path, d)
			}
		}
	}
}

func TestSniff(t *testing.T) {
	for in, want := range map[string]format.Format{
		"  {\"format\": 1}":           format.JSON,
		"# n: 3\nquorum,node\n1,1\n":  format.CSV,
		"# comment\n1 2 3\n":          format.Text,
		"":                            format.Text,
		"h,quorum,node,owner\n1,1,1,": format.CSV,
	} {
		if got := format.Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %s, want %s", in, got, want)
		}
	}
}

// Bad input: one error with the right line and a message that says what is
// wrong.
func TestBadInput(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    format.Format
		in   string
		line int
		msg  string
	}{
		{"text node 0", format.Text, "1 2\n0 3\n", 2, "numbered from 1"},
		{"text negative", format.Text, "1 2\n1 -3\n", 2, "negative"},
		{"text word", format.Text, "1 2\n1 x\n", 2, `"x" is not a node id`},
		{"text beyond n", format.Text, "# n: 3\n1 2\n\n2 4\n", 4, "beyond n = 3"},
		{"text duplicate", format.Text, "1 2 2\n", 1, "appears twice"},
		{"text huge id", format.Text, "1 99999999999999999999\n", 1, "too large"},
		{"text empty", format.Text, "# only a comment\n\n", 0, "no quorums"},
		{"text bad n", format.Text, "# n: seven\n1\n", 1, "not a whole number"},
		{"text n twice", format.Text, "# n: 3\n# n: 4\n1\n", 2, "given twice"},
		{"text bad tag", format.Text, "# format: coterie/9\n1\n", 1, "unknown format tag"},
		{"text labels count", format.Text, "# labels: [\"a\"]\n1 2\n", 1, "1 labels for 2 nodes"},
		{"text bad labels", format.Text, "# labels: a b\n1 2\n", 1, "labels"},
		{"text owner beyond n", format.Text, "# n: 2\n1 2 # owner: 3\n", 2, "owner 3 is beyond n = 2"},
		{"text h beyond k", format.Text, "# k: 1\n# h: 2\n1 2\n", 2, "exceeds k = 1"},
		{"text quorum then h", format.Text, "1 2\n# h: 1\n1\n", 2, "belong to no level"},
		{"text threshold no n", format.Text, "# threshold: 3\n", 1, "needs n"},
		{"text threshold and quorum", format.Text, "# n: 4\n# threshold: 3\n1 2\n", 3, "threshold level"},
		{"json empty", format.JSON, "", 0, "empty"},
		{"json truncated", format.JSON, "{\"format\": \"coterie/1\", \"n\": 3,\n \"quorums\": [[1, 2],\n [2,", 3, "truncated"},
		{"json wrong tag", format.JSON, `{"format": "quorum/2", "n": 2, "quorums": [[1]]}`, 1, "unknown format tag"},
		{"json missing tag", format.JSON, `{"n": 2, "quorums": [[1]]}`, 1, "missing \"format\""},
		{"json missing n", format.JSON, `{"format": "coterie/1", "quorums": [[1]]}`, 1, "missing \"n\""},
		{"json unknown field", format.JSON, "{\"format\": \"coterie/1\",\n\"quorum\": []}", 2, "unknown field \"quorum\""},
		{"json node 0", format.JSON, "{\"format\": \"coterie/1\", \"n\": 3, \"quorums\": [\n[1, 2],\n[0, 3]]}", 3, "numbered from 1"},
		{"json node beyond n", format.JSON, "{\"format\": \"coterie/1\", \"n\": 3, \"quorums\": [\n[1, 2],\n[2, 4]]}", 3, "beyond n = 3"},
		{"json empty quorum", format.JSON, "{\"format\": \"coterie/1\", \"n\": 3, \"quorums\": [\n[1, 2],\n[]]}", 3, "quorum 2 is empty"},
		{"json float id", format.JSON, `{"format": "coterie/1", "n": 3, "quorums": [[1.5]]}`, 1, "whole number"},
		{"json string id", format.JSON, `{"format": "coterie/1", "n": 3, "quorums": [["1"]]}`, 1, "must be a number"},
		{"json n too small", format.JSON, "{\"format\": \"coterie/1\",\n\"quorums\": [[1, 9]],\n\"n\": 3}", 2, "beyond n = 3"},
		{"json trailing", format.JSON, "{\"format\": \"coterie/1\", \"n\": 1, \"quorums\": [[1]]}\n{}", 2, "after the end"},
		{"json owner 0", format.JSON, "{\"format\": \"coterie/1\", \"n\": 3, \"quorums\": [[1], [1, 2]],\n\"owners\": [1, 0]}", 2, "owner: node id 0: nodes are numbered from 1"},
		{"text owner word", format.Text, "1 2\n2 3 # owner: x\n", 2, `owner: "x" is not a node id (node ids are whole numbers from 1)`},
		{"csv owner negative", format.CSV, "quorum,node,owner\n1,2,-3\n", 2, "owner: node id -3 is negative (nodes are numbered from 1)"},
		{"json owners count", format.JSON, `{"format": "coterie/1", "n": 3, "quorums": [[1], [1, 2]], "owners": [1]}`, 1, "1 owners for 2 quorums"},
		{"json both", format.JSON, `{"format": "coterie/1", "n": 3, "quorums": [[1]], "threshold": 2}`, 1, "both"},
		{"json duplicate key", format.JSON, "{\"format\": \"coterie/1\", \"n\": 3,\n\"n\": 3}", 2, "given twice"},
		{"json k zero", format.JSON, `{"format": "coterie/1", "n": 3, "k": 0, "threshold": 2}`, 1, "k = 0 is out of range"},
		{"json level twice", format.JSON, "{\"format\": \"coterie/1\", \"n\": 3, \"k\": 2, \"arbiters\": [\n{\"h\": 1, \"threshold\": 2},\n{\"h\": 1, \"threshold\": 3}]}", 3, "given twice"},
		{"json bad params", format.JSON, `{"format": "coterie/1", "n": 3, "params": [1], "threshold": 2}`, 1, "params must be an object"},
		{"csv no header", format.CSV, "1,2\n", 1, "unknown column"},
		{"csv missing node", format.CSV, "quorum,owner\n", 1, "needs columns quorum and node"},
		{"csv fields", format.CSV, "quorum,node\n1,2\n1\n", 3, "1 fields, the header has 2"},
		{"csv gap", format.CSV, "quorum,node\n1,2\n3,1\n", 3, "quorum 2 has no rows"},
		{"csv duplicate", format.CSV, "quorum,node\n1,2\n1,2\n", 3, "appears twice"},
		{"csv owner conflict", format.CSV, "quorum,node,owner\n1,2,1\n1,3,2\n", 3, "owner 2 here and 1"},
		{"csv huge quorum number", format.CSV, "quorum,node\n999999,1\n", 2, "quorum 1 has no rows"},
		{"csv h without column", format.CSV, "# n: 3\n# h: 1\n# threshold: 2\nquorum,node\n", 2, "need an h column"},
		{"dat zero base 1", format.Dat, "1 2\n0 1\n", 2, "node id 0: nodes are numbered from 1"},
		{"dat word", format.Dat, "1 2\n1 a\n", 2, "not a node id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := format.ReadBytes([]byte(tt.in), tt.f, format.DefaultOptions())
			if err == nil {
				t.Fatalf("no error for %q", tt.in)
			}
			fe, ok := err.(*format.SyntaxError)
			if !ok {
				t.Fatalf("error %v is %T, want *format.SyntaxError", err, err)
			}
			if fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
				t.Errorf("error = line %d %q, want line %d containing %q", fe.Line, fe.Msg, tt.line, tt.msg)
			}
		})
	}
}

// Things the formats accept that a strict parser might not.
func TestLenientInput(t *testing.T) {
	for _, tt := range []struct {
		f    format.Format
		in   string
		want string
	}{
		{format.Text, "1,2, 3\n\n  # comment\n2\t3 # trailing comment\r\n", "n=3 k=1 [{0 1 2} {1 2}]"},
		{format.Text, "# n: 5\n# k: 2\n1 2\n", "n=5 k=2 [{0 1}]"},
		{format.CSV, "node,quorum\n2,1\n1,1\n3,2\n", "n=3 k=1 [{0 1} {2}]"},
		{format.CSV, "quorum,node\n2,3\n1,1\n", "n=3 k=1 [{0} {2}]"},
		{format.JSON, `{"n": 2, "format": "coterie/1", "quorums": [[2,1]], "owners": null}`, "n=2 k=1 [{0 1}]"},
		{format.Dat, "3 1\n2\n", "n=3 k=1 [{0 2} {1}]"},
	} {
		sys, err := format.ReadBytes([]byte(tt.in), tt.f, format.DefaultOptions())
		if err != nil {
			t.Errorf("%s %q: %v", tt.f, tt.in, err)
			continue
		}
		if got := sys.Family.String(); got != tt.want {
			t.Errorf("%s %q = %s, want %s", tt.f, tt.in, got, tt.want)
		}
	}
}

func TestLossy(t *testing.T) {
	if got := format.Lossy(fano(), format.Dat); !reflect.DeepEqual(got, []string{"owners", "kind and params"}) {
		t.Errorf("Lossy(fano, dat) = %q", got)
	}
	if got := format.Lossy(fano(), format.CSV); got != nil {
		t.Errorf("Lossy(fano, csv) = %q", got)
	}
}
