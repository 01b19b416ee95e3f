package systems

// etcdFormat is not read yet.
var etcdFormat = Format{
	Name:  "etcd",
	Sniff: func(string, []byte) bool { return false },
	Parse: func(name string, _ []byte) (*Config, error) {
		return nil, syntaxErrorf(name, 0, "etcd configurations are not read yet")
	},
}
