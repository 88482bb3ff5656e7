package pebble

import (
	"fmt"
	"strings"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// This file writes the RocksDB-layout part of "rocksdb.stats": the
// compaction-stats table and the summary lines tools/benchmark.sh greps
// (ref: RocksDB 7.8.3 db/internal_stats.cc). The layouts are RocksDB's; the
// figures come from Pebble's metrics where Pebble keeps them and from this
// package's write counters otherwise. Figures neither keeps are printed as 0:
// per-level compaction time and counts, CPU time, key in/drop counts, and
// commit groups (printed equal to writes: one write per group).

const (
	gib = 1 << 30
	mib = 1 << 20
)

// statsSnapshot holds the cumulative figures that "Interval" lines subtract.
type statsSnapshot struct {
	at                           time.Time
	writes, keys, bytesIn, syncs int64
	walBytes                     uint64
	flushBytes                   uint64
	compactWrite, compactRead    uint64
	compactTime                  time.Duration
	compactCount                 int64
	stalls                       stallSnapshot
}

func (d *DB) snapshot(m *pebble.Metrics) statsSnapshot {
	s := statsSnapshot{
		at:           time.Now(),
		writes:       d.writes.Load(),
		keys:         d.keys.Load(),
		bytesIn:      d.bytesIn.Load(),
		syncs:        d.syncs.Load(),
		walBytes:     m.WAL.BytesIn,
		compactTime:  m.Compact.Duration,
		compactCount: m.Compact.Count + m.Flush.Count,
		stalls:       d.stalls.snapshot(),
	}
	for l := range m.Levels {
		lm := &m.Levels[l]
		s.flushBytes += lm.TableBytesFlushed + lm.BlobBytesFlushed
		s.compactWrite += lm.TableBytesCompacted + lm.BlobBytesCompacted
		s.compactRead += lm.TableBytesIn + lm.TableBytesRead
	}
	return s
}

// rocksdbStats renders the RocksDB-layout block and starts a new interval.
func (d *DB) rocksdbStats(m *pebble.Metrics) string {
	d.statsMu.Lock()
	prev := d.lastStats
	cur := d.snapshot(m)
	d.lastStats = cur
	d.statsMu.Unlock()

	uptime := cur.at.Sub(d.opened).Seconds()
	interval := cur.at.Sub(prev.at).Seconds()
	var b strings.Builder
	writeLevelTable(&b, m, cur, prev)
	fmt.Fprintf(&b, "\nBlob file count: %d, total size: %.1f GB, garbage size: %.1f GB, space amp: %.1f\n\n",
		m.BlobFiles.LiveCount, float64(m.BlobFiles.LiveSize)/gib,
		float64(m.BlobFiles.LiveSize-min(m.BlobFiles.ReferencedValueSize, m.BlobFiles.LiveSize))/gib,
		spaceAmp(m.BlobFiles.LiveSize, m.BlobFiles.ReferencedValueSize))
	fmt.Fprintf(&b, "Uptime(secs): %.1f total, %.1f interval\n", uptime, interval)
	fmt.Fprintf(&b, "Flush(GB): cumulative %.3f, interval %.3f\n",
		float64(cur.flushBytes)/gib, float64(cur.flushBytes-prev.flushBytes)/gib)
	writeCompactionLine(&b, "Cumulative", cur.compactWrite, cur.compactRead, cur.compactTime, uptime)
	writeCompactionLine(&b, "Interval", cur.compactWrite-prev.compactWrite,
		cur.compactRead-prev.compactRead, cur.compactTime-prev.compactTime, interval)
	st := cur.stalls
	fmt.Fprintf(&b, "Stalls(count): 0 level0_slowdown, 0 level0_slowdown_with_compaction, "+
		"%d level0_numfiles, 0 level0_numfiles_with_compaction, 0 stop for pending_compaction_bytes, "+
		"0 slowdown for pending_compaction_bytes, %d memtable_compaction, 0 memtable_slowdown, "+
		"interval %d total count\n", st.l0Files, st.memtable, st.count()-prev.stalls.count())

	b.WriteString("\n** DB Stats **\n")
	fmt.Fprintf(&b, "Uptime(secs): %.1f total, %.1f interval\n", uptime, interval)
	writeWriteLines(&b, "Cumulative", cur.writes, cur.keys, cur.bytesIn, cur.syncs, cur.walBytes,
		d.disableWAL, st.total, uptime)
	writeWriteLines(&b, "Interval", cur.writes-prev.writes, cur.keys-prev.keys, cur.bytesIn-prev.bytesIn,
		cur.syncs-prev.syncs, cur.walBytes-prev.walBytes, d.disableWAL, st.total-prev.stalls.total, interval)
	return b.String()
}

func spaceAmp(live, referenced uint64) float64 {
	if referenced == 0 {
		return 0
	}
	return float64(live) / float64(referenced)
}

const levelHeader = "Level    Files   Size     Score Read(GB)  Rn(GB) Rnp1(GB) Write(GB) Wnew(GB) Moved(GB) " +
	"W-Amp Rd(MB/s) Wr(MB/s) Comp(sec) CompMergeCPU(sec) Comp(cnt) Avg(sec) KeyIn KeyDrop Rblob(GB) Wblob(GB)"

// levelRow is one row of the compaction-stats table, in bytes and seconds.
type levelRow struct {
	files                  int64
	size                   uint64
	score                  float64
	rn, rnp1, write, moved uint64
	rblob, wblob           uint64
	compSec                float64
	count                  int64
}

// writeLevelTable writes the "** Compaction Stats [default] **" table: one
// row per non-empty level, then Sum and Int. RocksDB attributes compaction
// traffic to the output level, as Pebble's LevelMetrics do: Rn is what came
// in from the level above (TableBytesIn), Rnp1 what was read from the level
// itself (TableBytesRead).
func writeLevelTable(b *strings.Builder, m *pebble.Metrics, cur, prev statsSnapshot) {
	b.WriteString("\n** Compaction Stats [default] **\n")
	b.WriteString(levelHeader + "\n")
	b.WriteString(strings.Repeat("-", len(levelHeader)) + "\n")
	var sum levelRow
	for l := range m.Levels {
		lm := &m.Levels[l]
		row := levelRow{
			files: lm.TablesCount,
			size:  uint64(lm.TablesSize),
			score: lm.Score,
			rn:    lm.TableBytesIn,
			rnp1:  lm.TableBytesRead,
			write: lm.TableBytesFlushed + lm.TableBytesCompacted,
			moved: lm.TableBytesMoved,
			rblob: lm.BlobBytesReadEstimate,
			wblob: lm.BlobBytesFlushed + lm.BlobBytesCompacted,
		}
		if l == 0 {
			row.count = m.Flush.Count
		}
		sum.files += row.files
		sum.size += row.size
		sum.rn += row.rn
		sum.rnp1 += row.rnp1
		sum.write += row.write
		sum.moved += row.moved
		sum.rblob += row.rblob
		sum.wblob += row.wblob
		if row.files == 0 && row.write == 0 && row.rn == 0 {
			continue // RocksDB prints only levels with files or traffic
		}
		writeLevelRow(b, fmt.Sprintf("L%d", l), row, 0)
	}
	sum.compSec = cur.compactTime.Seconds()
	sum.count = cur.compactCount
	writeLevelRow(b, "Sum", sum, sum.compSec)
	in := levelRow{
		write:   cur.flushBytes + cur.compactWrite - prev.flushBytes - prev.compactWrite,
		rn:      cur.compactRead - prev.compactRead,
		compSec: (cur.compactTime - prev.compactTime).Seconds(),
		count:   cur.compactCount - prev.compactCount,
	}
	writeLevelRow(b, "Int", in, in.compSec)
}

// writeLevelRow prints a row with RocksDB's PrintLevelStats format, e.g.
// "  L0      2/0    1.23 MB   0.5 ..." (22 whitespace-separated fields,
// the size being two of them). secs is the time the MB/s columns divide by.
func writeLevelRow(b *strings.Builder, name string, r levelRow, secs float64) {
	read := r.rn + r.rnp1
	wamp := 0.0
	if r.rn > 0 {
		wamp = float64(r.write) / float64(r.rn)
	}
	rd, wr, avg := 0.0, 0.0, 0.0
	if secs > 0 {
		rd = float64(read) / mib / secs
		wr = float64(r.write) / mib / secs
	}
	if r.count > 0 {
		avg = r.compSec / float64(r.count)
	}
	wnew := r.write - min(r.rnp1, r.write)
	fmt.Fprintf(b, "%4s %6d/%-3d %8s %5.1f %8.1f %7.1f %8.1f %9.1f %8.1f %9.1f %5.1f %8.1f %8.1f %9.2f %9.2f %10d %9.3f %7s %7s %8.1f %8.1f\n",
		name, r.files, 0, rocksfmt.Bytes(r.size), r.score,
		float64(read)/gib, float64(r.rn)/gib, float64(r.rnp1)/gib, float64(r.write)/gib,
		float64(wnew)/gib, float64(r.moved)/gib, wamp, rd, wr, r.compSec, 0.0, r.count, avg,
		"0", "0", float64(r.rblob)/gib, float64(r.wblob)/gib)
}

// writeCompactionLine writes "<kind> compaction: 0.00 GB write, 0.00 MB/s
// write, 0.00 GB read, 0.00 MB/s read, 0.0 seconds".
func writeCompactionLine(b *strings.Builder, kind string, write, read uint64, d time.Duration, secs float64) {
	wr, rd := 0.0, 0.0
	if secs > 0 {
		wr = float64(write) / mib / secs
		rd = float64(read) / mib / secs
	}
	fmt.Fprintf(b, "%s compaction: %.2f GB write, %.2f MB/s write, %.2f GB read, %.2f MB/s read, %.1f seconds\n",
		kind, float64(write)/gib, wr, float64(read)/gib, rd, d.Seconds())
}

// writeWriteLines writes the "<kind> writes", "<kind> WAL" and
// "<kind> stall" lines of RocksDB's DB stats.
func writeWriteLines(b *strings.Builder, kind string, writes, keys, bytesIn, syncs int64, walBytes uint64,
	walOff bool, stall time.Duration, secs float64) {
	perSec := func(n float64) float64 {
		if secs <= 0 {
			return 0
		}
		return n / mib / secs
	}
	groups := writes
	perGroup := 0.0
	if groups > 0 {
		perGroup = float64(writes) / float64(groups)
	}
	fmt.Fprintf(b, "%s writes: %s writes, %s keys, %s commit groups, %.1f writes per commit group, ingest: %.2f GB, %.2f MB/s\n",
		kind, rocksfmt.Count(writes), rocksfmt.Count(keys), rocksfmt.Count(groups), perGroup,
		float64(bytesIn)/gib, perSec(float64(bytesIn)))
	walWrites := writes
	if walOff {
		walWrites, walBytes = 0, 0
	}
	// RocksDB divides by syncs+1, so no sync still gives a finite figure.
	fmt.Fprintf(b, "%s WAL: %s writes, %s syncs, %.2f writes per sync, written: %.2f GB, %.2f MB/s\n",
		kind, rocksfmt.Count(walWrites), rocksfmt.Count(syncs), float64(walWrites)/float64(syncs+1),
		float64(walBytes)/gib, perSec(float64(walBytes)))
	pct := 0.0
	if secs > 0 {
		pct = stall.Seconds() / secs * 100
	}
	fmt.Fprintf(b, "%s stall: %s H:M:S, %.1f percent\n", kind, rocksfmt.HMS(stall), pct)
}
