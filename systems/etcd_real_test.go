package systems

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/set"
)

// etcdCluster is an etcd cluster on 127.0.0.1.
type etcdCluster struct {
	t       *testing.T
	dir     string
	etcd    string
	etcdctl string
	names   []string          // every member, the learner last
	client  map[string]string // client URL
	peer    map[string]string // peer URL
	procs   map[string]*realProc
	learner string
}

func (c *etcdCluster) ctl(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.etcdctl, append([]string{"--command-timeout=" + timeout.String(), "--dial-timeout=1s"}, args...)...)
	cmd.Env = append(os.Environ(), "ETCDCTL_API=3")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}

func (c *etcdCluster) start(name, initialCluster, state string) {
	c.procs[name] = startRealProc(c.t, c.dir, name, c.etcd,
		"--name", name,
		"--data-dir", filepath.Join(c.dir, name+".etcd"),
		"--listen-peer-urls", c.peer[name],
		"--initial-advertise-peer-urls", c.peer[name],
		"--listen-client-urls", c.client[name],
		"--advertise-client-urls", c.client[name],
		"--initial-cluster", initialCluster,
		"--initial-cluster-state", state,
		"--initial-cluster-token", "coterie-test",
		// A fast clock: a lost leader is replaced within a second.
		"--heartbeat-interval", "50",
		"--election-timeout", "500",
		"--logger", "zap", "--log-outputs", "stderr")
}

// startEtcd starts voters members, then adds and starts one learner.
func startEtcd(t *testing.T, voters int) *etcdCluster {
	t.Helper()
	c := &etcdCluster{t: t, dir: t.TempDir(), client: map[string]string{}, peer: map[string]string{}, procs: map[string]*realProc{}}
	var err error
	if c.etcd, err = exec.LookPath("etcd"); err != nil {
		t.Fatalf("etcd is missing (%v): install the Debian package etcd-server (make test-systems installs it with apt-get when run as root)", err)
	}
	if c.etcdctl, err = exec.LookPath("etcdctl"); err != nil {
		t.Fatalf("etcdctl is missing (%v): install the Debian package etcd-client (make test-systems installs it with apt-get when run as root)", err)
	}
	ports := realFreePorts(t, 2*(voters+1))
	for i := range voters + 1 {
		name := fmt.Sprintf("m%d", i+1)
		c.names = append(c.names, name)
		c.client[name] = fmt.Sprintf("http://127.0.0.1:%d", ports[2*i])
		c.peer[name] = fmt.Sprintf("http://127.0.0.1:%d", ports[2*i+1])
	}
	c.learner = c.names[voters]
	var initial []string
	for _, name := range c.names[:voters] {
		initial = append(initial, name+"="+c.peer[name])
	}
	for _, name := range c.names[:voters] {
		c.start(name, strings.Join(initial, ","), "new")
	}
	c.waitWrite(c.names[:voters], 60*time.Second)
	// etcd refuses a new member until every member has been connected
	// for a few seconds ("unhealthy cluster"): retry, within a bound.
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := c.ctl(5*time.Second, "--endpoints="+c.endpoints(c.names[:voters]), "member", "add", c.learner, "--learner", "--peer-urls="+c.peer[c.learner])
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("etcdctl member add --learner: %v\n%s", err, out)
		}
		time.Sleep(500 * time.Millisecond)
	}
	initial = append(initial, c.learner+"="+c.peer[c.learner])
	c.start(c.learner, strings.Join(initial, ","), "existing")
	return c
}

// endpoints returns the client URLs of the named members.
func (c *etcdCluster) endpoints(names []string) string {
	var eps []string
	for _, n := range names {
		eps = append(eps, c.client[n])
	}
	return strings.Join(eps, ",")
}

