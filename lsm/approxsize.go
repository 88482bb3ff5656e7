package lsm

// ApproximateSize returns the approximate number of table bytes holding
// the keys from start (inclusive) to limit (exclusive), as RocksDB's
// DB::GetApproximateSizes does for one range with its defaults (tables
// only, memtables not counted): for every table whose key range meets the
// range, the distance between the offsets at which the range's two ends
// would start in it, the offsets read from the table's index
// (sst.Reader.ApproximateOffsetOf). A table wholly inside the range counts
// its whole size. An empty or inverted range is 0. It allocates nothing
// once every table it meets is open.
func (db *DB) ApproximateSize(start, limit []byte) (uint64, error) {
	rs := db.def.reads.get()
	if rs == nil {
		return 0, ErrClosed
	}
	defer rs.unref()
	return db.approximateSize(rs.v, start, limit)
}

func (db *DB) approximateSize(v *version, start, limit []byte) (uint64, error) {
	if compareKeys(start, limit) >= 0 {
		return 0, nil
	}
	var total uint64
	for level, files := range v.levels {
		first := 0
		if level > 0 {
			first = findFile(files, start) // sorted, disjoint: skip those below start
		}
		for _, f := range files[first:] {
			if compareKeys(f.smallest, limit) >= 0 {
				if level > 0 {
					break
				}
				continue
			}
			if compareKeys(f.largest, start) < 0 {
				continue
			}
			n, err := db.tableSpan(f, start, limit)
			if err != nil {
				return 0, err
			}
			total += n
		}
	}
	return total, nil
}

// tableSpan is the approximate byte count of f between start and limit,
// a range that meets f's key range.
func (db *DB) tableSpan(f *fileMeta, start, limit []byte) (uint64, error) {
	var from, to uint64 = 0, f.size
	startInside := compareKeys(start, f.smallest) > 0
	limitInside := compareKeys(limit, f.largest) <= 0
	if startInside || limitInside {
		r, err := db.tableReader(f)
		if err != nil {
			return 0, err
		}
		if startInside {
			from = r.ApproximateOffsetOf(start)
		}
		if limitInside {
			to = r.ApproximateOffsetOf(limit)
		}
		db.releaseTable(r)
	}
	if to <= from {
		return 0, nil
	}
	return to - from, nil
}
