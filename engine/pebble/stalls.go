package pebble

import (
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// stallCounters records the write stalls Pebble reports through its event
// listener. Stalls are rare (at most a few per memtable flush), so a mutex is
// cheap here.
type stallCounters struct {
	mu       sync.Mutex
	memtable int64 // "memtable count limit reached": RocksDB's memtable_compaction stop
	l0Files  int64 // "L0 file count limit exceeded": RocksDB's level0_numfiles stop
	other    int64
	began    time.Time // zero when no stall is in progress
	total    time.Duration
}

// listen hooks the counters into l.
func (s *stallCounters) listen(l *pebble.EventListener) {
	l.WriteStallBegin = func(info pebble.WriteStallBeginInfo) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch info.Reason {
		case "memtable count limit reached":
			s.memtable++
		case "L0 file count limit exceeded":
			s.l0Files++
		default:
			s.other++
		}
		s.began = time.Now()
	}
	l.WriteStallEnd = func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.began.IsZero() {
			s.total += time.Since(s.began)
			s.began = time.Time{}
		}
	}
}

// stallSnapshot is a copy of the counters at one moment.
type stallSnapshot struct {
	memtable, l0Files, other int64
	total                    time.Duration // includes a stall still in progress
}

func (s *stallCounters) snapshot() stallSnapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := stallSnapshot{memtable: s.memtable, l0Files: s.l0Files, other: s.other, total: s.total}
	if !s.began.IsZero() {
		snap.total += time.Since(s.began)
	}
	return snap
}
