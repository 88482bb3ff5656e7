package dbbench

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
)

// ycsbConfig is YCSB's core workload, by YCSB's property names
// (--recordcount, --readproportion, ...). A negative count or proportion
// and an empty distribution mean the workload's own (ycsbWorkloads), and
// the counts default to --num and --reads.
type ycsbConfig struct {
	recordCount, operationCount         int64
	readProp, updateProp, insertProp    float64
	scanProp, rmwProp                   float64
	requestDistribution                 string
	minScanLength, maxScanLength        int64
	scanLengthDistribution, insertOrder string
	fieldCount, fieldLength             int64
}

// ycsbMix is one workload's operation mix, request distribution and
// longest scan.
type ycsbMix struct {
	read, update, insert, scan, rmw float64
	distribution                    string
	maxScan                         int64
}

// ycsbWorkloads are YCSB's core workloads A to F (its workloads/workload*
// property files): update heavy, read mostly, read only, read latest,
// short ranges, read-modify-write.
var ycsbWorkloads = map[string]ycsbMix{
	"ycsba": {read: 0.5, update: 0.5, distribution: "zipfian"},
	"ycsbb": {read: 0.95, update: 0.05, distribution: "zipfian"},
	"ycsbc": {read: 1, distribution: "zipfian"},
	"ycsbd": {read: 0.95, insert: 0.05, distribution: "latest"},
	"ycsbe": {scan: 0.95, insert: 0.05, distribution: "zipfian", maxScan: 100},
	"ycsbf": {read: 0.5, rmw: 0.5, distribution: "zipfian"},
}

// ycsbRun is a YCSB run resolved against the flags, shared by its threads.
type ycsbRun struct {
	records, ops int64
	mix          ycsbMix
	valueLen     int
	// nextInsert is the next key number to load or insert; lastInserted
	// the highest one acknowledged (YCSB's acknowledged counter, simplified
	// to a maximum).
	nextInsert, lastInserted atomic.Int64
}

// ycsbPlan resolves the workload for benchmark name ("ycsbload" loads).
func (r *runner) ycsbPlan(name string) (*ycsbRun, error) {
	c := &r.cfg.ycsb
	p := &ycsbRun{records: c.recordCount, ops: c.operationCount, mix: ycsbWorkloads[name]}
	if p.records < 0 {
		p.records = r.num
	}
	if p.ops < 0 {
		p.ops = r.reads
	}
	for _, o := range []struct {
		flag float64
		mix  *float64
	}{{c.readProp, &p.mix.read}, {c.updateProp, &p.mix.update}, {c.insertProp, &p.mix.insert},
		{c.scanProp, &p.mix.scan}, {c.rmwProp, &p.mix.rmw}} {
		if o.flag >= 0 {
			*o.mix = o.flag
		}
	}
	if c.requestDistribution != "" {
		p.mix.distribution = c.requestDistribution
	}
	switch {
	case c.maxScanLength >= 0:
		p.mix.maxScan = c.maxScanLength
	case p.mix.maxScan == 0:
		p.mix.maxScan = 1000 // YCSB's default
	}
	switch {
	case name != "ycsbload" && p.mix.distribution != "uniform" && p.mix.distribution != "zipfian" && p.mix.distribution != "latest":
		return nil, fmt.Errorf("ycsb: --requestdistribution=%s: this driver has uniform, zipfian and latest", p.mix.distribution)
	case c.scanLengthDistribution != "uniform" && c.scanLengthDistribution != "zipfian":
		return nil, fmt.Errorf("ycsb: --scanlengthdistribution=%s: want uniform or zipfian", c.scanLengthDistribution)
	case c.insertOrder != "hashed" && c.insertOrder != "ordered":
		return nil, fmt.Errorf("ycsb: --insertorder=%s: want hashed or ordered", c.insertOrder)
	case c.minScanLength < 1 || p.mix.maxScan < c.minScanLength:
		return nil, fmt.Errorf("ycsb: scan lengths from --minscanlength=%d to %d (--maxscanlength) are empty", c.minScanLength, p.mix.maxScan)
	case c.fieldCount < 1 || c.fieldLength < 0:
		return nil, fmt.Errorf("ycsb: --fieldcount=%d --fieldlength=%d", c.fieldCount, c.fieldLength)
	case name != "ycsbload" && p.records < 1:
		return nil, fmt.Errorf("ycsb: %s needs loaded records (--recordcount or --num above 0)", name)
	}
	if sum := p.mix.read + p.mix.update + p.mix.insert + p.mix.scan + p.mix.rmw; name != "ycsbload" && !(sum > 0) {
		return nil, fmt.Errorf("ycsb: the operation proportions of %s sum to %g", name, sum)
	}
	if c.fieldCount*c.fieldLength > mixMaxValue {
		return nil, fmt.Errorf("ycsb: records of --fieldcount=%d * --fieldlength=%d bytes exceed %d", c.fieldCount, c.fieldLength, mixMaxValue)
	}
	p.valueLen = int(c.fieldCount * c.fieldLength)
	if name != "ycsbload" {
		p.nextInsert.Store(p.records)
	}
	p.lastInserted.Store(p.records - 1)
	return p, nil
}

// setupYCSB resolves the run before its threads start, refusing bad
// properties with exit 1.
func setupYCSB(r *runner, s *benchSpec) error {
	p, err := r.ycsbPlan(s.name)
	if err != nil {
		r.out.Flush()
		r.errf("%s\n", err)
		return errExit{err.Error()}
	}
	r.ycsb = p
	return nil
}

