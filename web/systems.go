package web

import (
	"context"
	"errors"
	"net/http"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/systems"
)

// maxConfigQuorums bounds the quorums listed from an uploaded system
// configuration.
const maxConfigQuorums = 100000

// uploadConfig answers an upload that is a replicated system's
// configuration (ZooKeeper, etcd, Cassandra, MongoDB, Flexible Paxos; see
// package systems): a coterie is analysed
// as a list of quorums, a configuration whose reads and writes differ as
// a read-write system.
func (s *Server) uploadConfig(ctx context.Context, w http.ResponseWriter, r *http.Request, name string, data []byte) {
	sf, _ := systems.Sniff(name, data)
	cfg, err := sf.Parse(name, data)
	if err != nil {
		fail(w, http.StatusBadRequest, "%s", err.Error())
		return
	}
	if cfg.N() > s.o.MaxNodes {
		fail(w, http.StatusBadRequest, "%s: %d nodes, more than the explorer's limit of %d (use the command line)", name, cfg.N(), s.o.MaxNodes)
		return
	}
	// A configuration that says where its nodes are is analysed as a
	// read-write system, whose report shows the failure domains.
	nodes := configNodes(cfg.Domains)
	if k, ok := cfg.Threshold(); ok {
		f := set.NewThreshold(cfg.N(), k)
		f.Labels = cfg.Labels
		if nodes != nil {
			s.uploadRWFile(ctx, w, r, name, &format.RWFile{N: cfg.N(), Labels: cfg.Labels, Reads: expr.FromFamily(f), Writes: expr.FromFamily(f),
				ReadList: f, WriteList: f, Nodes: nodes})
			return
		}
		s.analyzeAndReply(ctx, w, r, name, set.System{Family: f})
		return
	}
	if !cfg.IsCoterie() && cfg.ReadExpr != nil {
		s.uploadRWFile(ctx, w, r, name, &format.RWFile{N: cfg.N(), Labels: cfg.Labels, Reads: cfg.ReadExpr, Writes: cfg.WriteExpr, Nodes: nodes})
		return
	}
	reads, writes, err := cfg.Families(ctx, maxConfigQuorums)
	if errors.Is(err, set.ErrTooMany) {
		fail(w, http.StatusBadRequest, "%s: more than %d quorums to list (use the command line)", name, maxConfigQuorums)
		return
	}
	if err != nil {
		fail(w, http.StatusBadRequest, "%s: %v", name, err)
		return
	}
	if cfg.IsCoterie() && nodes == nil {
		s.analyzeAndReply(ctx, w, r, name, set.System{Family: reads})
		return
	}
	s.uploadRWFile(ctx, w, r, name, &format.RWFile{N: cfg.N(), Labels: cfg.Labels,
		Reads: expr.FromFamily(reads), Writes: expr.FromFamily(writes), ReadList: reads, WriteList: writes, Nodes: nodes})
}
