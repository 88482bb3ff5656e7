package lsm

import (
	"fmt"
	"testing"
)

// BenchmarkSwitchHoldingMu times a memtable switch that starts a new WAL,
// the time DB.mu is held for it (every writer waits that long), with the
// WAL written through write(2) and through a mapping (--mmap_write). Each
// switch follows a logged write; the time the DB has between that write
// and the switch (a memtable's worth of writes) is left outside the timer
// by waitWALAhead.
func BenchmarkSwitchHoldingMu(b *testing.B) {
	for _, mmap := range []bool{false, true} {
		b.Run(fmt.Sprintf("mmap_write=%v", mmap), func(b *testing.B) {
			o := testOptions()
			o.MmapWrite = mmap
			o.WriteBufferSize = 4 << 20
			o.MaxWriteBufferNumber = 1 << 20 // no stall: switched memtables are never flushed here
			db := mustOpen(b, b.TempDir(), o)
			defer db.Close()
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				put(b, db, fmt.Sprintf("key%09d", i), "value")
				waitWALAhead(db)
				b.StartTimer()
				db.mu.Lock()
				if err := db.switchMemtable(db.def); err != nil {
					b.Fatal(err)
				}
				db.mu.Unlock()
			}
		})
	}
}
