package systems

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/set"
)

// The real-software suite (make test-systems): it starts real ZooKeeper
// and etcd servers on 127.0.0.1, stops some of them, and checks that a
// write succeeds exactly when coterie says the live servers hold a quorum.
// It runs when COTERIE_SYSTEMS=require; then a missing package or a server
// that does not start fails the test, saying why.

func requireReal(t *testing.T) {
	t.Helper()
	switch v := os.Getenv("COTERIE_SYSTEMS"); v {
	case "require":
	case "":
		t.Skip("the real-software suite runs with COTERIE_SYSTEMS=require (make test-systems)")
	default:
		t.Fatalf("COTERIE_SYSTEMS=%q: want require, or unset to skip the real-software suite", v)
	}
}

// realNeedFile fails the test when path is missing, naming the package.
func realNeedFile(t *testing.T, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s is missing (%v): install the Debian package %s (make test-systems installs it with apt-get when run as root)", path, err, pkg)
	}
}

// realFreePorts returns n distinct ports on 127.0.0.1 that were free a moment
// ago.
func realFreePorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("no free port: %v", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// realProc is a server process the test started; it is stopped by its PID.
type realProc struct {
	name, log string
	cmd       *exec.Cmd
	frozen    bool
	done      chan struct{}
}

// startRealProc starts name's process with its output in dir/name.log; the
// test's cleanup kills it.
func startRealProc(t *testing.T, dir, name string, args ...string) *realProc {
	t.Helper()
	logPath := filepath.Join(dir, name+".log")
	out, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	// Pdeathsig: the server dies with the test binary even if the binary
	// is killed before its cleanups run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		out.Close()
		t.Fatalf("%s does not start: %v", name, err)
	}
	p := &realProc{name: name, log: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		out.Close()
		close(p.done)
	}()
	t.Cleanup(p.kill)
	return p
}

// freeze stops the process (SIGSTOP): to its peers it has failed.
func (p *realProc) freeze() {
	if !p.frozen {
		_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGSTOP)
		p.frozen = true
	}
}

// thaw lets a frozen process go on (SIGCONT).
func (p *realProc) thaw() {
	if p.frozen {
		_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGCONT)
		p.frozen = false
	}
}

func (p *realProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill ends the process by its PID and waits for it.
func (p *realProc) kill() {
	if p.exited() {
		return
	}
	_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGKILL)
	_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGCONT)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
	}
}

// tail returns the last lines of the process's log.
func (p *realProc) tail(lines int) string {
	data, _ := os.ReadFile(p.log)
	ls := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return p.name + " (" + p.log + "):\n  " + strings.Join(ls, "\n  ")
}

// realRow is one failure pattern's line of the table.
type realRow struct {
	pattern   string
	says, did bool
	took      time.Duration
	why       string
}

func realYesNo(b bool) string {
	if b {
		return "quorum"
	}
	return "no quorum"
}

func realDidText(r realRow) string {
	if r.did {
		return fmt.Sprintf("write ok (%.1fs)", r.took.Seconds())
	}
	return "write failed (" + r.why + ")"
}

