package lsm

import (
	"math"
	"slices"
	"testing"
)

// The cases below are worked by hand through RocksDB 7.8.3's
// compaction_picker_universal.cc and compaction_picker_fifo.cc.

// runsOf builds sorted runs, newest first, from level:size pairs; a
// negative size marks the run as being compacted.
func runsOf(pairs ...[2]int) []sortedRun {
	runs := make([]sortedRun, len(pairs))
	for i, p := range pairs {
		runs[i] = sortedRun{level: p[0], size: uint64(max(p[1], -p[1])), compacting: p[1] < 0}
	}
	return runs
}

func universalDefaults(trigger int) universalOptions {
	return universalOptions{sizeRatio: 1, minMergeWidth: 2, maxMergeWidth: math.MaxUint32, maxSizeAmplification: 200, trigger: trigger}
}

func TestUniversalPicker(t *testing.T) {
	type want struct {
		ok                 bool
		start, end, output int
		reason             string
	}
	cases := []struct {
		name string
		runs []sortedRun
		opts func(*universalOptions)
		want want
	}{
		{"fewer runs than the trigger", runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}), nil, want{}},
		{"size amplification merges all into the last level",
			runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}), nil, want{true, 0, 4, 6, "size amp"}},
		{"size ratio stops before a larger run; output above it",
			runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{6, 10}), nil, want{true, 0, 3, 5, "size ratio"}},
		{"growing runs: nothing within ratio and no surplus",
			runsOf([2]int{0, 1}, [2]int{0, 5}, [2]int{0, 20}, [2]int{6, 100}), nil, want{}},
		{"a surplus run merges the newest two regardless of size, into L0",
			runsOf([2]int{0, 1}, [2]int{0, 5}, [2]int{0, 20}, [2]int{0, 50}, [2]int{6, 100}), nil, want{true, 0, 2, 0, "file num"}},
		{"runs being compacted are skipped",
			runsOf([2]int{0, -1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{6, 10}), nil, want{true, 1, 4, 5, "size ratio"}},
		{"min_merge_width above the surplus width picks nothing",
			runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{5, 10}, [2]int{6, 100}),
			func(o *universalOptions) { o.minMergeWidth, o.trigger = 3, 3 }, want{}},
		{"max_merge_width caps the span",
			runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}),
			func(o *universalOptions) { o.maxMergeWidth, o.maxSizeAmplification = 2, 1000 }, want{true, 0, 2, 0, "size ratio"}},
		{"output goes to the level above the next run",
			runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{3, 3}, [2]int{6, 100}), nil, want{true, 0, 2, 2, "size ratio"}},
		{"a larger size_ratio takes the level run too",
			runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{3, 3}, [2]int{6, 100}),
			func(o *universalOptions) { o.sizeRatio = 100 }, want{true, 0, 3, 5, "size ratio"}},
		{"max_size_amplification_percent 50",
			runsOf([2]int{0, 10}, [2]int{6, 15}),
			func(o *universalOptions) { o.maxSizeAmplification, o.trigger = 50, 2 }, want{true, 0, 2, 6, "size amp"}},
		{"size amplification at exactly the limit compacts",
			runsOf([2]int{0, 10}, [2]int{0, 10}, [2]int{6, 10}),
			func(o *universalOptions) { o.trigger = 3 }, want{true, 0, 3, 6, "size amp"}},
		{"the oldest run being compacted rules out size amplification",
			runsOf([2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{0, 1}, [2]int{6, -1}), nil, want{true, 0, 4, 5, "size ratio"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := universalDefaults(4)
			if tc.opts != nil {
				tc.opts(&o)
			}
			p, ok := pickUniversalRuns(tc.runs, 7, o)
			got := want{ok, p.start, p.end, p.outputLevel, p.reason}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// l0Of builds L0 tables, newest first, of the given sizes; a negative
// size marks the table as being compacted.
func l0Of(sizes ...int) []*fileMeta {
	files := make([]*fileMeta, len(sizes))
	for i, s := range sizes {
		files[i] = &fileMeta{num: uint64(i + 1), size: uint64(max(s, -s)), compacting: s < 0}
	}
	return files
}

func TestFIFOPicker(t *testing.T) {
	type want struct {
		ok       bool
		level    int
		nums     []uint64
		deletion bool
	}
	big := uint64(1 << 40)
	cases := []struct {
		name   string
		levels [][]*fileMeta
		o      fifoOptions
		want   want
	}{
		{"a zero limit drops every table, oldest first",
			[][]*fileMeta{l0Of(10, 10), nil}, fifoOptions{allowCompaction: true, trigger: 4, writeBufferSize: 100, maxCompactionBytes: big},
			want{true, 0, []uint64{2, 1}, true}},
		{"over the limit: drop the oldest until the rest fit",
			[][]*fileMeta{l0Of(10, 10, 10), nil}, fifoOptions{maxTableFilesSize: 25, trigger: 4},
			want{true, 0, []uint64{3}, true}},
		{"under the limit without allow_compaction: nothing",
			[][]*fileMeta{l0Of(10, 10, 10), nil}, fifoOptions{maxTableFilesSize: 100, trigger: 4}, want{}},
		{"intra-L0 merge of small tables",
			[][]*fileMeta{l0Of(10, 10, 10), nil}, fifoOptions{maxTableFilesSize: 100, allowCompaction: true, trigger: 2, writeBufferSize: 100, maxCompactionBytes: big},
			want{true, 0, []uint64{1, 2, 3}, false}},
		{"intra-L0 stops where bytes per table removed rise",
			[][]*fileMeta{l0Of(10, 10, 50), nil}, fifoOptions{maxTableFilesSize: 100, allowCompaction: true, trigger: 2, writeBufferSize: 100, maxCompactionBytes: big},
			want{true, 0, []uint64{1, 2}, false}},
		{"intra-L0 refused above 1.1 write buffers per table removed",
			[][]*fileMeta{l0Of(10, 10, 10), nil}, fifoOptions{maxTableFilesSize: 100, allowCompaction: true, trigger: 2, writeBufferSize: 10, maxCompactionBytes: big},
			want{}},
		{"intra-L0 below the trigger count: nothing",
			[][]*fileMeta{l0Of(10), nil}, fifoOptions{maxTableFilesSize: 100, allowCompaction: true, trigger: 1, writeBufferSize: 100, maxCompactionBytes: big},
			want{}},
		{"no deletion while an L0 compaction runs",
			[][]*fileMeta{l0Of(-10, 10), nil}, fifoOptions{trigger: 4}, want{}},
		{"a level below L0 loses its first tables",
			[][]*fileMeta{l0Of(20), {{num: 7, size: 10}, {num: 8, size: 10}}}, fifoOptions{maxTableFilesSize: 15, trigger: 4},
			want{true, 1, []uint64{7, 8}, true}},
		{"the score counts L0 only",
			[][]*fileMeta{l0Of(5), {{num: 7, size: 10}, {num: 8, size: 10}}}, fifoOptions{maxTableFilesSize: 15, trigger: 4}, want{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := pickFIFOFiles(tc.levels, tc.o)
			var nums []uint64
			for _, f := range p.files {
				nums = append(nums, f.num)
			}
			got := want{ok, p.level, nums, p.deletion}
			if got.ok != tc.want.ok || got.level != tc.want.level || got.deletion != tc.want.deletion || !slices.Equal(got.nums, tc.want.nums) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
