package jsonreport

import "github.com/coterie-dev/coterie/construct"

// GenerateKind is one construction of `coterie generate --list --json`
// (docs/formats.md): its name, summary, source and parameters.
type GenerateKind struct {
	Name    string          `json:"name"`
	Summary string          `json:"summary"`
	Source  string          `json:"source"`
	Params  []GenerateParam `json:"params"`
}

// GenerateParam is a parameter of a construction: its type is "int",
// "bool" or "string", and an int's range is written as Param.Range does.
type GenerateParam struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Usage    string `json:"usage"`
	Default  any    `json:"default,omitempty"`
	Required bool   `json:"required,omitempty"`
	Range    string `json:"range,omitempty"`
}

// NewGenerateKind is the entry of spec.
func NewGenerateKind(spec construct.Spec) GenerateKind {
	k := GenerateKind{Name: spec.Name, Summary: spec.Summary, Source: spec.Source, Params: []GenerateParam{}}
	for _, p := range spec.Params {
		q := GenerateParam{Name: p.Name, Usage: p.Usage, Default: p.Default, Required: p.Required}
		switch p.Type {
		case construct.Int:
			q.Type, q.Range = "int", p.Range()
		case construct.Bool:
			q.Type = "bool"
		case construct.String:
			q.Type = "string"
		}
		k.Params = append(k.Params, q)
	}
	return k
}