// tryPut tries, for at most window, to put a key through any of the
// voters (a learner serves no writes).
func (c *etcdCluster) tryPut(voters []string, window time.Duration) (bool, time.Duration, string) {
	start := time.Now()
	why := "no live voter"
	for time.Since(start) < window {
		for _, name := range voters {
			left := window - time.Since(start)
			if left < 200*time.Millisecond {
				break
			}
			out, err := c.ctl(min(left, 2*time.Second), "--endpoints="+c.client[name], "put", "coterie", "x")
			if err == nil && strings.Contains(out, "OK") {
				return true, time.Since(start), ""
			}
			why = fmt.Sprintf("%s: %s", name, etcdLastLine(out))
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false, 0, why
}

func etcdLastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return zkClip(ls[len(ls)-1])
}

// waitWrite waits until a put through the given voters succeeds.
func (c *etcdCluster) waitWrite(voters []string, limit time.Duration) {
	c.t.Helper()
	if ok, _, why := c.tryPut(voters, limit); !ok {
		var logs []string
		for _, n := range c.names {
			if p := c.procs[n]; p != nil {
				if p.exited() {
					logs = append(logs, "EXITED "+p.tail(20))
				} else {
					logs = append(logs, p.tail(8))
				}
			}
		}
		c.t.Fatalf("the etcd cluster takes no write after %v (%s):\n%s", limit, why, strings.Join(logs, "\n"))
	}
}

// healthy thaws every member and waits until every one of them serves:
// a write through each voter, and the learner reporting its status.
func (c *etcdCluster) healthy(limit time.Duration) {
	c.t.Helper()
	for _, p := range c.procs {
		p.thaw()
	}
	deadline := time.Now().Add(limit)
	for _, name := range c.names {
		if c.procs[name].exited() {
			c.t.Fatalf("etcd member %s exited:\n%s", name, c.procs[name].tail(30))
		}
		for {
			var err error
			var out string
			if name == c.learner {
				out, err = c.ctl(time.Second, "--endpoints="+c.client[name], "endpoint", "status")
			} else {
				out, err = c.ctl(time.Second, "--endpoints="+c.client[name], "put", "coterie", "heal")
			}
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				c.t.Fatalf("etcd member %s does not serve after %v: %v\n%s\n%s", name, limit, err, out, c.procs[name].tail(20))
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// TestRealEtcd runs a 5-member etcd cluster with a learner, reads its
// membership from `etcdctl member list -w json` with coterie's reader,
// and checks failure patterns. etcd 3.4 changes membership one member at
// a time and shows no joint configuration to observe, so joint consensus
// is checked by its definition only (TestEtcdJoint).
func TestRealEtcd(t *testing.T) {
	requireReal(t)
	c := startEtcd(t, 5)
	c.healthy(60 * time.Second)
	out, err := c.ctl(5*time.Second, "--endpoints="+c.client["m1"], "member", "list", "-w", "json")
	if err != nil {
		t.Fatalf("etcdctl member list: %v\n%s", err, out)
	}
	cfg, err := etcdFormat.Parse("member-list.json", []byte(out))
	if err != nil {
		t.Fatalf("coterie does not read etcdctl's member list: %v\n%s", err, out)
	}
	if cfg.N() != 5 || slices.Contains(cfg.Labels, c.learner) {
		t.Fatalf("coterie read voters %v from:\n%s", cfg.Labels, out)
	}
	t.Logf("etcdctl member list -w json:\n%s\ncoterie reads the voters %s", out, strings.Join(cfg.Labels, ", "))
	patterns := [][]string{
		{},
		{"m6"},             // the learner
		{"m1"},             // one voter
		{"m1", "m2"},       // two voters: three of five remain
		{"m1", "m2", "m6"}, // three of six members remain, but three of five voters
		{"m3", "m4", "m5"}, // two voters and the learner: if the learner counted, three of six
		{"m1", "m2", "m3"},
		{"m2", "m3", "m4", "m5"},
		{"m1", "m2", "m3", "m4", "m5"},
	}
	var rows []realRow
	for _, down := range patterns {
		c.healthy(60 * time.Second)
		alive := set.New(cfg.N())
		var liveVoters []string
		for _, name := range c.names {
			if slices.Contains(down, name) {
				c.procs[name].freeze()
				continue
			}
			if v := slices.Index(cfg.Labels, name); v >= 0 {
				alive.Add(v)
				liveVoters = append(liveVoters, name)
			}
		}
		r := realRow{pattern: "down " + strings.Join(down, ","), says: cfg.Writes.HasQuorum(alive)}
		if len(down) == 0 {
			r.pattern = "none down"
		}
		r.did, r.took, r.why = c.tryPut(liveVoters, realWindow(t))
		rows = append(rows, r)
	}
	reportTable(t, "etcd, 5 voters and a learner", rows)
}
