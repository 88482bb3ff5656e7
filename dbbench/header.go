package dbbench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// printEnvironment writes db_bench's stderr block: the engine's version line,
// the ctime-style Date (tools/benchmark.sh parses it), and on Linux the CPU
// count/model and cache size from /proc/cpuinfo.
func printEnvironment(w io.Writer, versionLine string, now time.Time) {
	fmt.Fprintf(w, "%s\n", versionLine)
	fmt.Fprintf(w, "Date:       %s\n", ctime(now))
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return
	}
	defer f.Close()
	n, model, cache := cpuInfo(f)
	fmt.Fprintf(w, "CPU:        %d * %s\n", n, model)
	fmt.Fprintf(w, "CPUCache:   %s\n", cache)
}

// cpuInfo counts "model name" lines and keeps the last model and cache size.
func cpuInfo(r io.Reader) (n int, model, cache string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		i := strings.IndexByte(line, ':')
		if i < 0 {
			continue
		}
		key := strings.TrimSpace(line[:i])
		val := strings.TrimSpace(line[i+1:])
		switch key {
		case "model name":
			n++
			model = val
		case "cache size":
			cache = val
		}
	}
	return n, model, cache
}

// cpuModelName is the CPU model of /proc/cpuinfo, "" where there is none.
func cpuModelName() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	_, model, _ := cpuInfo(f)
	return model
}

// ctime formats t like C's ctime() without the newline:
// "Mon Nov 30 00:44:13 2026", the day of month padded with a space.
func ctime(t time.Time) string { return t.Format("Mon Jan _2 15:04:05 2006") }

// memtablerepIDs maps --memtablerep spellings to the factory id db_bench
// prints on its Memtablerep line.
func memtablerepID(rep string, lookahead int32) string {
	name, arg, hasArg := strings.Cut(rep, ":")
	switch strings.ToLower(name) {
	case "skip_list", "skiplist", "skiplistfactory":
		if hasArg && arg != "" {
			return "SkipListFactory:" + arg
		}
		if lookahead > 0 {
			return fmt.Sprintf("SkipListFactory:%d", lookahead)
		}
		return "SkipListFactory"
	case "vector", "vectorrepfactory":
		return "VectorRepFactory"
	case "prefix_hash", "hashskiplistrepfactory":
		return "HashSkipListRepFactory"
	case "hash_linkedlist", "hashlinklistrepfactory":
		return "HashLinkListRepFactory"
	case "offset_skiplist", "offsetskiplist":
		return "OffsetSkipList"
	case "cspp", "csppmemtab":
		return "CSPPMemTab"
	}
	return rep
}

// printHeader writes the stdout header from "Keys:" through the dashes.
func (r *runner) printHeader(warnings []string) {
	c := &r.cfg
	w := r.out
	fmt.Fprintf(w, "Keys:       %d bytes each (+ %d bytes user-defined timestamp)\n", c.keySize, c.userTimestampSize)
	avgValue := c.valueSize
	if c.valueDist == "fixed" {
		fmt.Fprintf(w, "Values:     %d bytes each (%d bytes after compression)\n", avgValue, int(float64(avgValue)*c.compressionRatio+0.5))
	} else {
		avgValue = (c.valueSizeMin + c.valueSizeMax) / 2
		fmt.Fprintf(w, "Values:     %d avg bytes each (%d bytes after compression)\n", avgValue, int(float64(avgValue)*c.compressionRatio+0.5))
		fmt.Fprintf(w, "Values Distribution: %s (min: %d, max: %d)\n", c.valueDistName, c.valueSizeMin, c.valueSizeMax)
	}
	fmt.Fprintf(w, "Entries:    %d\n", c.num)
	fmt.Fprintf(w, "Prefix:    %d bytes\n", c.prefixSize)
	fmt.Fprintf(w, "Keys per prefix:    %d\n", c.keysPerPrefix)
	fmt.Fprintf(w, "RawSize:    %.1f MB (estimated)\n", float64(int64(c.keySize+avgValue)*c.num)/1048576.0)
	fmt.Fprintf(w, "FileSize:   %.1f MB (estimated)\n", (float64(c.keySize)+float64(avgValue)*c.compressionRatio)*float64(c.num)/1048576.0)
	fmt.Fprintf(w, "Write rate: %d bytes/second\n", c.writeRateLimit)
	fmt.Fprintf(w, "Read rate: %d ops/second\n", c.readRateLimit)
	fmt.Fprintf(w, "Compression: %s\n", compressionNames[strings.ToLower(c.compressionType)])
	fmt.Fprintf(w, "Compression sampling rate: %d\n", c.sampleForCompression)
	fmt.Fprintf(w, "Memtablerep: %s\n", memtablerepID(c.memtablerep, c.skipListLookahead))
	fmt.Fprintf(w, "Perf Level: %d\n", c.perfLevel)
	for _, warn := range warnings {
		fmt.Fprintf(w, "%s\n", warn)
	}
	fmt.Fprintf(w, "------------------------------------------------\n")
}

// engineCompressions lists the codecs each engine links in; the header
// warns, as db_bench does, when the chosen one is not available.
var engineCompressions = map[string]map[string]bool{
	"native":  {"none": true, "snappy": true, "zstd": true, "lz4": true},
	"pebble":  {"none": true, "snappy": true, "zstd": true},
	"rocksdb": {"none": true, "snappy": true, "zlib": true, "bzip2": true, "lz4": true, "lz4hc": true, "zstd": true},
}

func compressionWarnings(engine, compression string) []string {
	var w []string
	if engine == "rocksdb" {
		w = append(w, "WARNING: Assertions are enabled; benchmarks unnecessarily slow")
	}
	c := strings.ToLower(compression)
	if c == "none" {
		return w
	}
	if set, ok := engineCompressions[engine]; ok && !set[c] {
		w = append(w, fmt.Sprintf("WARNING: %s compression is not enabled", compressionNames[c]))
	}
	return w
}