// ycsbKey appends YCSB's key for key number n: "user" and the number,
// hashed (FNV-1, YCSB's default insert order) or as is.
func (r *runner) ycsbKey(dst []byte, n int64) []byte {
	if r.cfg.ycsb.insertOrder == "hashed" {
		n = fnvHash64(n)
	}
	return strconv.AppendInt(append(dst[:0], "user"...), n, 10)
}

// benchYCSBLoad is YCSB's load phase (ycsbload): --recordcount records
// (default --num), key numbers 0 up handed out across the threads, each a
// Put of one value of fieldcount*fieldlength bytes (the record's fields).
func benchYCSBLoad(r *runner, t *thread) error {
	p := r.ycsb
	gen := newValueGen(&r.shape, r.valueData)
	var key []byte
	var bytes int64
	for {
		n := p.nextInsert.Add(1) - 1
		if n >= p.records {
			break
		}
		key = r.ycsbKey(key, n)
		val := gen.GenerateN(p.valueLen)
		if err := r.db.Put(key, val, &r.wo); err != nil {
			return fmt.Errorf("put error: %v", err)
		}
		bytes += int64(len(key) + len(val))
		t.stats.finishedOps(1, opWrite)
	}
	t.stats.addBytes(bytes)
	return nil
}

// benchYCSBRun is one of YCSB's core workloads A-F (ycsba ... ycsbf): each
// thread runs --operationcount operations (default --reads), each drawn
// by the workload's proportions: a read (Get), an update (a Put of a new
// record; YCSB's writeallfields), an insert (a Put under the next new key
// number), a scan (Seek, then up to a uniform or Zipfian length of Next
// between --minscanlength and --maxscanlength) or a read-modify-write (Get
// then Put). Keys follow --requestdistribution. The message counts each
// kind and the reads and scans that found their key.
func benchYCSBRun(r *runner, t *thread) error {
	p := r.ycsb
	c := &r.cfg.ycsb
	src := rand.New(rand.NewPCG(uint64(r.seedBase), uint64(t.tid)+1))
	expectedInserts := int64(float64(p.ops) * p.mix.insert * 2)
	chooser := newYCSBChooser(p.mix.distribution, p.records, expectedInserts)
	var scanZipf *zipfian
	if c.scanLengthDistribution == "zipfian" {
		scanZipf = newZipfian(p.mix.maxScan-c.minScanLength+1, 0)
	}
	gen := newValueGen(&r.shape, r.valueData)
	sum := p.mix.read + p.mix.update + p.mix.insert + p.mix.scan + p.mix.rmw
	cut := [4]float64{p.mix.read / sum}
	cut[1] = cut[0] + p.mix.update/sum
	cut[2] = cut[1] + p.mix.insert/sum
	cut[3] = cut[2] + p.mix.scan/sum
	var key []byte
	sink := &getSink{fold: r.foldReads}
	take := sink.take
	var reads, updates, inserts, scans, rmws, found, nbytes int64
	var scanSum uint64
	d := r.newDuration(int64(r.cfg.duration), p.ops)
	for !d.done(1) {
		op := src.Float64()
		switch {
		case op < cut[0] || op >= cut[3]: // read, or read-modify-write
			key = r.ycsbKey(key, chooser.next(src, p.lastInserted.Load()))
			sink.key = key
			ok, err := r.db.Get(key, take)
			if err != nil {
				return fmt.Errorf("Get returned an error: %v", err)
			}
			if ok {
				found++
				nbytes += int64(len(key) + sink.valueLen)
			}
			if op < cut[0] {
				reads++
				t.stats.finishedOps(1, opRead)
				continue
			}
			val := gen.GenerateN(p.valueLen)
			if err := r.db.Put(key, val, &r.wo); err != nil {
				return fmt.Errorf("put error: %v", err)
			}
			nbytes += int64(len(key) + len(val))
			rmws++
			t.stats.finishedOps(1, opUpdate)
		case op < cut[1]: // update
			key = r.ycsbKey(key, chooser.next(src, p.lastInserted.Load()))
			val := gen.GenerateN(p.valueLen)
			if err := r.db.Put(key, val, &r.wo); err != nil {
				return fmt.Errorf("put error: %v", err)
			}
			nbytes += int64(len(key) + len(val))
			updates++
			t.stats.finishedOps(1, opUpdate)
		case op < cut[2]: // insert
			n := p.nextInsert.Add(1) - 1
			key = r.ycsbKey(key, n)
			val := gen.GenerateN(p.valueLen)
			if err := r.db.Put(key, val, &r.wo); err != nil {
				return fmt.Errorf("put error: %v", err)
			}
			for last := p.lastInserted.Load(); n > last && !p.lastInserted.CompareAndSwap(last, n); last = p.lastInserted.Load() {
			}
			nbytes += int64(len(key) + len(val))
			inserts++
			t.stats.finishedOps(1, opWrite)
		default: // scan
			key = r.ycsbKey(key, chooser.next(src, p.lastInserted.Load()))
			length := c.minScanLength + src.Int64N(p.mix.maxScan-c.minScanLength+1)
			if scanZipf != nil {
				length = c.minScanLength + scanZipf.next(src)
			}
			_, hit, b, s, err := seekScan(r.db, key, length, r.foldReads)
			if err != nil {
				return err
			}
			if hit {
				found++
			}
			nbytes += b
			scanSum += s
			scans++
			t.stats.finishedOps(1, opSeek)
		}
	}
	t.stats.reads += reads + rmws + scans
	t.stats.found += found
	t.stats.checksum += sink.checksum + scanSum
	t.stats.addBytes(nbytes)
	t.stats.addMessage(fmt.Sprintf("( reads:%d updates:%d inserts:%d scans:%d rmws:%d found:%d)",
		reads, updates, inserts, scans, rmws, found))
	return nil
}
