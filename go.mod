module github.com/coterie-dev/coterie

go 1.24.0

require github.com/bits-and-blooms/bitset v1.29.0

require github.com/crillab/gophersat v1.4.0 // indirect