// reportTable prints the table and fails the test for each pattern on
// which coterie and the software disagree.
func reportTable(t *testing.T, title string, rows []realRow) {
	t.Helper()
	w := len("pattern")
	for _, r := range rows {
		w = max(w, len(r.pattern))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%-*s | %-12s | %s\n", title, w, "pattern", "coterie says", "the software did")
	for _, r := range rows {
		mark := ""
		if r.says != r.did {
			mark = "   <-- DISAGREE"
		}
		fmt.Fprintf(&b, "%-*s | %-12s | %s%s\n", w, r.pattern, realYesNo(r.says), realDidText(r), mark)
	}
	var slowest time.Duration
	for _, r := range rows {
		if r.did {
			slowest = max(slowest, r.took)
		}
	}
	fmt.Fprintf(&b, "(each write tried for %v; the slowest that succeeded took %.1fs)\n", realWindow(t), slowest.Seconds())
	t.Log("\n" + b.String())
	for _, r := range rows {
		if r.says != r.did {
			t.Errorf("%s: pattern %s: coterie says %s, but the software's write %s", title, r.pattern, realYesNo(r.says), map[bool]string{true: "succeeded", false: "failed: " + r.why}[r.did])
		}
	}
}

// zkEnsemble is a ZooKeeper ensemble on 127.0.0.1.
type zkEnsemble struct {
	t      *testing.T
	cfg    *Config
	ids    []int64          // every server, participants and observers
	client map[int64]string // client address
	procs  map[int64]*realProc
	node   map[int64]int // participant's node in cfg, -1 for an observer
}

// zkServerSpec is one server of an ensemble to start.
type zkServerSpec struct {
	id       int64
	observer bool
}

// startZooKeeper writes one zoo.cfg for the servers and the extra (group
// and weight) lines, reads it with coterie's reader, and starts a
// ZooKeeper server for each server line.
func startZooKeeper(t *testing.T, servers []zkServerSpec, extra string) *zkEnsemble {
	t.Helper()
	const jar = "/usr/share/java/zookeeper.jar"
	realNeedFile(t, jar, "zookeeper")
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatalf("java is missing: install the Debian package zookeeper, which depends on a Java runtime: %v", err)
	}
	dir := t.TempDir()
	ports := realFreePorts(t, 3*len(servers))
	z := &zkEnsemble{t: t, client: map[int64]string{}, procs: map[int64]*realProc{}, node: map[int64]int{}}
	var b strings.Builder
	// A fast clock: a leader that loses its quorum notices within
	// syncLimit ticks, a follower that loses its leader likewise.
	b.WriteString("tickTime=200\ninitLimit=25\nsyncLimit=5\nadmin.enableServer=false\n4lw.commands.whitelist=srvr,conf\nstandaloneEnabled=false\nreconfigEnabled=false\nmaxClientCnxns=0\n")
	for i, s := range servers {
		role := "participant"
		if s.observer {
			role = "observer"
		}
		fmt.Fprintf(&b, "server.%d=127.0.0.1:%d:%d:%s;127.0.0.1:%d\n", s.id, ports[3*i], ports[3*i+1], role, ports[3*i+2])
		z.client[s.id] = "127.0.0.1:" + strconv.Itoa(ports[3*i+2])
		z.ids = append(z.ids, s.id)
	}
	b.WriteString(extra)
	cfgText := b.String()
	z.cfg, err = zookeeperFormat.Parse("zoo.cfg", []byte("dataDir=/unused\n"+cfgText))
	if err != nil {
		t.Fatalf("coterie does not read the ensemble's configuration: %v", err)
	}
	for _, id := range z.ids {
		z.node[id] = slices.Index(z.cfg.Labels, "server."+strconv.FormatInt(id, 10))
	}
	for _, id := range z.ids {
		sdir := filepath.Join(dir, fmt.Sprintf("server.%d", id))
		if err := os.MkdirAll(sdir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sdir, "myid"), []byte(strconv.FormatInt(id, 10)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cfgPath := filepath.Join(sdir, "zoo.cfg")
		if err := os.WriteFile(cfgPath, []byte("dataDir="+sdir+"\n"+cfgText), 0o644); err != nil {
			t.Fatal(err)
		}
		cp := jar
		if _, err := os.Stat("/usr/share/java/slf4j-simple.jar"); err == nil {
			cp += ":/usr/share/java/slf4j-simple.jar"
		}
		z.procs[id] = startRealProc(t, dir, fmt.Sprintf("server.%d", id), java,
			"-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
			"-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
			"-cp", cp, "org.apache.zookeeper.server.quorum.QuorumPeerMain", cfgPath)
	}
	return z
}

// healthy waits until every server serves (one leader, the others
// followers or observers), thawing the frozen ones first.
func (z *zkEnsemble) healthy(limit time.Duration) {
	z.t.Helper()
	for _, p := range z.procs {
		p.thaw()
	}
	deadline := time.Now().Add(limit)
	var modes map[int64]string
	for {
		modes = map[int64]string{}
		leaders, serving := 0, 0
		for _, id := range z.ids {
			if z.procs[id].exited() {
				z.t.Fatalf("ZooKeeper server.%d exited:\n%s", id, z.procs[id].tail(30))
			}
			m := zkMode(z.client[id], time.Second)
			modes[id] = m
			if m != "" {
				serving++
			}
			if m == "leader" {
				leaders++
			}
		}
		if serving == len(z.ids) && leaders == 1 {
			return
		}
		if time.Now().After(deadline) {
			var logs []string
			for _, id := range z.ids {
				logs = append(logs, z.procs[id].tail(15))
			}
			z.t.Fatalf("the ZooKeeper ensemble is not serving after %v (modes %v):\n%s", limit, modes, strings.Join(logs, "\n"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkMembership asks every server for the membership it runs with (the
// conf four-letter word prints its quorum verifier), reads each with
// coterie's reader and checks that it decides every set of live servers
// as the configuration coterie read does.
func (z *zkEnsemble) checkMembership() {
	z.t.Helper()
	n := z.cfg.N()
	for i, id := range z.ids {
		m, err := zkMembership(z.client[id], 5*time.Second)
		if err != nil {
			z.t.Fatalf("server.%d: %v", id, err)
		}
		if i == 0 {
			z.t.Logf("server.%d reports its membership:\n%s", id, m)
		}
		got, err := zookeeperFormat.Parse(fmt.Sprintf("server.%d's membership", id), []byte(m))
		if err != nil {
			z.t.Fatalf("coterie does not read the membership ZooKeeper reports: %v\n%s", err, m)
		}
		if strings.Join(got.Labels, ",") != strings.Join(z.cfg.Labels, ",") {
			z.t.Fatalf("server.%d runs with participants %v, coterie read %v", id, got.Labels, z.cfg.Labels)
		}
		zkEachSubset(n, func(live *set.Set, _ int) {
			if got.Writes.HasQuorum(live) != z.cfg.Writes.HasQuorum(live) {
				z.t.Fatalf("server.%d's membership decides %v otherwise than zoo.cfg:\n%s", id, live, m)
			}
		})
	}
}

// tryWrite tries, for at most window, to create a znode through any live
// server.
func (z *zkEnsemble) tryWrite(live []int64, window time.Duration) (bool, time.Duration, string) {
	start := time.Now()
	why := "no live server"
	for time.Since(start) < window {
		for _, id := range live {
			left := window - time.Since(start)
			if left <= 0 {
				break
			}
			err := zkCreate(z.client[id], "/coterie-", min(left, 2*time.Second))
			if err == nil {
				return true, time.Since(start), ""
			}
			why = fmt.Sprintf("server.%d: %v", id, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false, 0, why
}

// run checks each failure pattern (the servers to stop) and returns the
// table's rows.
func (z *zkEnsemble) run(patterns [][]int64, window time.Duration) []realRow {
	var rows []realRow
	for _, down := range patterns {
		z.healthy(60 * time.Second)
		var live []int64
		alive := set.New(z.cfg.N())
		for _, id := range z.ids {
			if slices.Contains(down, id) {
				z.procs[id].freeze()
				continue
			}
			live = append(live, id)
			if v := z.node[id]; v >= 0 {
				alive.Add(v)
			}
		}
		r := realRow{pattern: zkPatternName(down), says: z.cfg.Writes.HasQuorum(alive)}
		r.did, r.took, r.why = z.tryWrite(live, window)
		rows = append(rows, r)
	}
	return rows
}

func zkPatternName(down []int64) string {
	if len(down) == 0 {
		return "none down"
	}
	s := make([]string, len(down))
	for i, id := range down {
		s[i] = strconv.FormatInt(id, 10)
	}
	return "down " + strings.Join(s, ",")
}

// zkDisagreements returns, for an ensemble of participants ids, every set
// of servers whose failure leaves a quorum under one rule and not the
// other.
func zkDisagreements(ids []int64, a, b func(*set.Set) bool) [][]int64 {
	n := len(ids)
	var out [][]int64
	for mask := 0; mask < 1<<n; mask++ {
		live := set.New(n)
		var down []int64
		for v := range n {
			if mask>>v&1 == 1 {
				down = append(down, ids[v])
			} else {
				live.Add(v)
			}
		}
		if a(live) != b(live) {
			out = append(out, down)
		}
	}
	slices.SortStableFunc(out, func(x, y []int64) int { return len(x) - len(y) })
	return out
}

// realWindow is how long a pattern's write is tried: 6 seconds, or
// COTERIE_SYSTEMS_WINDOW (such as 10s) on a slow machine. With the fast
// clocks the ensembles run here (a ZooKeeper tick of 200 ms, an etcd
// election timeout of 500 ms) a lost leader is replaced within two to
// three seconds even under load (the table shows each successful
// write's time), so a quorum that exists has written well within it.
func realWindow(t *testing.T) time.Duration {
	v := os.Getenv("COTERIE_SYSTEMS_WINDOW")
	if v == "" {
		return 6 * time.Second
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("COTERIE_SYSTEMS_WINDOW=%q: want a duration such as 10s", v)
	}
	return d
}

// TestRealZooKeeper3x3 runs the administrator's guide's 3×3 hierarchy on
// real ZooKeeper servers, through every failure pattern on which it and a
// majority of the nine disagree, and a few on which they agree.
func TestRealZooKeeper3x3(t *testing.T) {
	requireReal(t)
	var specs []zkServerSpec
	for id := int64(1); id <= 9; id++ {
		specs = append(specs, zkServerSpec{id: id})
	}
	z := startZooKeeper(t, specs, "group.1=1:2:3\ngroup.2=4:5:6\ngroup.3=7:8:9\n")
	z.healthy(120 * time.Second)
	z.checkMembership()
	majority := func(live *set.Set) bool { return live.Len() >= 5 }
	// Patterns on which both rules agree: all up, one down, a whole
	// group down (a quorum), and a group and one more down (none).
	patterns := [][]int64{{}, {1}, {1, 2, 3}, {1, 2, 3, 4}, {1, 2, 3, 4, 5}}
	for _, p := range patterns {
		alive := set.Full(9)
		for _, id := range p {
			alive.Remove(int(id) - 1)
		}
		if z.cfg.Writes.HasQuorum(alive) != majority(alive) {
			t.Fatalf("pattern %v: the rules disagree", p)
		}
	}
	patterns = append(patterns, zkDisagreements(z.ids, z.cfg.Writes.HasQuorum, majority)...)
	if n := len(patterns) - 5; n != 54 {
		t.Fatalf("%d patterns separate the 3×3 hierarchy from a majority of 9, want 27+27", n)
	}
	reportTable(t, "ZooKeeper, 3 groups × 3 servers (QuorumHierarchical)", z.run(patterns, realWindow(t)))
}

// TestRealZooKeeperWeighted runs a hierarchy with unequal weights, a
// group of weight 0 and an observer.
func TestRealZooKeeperWeighted(t *testing.T) {
	requireReal(t)
	specs := []zkServerSpec{{id: 1}, {id: 2}, {id: 3}, {id: 4}, {id: 5}, {id: 6}, {id: 7}, {id: 8, observer: true}}
	// Server 1 outweighs 2 and 3 together; group 3 (server 7) weighs 0.
	z := startZooKeeper(t, specs, "group.1=1:2:3\ngroup.2=4:5:6\ngroup.3=7\nweight.1=3\nweight.7=0\n")
	z.healthy(120 * time.Second)
	z.checkMembership()
	patterns := [][]int64{
		{},           // everything up
		{8},          // the observer never counts
		{7, 8},       // nor does the zero-weight group
		{2, 3},       // server 1 alone is group 1's majority
		{1},          // six of seven participants, but group 1 has no majority
		{4, 5},       // five of seven, but group 2 has no majority
		{2, 3, 4},    // both groups still hold a majority
		{2, 3, 4, 7}, // three of seven participants, yet a quorum
		{1, 7, 8},    // no majority in group 1
		{3, 6, 7, 8}, // four of seven, and a majority in both groups
	}
	reportTable(t, "ZooKeeper, weighted groups, a zero-weight group and an observer", z.run(patterns, realWindow(t)))
}
