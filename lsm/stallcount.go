package lsm

// Write-stall counts as RocksDB keeps them.
//
// RocksDB counts a stall condition each time it installs a new super
// version (after a memtable switch, a flush or a compaction) while the
// condition holds (ColumnFamilyData::RecalculateWriteStallConditions), the
// first that holds in this order: memtable stop, L0 stop, memtable
// slowdown, L0 slowdown; an L0 condition met while an L0 compaction runs
// also counts as its "_with_compaction" twin. So the "Stalls(count)" line
// says how many times the DB's shape changed while writes were stopped or
// slowed, not how many writes waited. The DB counts the same way:
// countStallConditions runs wherever a new version or memtable is
// published, and a writer that meets a condition (makeRoomForWrite)
// counts it only when it was not counted since the last of those. The
// second rule is for the memtable stop, which here is met by a writer
// about to switch a full memtable, a state no publication sees.

// countStallConditions starts a new counting period and counts the first
// stall condition that holds now (DB.mu held).
func (db *DB) countStallConditions() {
	db.mu.stats.stallCounted = [numStalls]bool{}
	o := db.opts
	l0 := len(db.def.current.levels[0])
	autoCompact := !o.DisableAutoCompactions
	switch {
	case len(db.def.imm) >= max(o.MaxWriteBufferNumber-1, 1) && db.def.mem.full():
		db.countStall(stallMemtableCompaction)
	case autoCompact && o.Level0StopWritesTrigger > 0 && l0 >= o.Level0StopWritesTrigger:
		db.countStall(stallL0NumFiles)
	case o.MaxWriteBufferNumber > 3 && len(db.def.imm) >= o.MaxWriteBufferNumber-2:
		db.countStall(stallMemtableSlowdown)
	case autoCompact && o.Level0SlowdownWritesTrigger > 0 && l0 >= o.Level0SlowdownWritesTrigger:
		db.countStall(stallL0Slowdown)
	}
}

// countStall counts stall kind unless it was counted in this period, and
// with an L0 compaction running also the L0 kinds' twins (DB.mu held).
func (db *DB) countStall(kind int) {
	s := &db.mu.stats
	if s.stallCounted[kind] {
		return
	}
	s.stallCounted[kind] = true
	s.stalls[kind]++
	if kind != stallL0Slowdown && kind != stallL0NumFiles {
		return
	}
	for _, f := range db.def.current.levels[0] {
		if f.compacting {
			if kind == stallL0Slowdown {
				s.stalls[stallL0SlowdownWithCompaction]++
			} else {
				s.stalls[stallL0NumFilesWithCompaction]++
			}
			return
		}
	}
}
