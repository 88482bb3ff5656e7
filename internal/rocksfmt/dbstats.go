package rocksfmt

import (
	"fmt"
	"io"
	"time"
)

// WriteCounters are the DB-wide write figures of RocksDB's "** DB Stats **"
// lines, cumulative since the statistics started.
type WriteCounters struct {
	Writes       uint64 // write requests (Put, Delete, batch)
	Keys         uint64 // keys those requests wrote
	CommitGroups uint64 // group commits: writes done by a group's leader
	IngestBytes  uint64 // user bytes written
	WALWrites    uint64 // writes that went to the WAL
	WALSyncs     uint64
	WALBytes     uint64
	StallMicros  uint64 // time writers spent stalled
}

// DBStatsBaseline is what the previous dump left for the interval lines; the
// zero value starts the interval at the beginning.
type DBStatsBaseline struct {
	Uptime time.Duration
	WriteCounters
}

// WriteDBStats writes RocksDB 7.8.3's "** DB Stats **" section
// (InternalStats::DumpDBStats): uptime, then writes, WAL and stall lines,
// cumulative and for the interval since prev. It returns the next baseline.
//
//	Cumulative writes: 200K writes, 200K keys, 200K commit groups, 1.0 writes per commit group, ingest: 0.02 GB, 29.65 MB/s
//	Interval writes: 200K writes, 200K keys, 200K commit groups, 1.0 writes per commit group, ingest: 24.99 MB, 29.65 MB/s
//
// The interval's ingest is in MB, the cumulative one's in GB, as in RocksDB.
func WriteDBStats(w io.Writer, uptime time.Duration, cur WriteCounters, prev DBStatsBaseline) DBStatsBaseline {
	secs := uptime.Seconds()
	intervalSecs := secs - prev.Uptime.Seconds()
	fmt.Fprintf(w, "\n** DB Stats **\nUptime(secs): %.1f total, %.1f interval\n", secs, intervalSecs)
	writeDBStatsLines(w, "Cumulative", cur, secs, gib, "GB")
	sub := func(a, b uint64) uint64 { return a - min(a, b) }
	p := prev.WriteCounters
	in := WriteCounters{
		Writes: sub(cur.Writes, p.Writes), Keys: sub(cur.Keys, p.Keys), CommitGroups: sub(cur.CommitGroups, p.CommitGroups),
		IngestBytes: sub(cur.IngestBytes, p.IngestBytes), WALWrites: sub(cur.WALWrites, p.WALWrites),
		WALSyncs: sub(cur.WALSyncs, p.WALSyncs), WALBytes: sub(cur.WALBytes, p.WALBytes),
		StallMicros: sub(cur.StallMicros, p.StallMicros),
	}
	writeDBStatsLines(w, "Interval", in, intervalSecs, mib, "MB")
	return DBStatsBaseline{Uptime: uptime, WriteCounters: cur}
}

// writeDBStatsLines writes the "<kind> writes", "<kind> WAL" and "<kind>
// stall" lines; the ingest is printed in ingestUnit (unit bytes).
func writeDBStatsLines(w io.Writer, kind string, c WriteCounters, secs, unit float64, ingestUnit string) {
	fmt.Fprintf(w, "%s writes: %s writes, %s keys, %s commit groups, %.1f writes per commit group, ingest: %.2f %s, %.2f MB/s\n",
		kind, Count(int64(c.Writes)), Count(int64(c.Keys)), Count(int64(c.CommitGroups)),
		float64(c.Writes)/max(1, float64(c.CommitGroups)), float64(c.IngestBytes)/unit, ingestUnit, perSecond(c.IngestBytes, secs))
	fmt.Fprintf(w, "%s WAL: %s writes, %s syncs, %.2f writes per sync, written: %.2f GB, %.2f MB/s\n",
		kind, Count(int64(c.WALWrites)), Count(int64(c.WALSyncs)),
		float64(c.WALWrites)/max(1, float64(c.WALSyncs)), float64(c.WALBytes)/gib, perSecond(c.WALBytes, secs))
	fmt.Fprintf(w, "%s stall: %s H:M:S, %.1f percent\n",
		kind, HMS(time.Duration(c.StallMicros)*time.Microsecond), float64(c.StallMicros)/1e4/max(secs, 0.001))
}
