package lsm

import "sort"

// Snapshot is a consistent read view at one sequence number. Compactions keep
// every version a live snapshot can see.
type Snapshot struct {
	db  *DB
	seq uint64
}

// snapshotList holds live snapshots (DB.mu held).
type snapshotList struct {
	live map[*Snapshot]struct{}
}

func (l *snapshotList) add(s *Snapshot) {
	if l.live == nil {
		l.live = map[*Snapshot]struct{}{}
	}
	l.live[s] = struct{}{}
}

// seqs returns the live snapshot sequences, ascending.
func (l *snapshotList) seqs() []uint64 {
	if len(l.live) == 0 {
		return nil
	}
	out := make([]uint64, 0, len(l.live))
	for s := range l.live {
		out = append(out, s.seq)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// NewSnapshot pins the current sequence.
func (db *DB) NewSnapshot() *Snapshot {
	db.mu.Lock()
	defer db.mu.Unlock()
	s := &Snapshot{db: db, seq: db.visibleSeq.Load()}
	db.mu.snaps.add(s)
	return s
}

// Seq is the snapshot's sequence number.
func (s *Snapshot) Seq() uint64 { return s.seq }

// Release lets compactions drop versions only this snapshot needed.
func (s *Snapshot) Release() {
	s.db.mu.Lock()
	delete(s.db.mu.snaps.live, s)
	s.db.mu.Unlock()
}

// Get looks key up as of the snapshot.
func (s *Snapshot) Get(key []byte, fn func(value []byte)) (bool, error) {
	return s.db.get(s.db.def, key, s.seq, fn)
}
