package protocol

import "slices"

// specs lists every protocol, sorted by name.
var specs = []Spec{hkSpec, maekawaSpec, maekawaFixedSpec, orderedSpec, ricartSpec}

// Specs returns every registered protocol, sorted by name.
func Specs() []Spec { return slices.Clone(specs) }

// Lookup returns the protocol called name.
func Lookup(name string) (Spec, bool) {
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i], true
}

// Names returns the names of the registered protocols, sorted.
func Names() []string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}
