package construct

import "fmt"

// BilliardCell returns the 1-based cell (i, j) of the modified q×q grid
// that holds site s (0-based), by Proposition 2 of Agrawal, Eğecioğlu and
// El Abbadi: the cells with i+j odd, numbered row-major. It returns an
// error if q is not a valid order or s is not one of its sites.
func BilliardCell(q, s int) (i, j int, err error) {
	if err := billiardCheck(q); err != nil {
		return 0, 0, err
	}
	if s < 0 || s >= BilliardN(q) {
		return 0, 0, fmt.Errorf("construct: billiard: site %d is out of range 1..%d", s+1, BilliardN(q))
	}
	i, j = billiardCell(q, s)
	return i, j, nil
}

// BilliardPath returns the q sites (0-based) of the broken billiard path
// of site s in path order, the order in which the paper's Fig. 6 draws it:
// the quorum that [Billiard] gives site s. It returns an error if q is not
// a valid order or s is not one of its sites.
func BilliardPath(q, s int) ([]int, error) {
	if _, _, err := BilliardCell(q, s); err != nil {
		return nil, err
	}
	return billiardPath(q, s, make([]int, 0, q)), nil
}
