package jsonreport

import (
	"fmt"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/set"
)

// CheckConfig is the report of `coterie check-config --json`: the verdict
// on a replicated system's configuration, its nodes by their labels.
type CheckConfig struct {
	File            string             `json:"file"`
	System          string             `json:"system"`
	N               int                `json:"n"`
	Labels          []string           `json:"labels"`
	Coterie         bool               `json:"coterie"`
	Safe            bool               `json:"safe"`
	Witness         *ConfigWitness     `json:"witness,omitempty"`
	ReadResilience  int                `json:"read_resilience"`
	WriteResilience int                `json:"write_resilience"`
	ReadKill        []string           `json:"read_kill"`
	WriteKill       []string           `json:"write_kill"`
	Domains         []ConfigDomain     `json:"domains,omitempty"`
	DomainRes       *ConfigDomainRes   `json:"domain_resilience,omitempty"`
	P               float64            `json:"p"`
	Availability    ConfigAvailability `json:"availability"`
	// AvailabilityAt holds the availability at each --p when there are
	// several (Availability is the first).
	AvailabilityAt []ConfigAvailability `json:"availability_at,omitempty"`
	Warning        string               `json:"warning,omitempty"`
	Notes          []string             `json:"notes"`
}

// ConfigWitness is a read (or phase-1) quorum and a write (phase-2)
// quorum that do not meet.
type ConfigWitness struct {
	Read  []string `json:"read"`
	Write []string `json:"write"`
}

// ConfigDomain says whether reads and writes go on when one outermost
// domain (a datacentre) is lost.
type ConfigDomain struct {
	Domain string `json:"domain"`
	Reads  bool   `json:"reads"`
	Writes bool   `json:"writes"`
}

// ConfigDomainRes is how many outermost domains may be lost with reads
// (writes) going on, and a smallest set of them that stops each.
type ConfigDomainRes struct {
	Reads     int      `json:"reads"`
	Writes    int      `json:"writes"`
	ReadKill  []string `json:"read_kill"`
	WriteKill []string `json:"write_kill"`
}

// ConfigAvailability is the availability of reads and writes at p.
type ConfigAvailability struct {
	P      float64 `json:"p,omitempty"`
	Reads  float64 `json:"reads"`
	Writes float64 `json:"writes"`
	Exact  bool    `json:"exact"`
}

// FromCheckConfig is the report on res, the verdict on the configuration
// of the file named file at the probabilities ps (the first is P).
func FromCheckConfig(file string, res *analysis.Config, ps []float64) *CheckConfig {
	cfg := res.Cfg
	v := &CheckConfig{File: file, System: cfg.System, N: cfg.N(), Labels: cfg.Labels, Coterie: cfg.IsCoterie(), P: ps[0], Notes: []string{}}
	names := func(q *set.Set) []string {
		out := []string{}
		if q != nil {
			for u := range q.All() {
				out = append(out, cfg.Labels[u])
			}
		}
		return out
	}
	v.Safe = res.Safe
	if !res.Safe {
		v.Witness = &ConfigWitness{Read: names(res.Meet.Read), Write: names(res.Meet.Write)}
	}
	v.ReadResilience, v.ReadKill = res.Read.F, names(res.Read.Witness)
	v.WriteResilience, v.WriteKill = res.Write.F, names(res.Write.Witness)
	if dl := res.Domains; dl != nil {
		for i, d := range dl.Domains {
			v.Domains = append(v.Domains, ConfigDomain{Domain: d, Reads: dl.Reads[i], Writes: dl.Writes[i]})
		}
		v.DomainRes = &ConfigDomainRes{Reads: dl.ReadResilience, Writes: dl.WriteResilience, ReadKill: dl.ReadKill, WriteKill: dl.WriteKill}
	}
	av := res.Availability
	v.Availability = ConfigAvailability{Reads: av[0].Reads, Writes: av[0].Writes, Exact: av[0].Exact}
	if len(av) > 1 {
		for _, a := range av {
			v.AvailabilityAt = append(v.AvailabilityAt, ConfigAvailability{P: a.P, Reads: a.Reads, Writes: a.Writes, Exact: a.Exact})
		}
	}
	for i, n := range cfg.Notes {
		text := n.Text
		if n.Line > 0 {
			text = fmt.Sprintf("%s (line %d)", text, n.Line)
		}
		if i == 0 {
			v.Warning = text
		}
		v.Notes = append(v.Notes, text)
	}
	return v
}
