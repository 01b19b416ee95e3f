package rw

import "github.com/coterie-dev/coterie/set"

func complement(s *set.Set, n int) *set.Set { return new(set.Set).Complement(s, n) }
