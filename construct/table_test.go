package construct

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestMessagesTable writes, and checks against the golden file, the
// messages per critical section 3·(mean |S_i| − 1) of Maekawa's sets for N
// = 3..60: Maekawa's map x ↦ x − (N′−N) on his printed Fig. 1 (N ≤ 21, the
// method of Table II) and on our plane, our default map, the Method 1
// bound, and the degenerate grid. Rewrite with -update.
func TestMessagesTable(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("| N | plane q (N′) | paper map, Fig. 1 | paper map, our plane | ours (min) | Method 1 bound | grid |\n")
	sb.WriteString("|---:|---|---:|---:|---:|---:|---:|\n")
	figs := map[int]string{}
	for k := 2; k <= 5; k++ {
		figs[k-1] = fmt.Sprintf("maekawa-fig1-k%d.txt", k)
	}
	for n := 3; n <= 60; n++ {
		q, total := bound(n)
		fig := "—"
		if path, ok := figs[q]; ok {
			f, err := Degenerate(context.Background(), readFig(t, path), n, MapPaper)
			if err != nil {
				t.Fatal(err)
			}
			fig = fmt.Sprintf("%.2f", messages(f))
		}
		paper, err := Maekawa(n, MapPaper)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := Maekawa(n, MapMin)
		if err != nil {
			t.Fatal(err)
		}
		rows, cols := GridShape(n)
		grid, err := Grid(rows, cols, n)
		if err != nil {
			t.Fatal(err)
		}
		if messages(ours) > messages(paper)+1e-9 {
			t.Errorf("N = %d: ours %.3f > paper's map %.3f", n, messages(ours), messages(paper))
		}
		fmt.Fprintf(&sb, "| %d | %d (%d) | %s | %.2f | %.2f | %.2f | %.2f |\n", n, q, q*q+q+1, fig,
			messages(paper), messages(ours), 3*(float64(total)/float64(n)-1), messages(grid))
	}
	const golden = "testdata/maekawa-messages.md"
	if *update {
		if err := os.WriteFile(golden, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./construct -run TestMessagesTable -update)", err)
	}
	if string(want) != sb.String() {
		t.Errorf("messages table differs from %s (rewrite with -update if intended):\n%s", golden, sb.String())
	}
}
