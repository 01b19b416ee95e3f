package protocol

import "time"

// SnapshotSaver paces the saves of a running exploration (its Save is
// an [ExploreShard].Save): Write is called at once when nothing is saved
// yet (so that a checkpoint that cannot be written is known before the
// work), then at most every Every or twenty times as long as the last
// write took (a large search is large to write), and always when the run
// ends; never for a snapshot the checkpoint holds already. A first write
// that fails stops the run (Err holds it); a later one is passed to
// Failed, if not nil, and the search goes on without saving, its result
// being worth more than the checkpoint.
type SnapshotSaver struct {
	Write  func(*ExploreSnapshot) error
	Failed func(error)
	Every  time.Duration

	// Held says whether the checkpoint holds a search, and Finished,
	// States and Expanded which.
	Held             bool
	Finished         bool
	States, Expanded int
	// Err is the error of a first write, which stopped the run.
	Err error

	last   time.Time
	took   time.Duration
	failed bool
}

// NewSnapshotSaver returns a saver that writes with write; held says
// that the checkpoint holds a search already, with these counts (a run
// resumed from it).
func NewSnapshotSaver(write func(*ExploreSnapshot) error, every time.Duration, held, finished bool, states, expanded int) *SnapshotSaver {
	return &SnapshotSaver{Write: write, Every: every, Held: held, Finished: finished, States: states, Expanded: expanded, last: time.Now()}
}

// Save is the run's [ExploreShard].Save.
func (v *SnapshotSaver) Save(sn *ExploreSnapshot) error {
	switch {
	case v.failed:
		return nil
	case v.Held && sn.States == v.States && sn.Expanded == v.Expanded && sn.Finished == v.Finished:
		return nil // the checkpoint holds this already
	case v.Held && !sn.End && time.Since(v.last) < max(v.Every, 20*v.took):
		return nil
	}
	start := time.Now()
	if err := v.Write(sn); err != nil {
		if !v.Held {
			v.Err = err
			return err
		}
		v.failed = true
		if v.Failed != nil {
			v.Failed(err)
		}
		return nil
	}
	v.last, v.took = time.Now(), time.Since(start)
	v.Held, v.States, v.Expanded, v.Finished = true, sn.States, sn.Expanded, sn.Finished
	return nil
}
