package engine

import (
	"slices"

	"github.com/godbbench/godbbench/options"
)

// OptionNote says what an engine does with one engine option (named by its
// options.Spec key, the db_bench flag) where that is not "applied as
// RocksDB applies it". Engines publish their notes as data, so the warnings
// they print and the flag table in docs/FLAGS.md come from one list.
type OptionNote struct {
	Key string
	// Ignored: the engine has no setting for the option; set away from
	// its default, it is reported once at Open ("WARNING: engine E
	// ignores option KEY"). Otherwise the option is applied differently,
	// as How says.
	Ignored bool
	// Refused: the engine has no such feature and will not run without
	// it; set away from its default, the open fails (RefusedOption).
	Refused bool
	// How says what the engine does instead, or why it cannot.
	How string
}

// IgnoredKeys returns the keys of the notes marked Ignored, in order.
func IgnoredKeys(notes []OptionNote) []string {
	var keys []string
	for _, n := range notes {
		if n.Ignored {
			keys = append(keys, n.Key)
		}
	}
	return keys
}

// ByNameNotes marks every option set by name only (options.ByNameKeys) as
// ignored, for an engine without RocksDB's option-string parser; how says
// why. The honoured keys, which the engine reads from Options.Extra
// itself, are left out.
func ByNameNotes(how string, honoured ...string) []OptionNote {
	var notes []OptionNote
	for _, k := range options.ByNameKeys() {
		if !slices.Contains(honoured, k) {
			notes = append(notes, OptionNote{Key: k, Ignored: true, How: how})
		}
	}
	return notes
}

// RateLimiterAndRowCacheNotes mark the rate limiter's and the row cache's
// options ignored, for an engine without those features.
var RateLimiterAndRowCacheNotes = []OptionNote{
	{Key: "rate_limiter_bytes_per_sec", Ignored: true, How: "no rate limiter for flush and compaction I/O"},
	{Key: "rate_limiter_refill_period_us", Ignored: true, How: "no rate limiter"},
	{Key: "rate_limiter_auto_tuned", Ignored: true, How: "no rate limiter"},
	{Key: "rate_limit_bg_reads", Ignored: true, How: "no rate limiter"},
	{Key: "row_cache_size", Ignored: true, How: "no row cache"},
}

// Overlay returns notes with each note of own in place of the note on the
// same key, or dropped where own's note has no How (the engine applies the
// option as RocksDB does), and own's notes with a How on keys notes lacks
// appended; the other notes keep their order. An engine lists the shared
// notes (ReadOptionNotes, RateLimiterAndRowCacheNotes, ...) in notes and
// what it does itself in own.
func Overlay(notes, own []OptionNote) []OptionNote {
	out := make([]OptionNote, 0, len(notes)+len(own))
	used := make([]bool, len(own))
	for _, n := range notes {
		i := slices.IndexFunc(own, func(o OptionNote) bool { return o.Key == n.Key })
		if i < 0 {
			out = append(out, n)
			continue
		}
		used[i] = true
		if own[i].How != "" {
			out = append(out, own[i])
		}
	}
	for i, n := range own {
		if !used[i] && n.How != "" {
			out = append(out, n)
		}
	}
	return out
}

// ReadOptionNotes are the notes on db_bench's read options
// (options.ReadOptions) for an engine with no prefix extractor, no
// readahead knob, no asynchronous reads and no rate limiter.
var ReadOptionNotes = []OptionNote{
	{Key: "total_order_seek", Ignored: true, How: "no prefix filters: every seek is in total order"},
	{Key: "prefix_same_as_start", Ignored: true, How: "no prefix extractor"},
	{Key: "auto_prefix_mode", How: "no prefix filters; the driver's next-prefix bound of seekrandom applies"},
	{Key: "readahead_size", Ignored: true, How: "no iterator readahead knob"},
	{Key: "adaptive_readahead", Ignored: true, How: "no iterator readahead knob"},
	{Key: "async_io", Ignored: true, How: "no asynchronous reads"},
	{Key: "optimize_multiget_for_io", Ignored: true, How: "MultiGet reads one key at a time"},
	{Key: "multiread_batched", How: "MultiGet reads one key at a time through either interface"},
	{Key: "rate_limit_user_ops", Ignored: true, How: "no rate limiter"},
	{Key: "rate_limit_auto_wal_flush", Ignored: true, How: "no rate limiter"},
}
