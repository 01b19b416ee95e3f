package systems

// zookeeperFormat is not read yet.
var zookeeperFormat = Format{
	Name:  "zookeeper",
	Sniff: func(string, []byte) bool { return false },
	Parse: func(name string, _ []byte) (*Config, error) {
		return nil, syntaxErrorf(name, 0, "zookeeper configurations are not read yet")
	},
}
