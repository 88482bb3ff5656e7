package options

// ReadOptions are the read settings db_bench 7.8.3 puts in its
// ReadOptions (and one in its WriteOptions) from flags, for every read of
// every benchmark, as engines apply them:
//
//   - TotalOrderSeek (--total_order_seek), PrefixSameAsStart
//     (--prefix_same_as_start), AutoPrefixMode (--auto_prefix_mode; the
//     driver also bounds seekrandom's seeks at the next prefix):
//     prefix-extractor behaviour of iterators;
//   - ReadaheadSize (--readahead_size), AdaptiveReadahead
//     (--adaptive_readahead), AsyncIO (--async_io): iterator I/O;
//   - OptimizeMultigetForIO (--optimize_multiget_for_io, on by default):
//     MultiGet reads levels in parallel;
//   - MultireadBatched (--multiread_batched): MultiGet through the batched
//     interface, whose values are pinned, instead of the one taking a
//     vector of keys and copying each value;
//   - RateLimitUserOps (--rate_limit_user_ops): reads charged to the rate
//     limiter (IO_USER instead of IO_TOTAL); RateLimitAutoWALFlush
//     (--rate_limit_auto_wal_flush): the same for writes' automatic WAL
//     flushes.
type ReadOptions struct {
	TotalOrderSeek        bool
	PrefixSameAsStart     bool
	AutoPrefixMode        bool
	ReadaheadSize         int
	AdaptiveReadahead     bool
	AsyncIO               bool
	OptimizeMultigetForIO bool
	MultireadBatched      bool
	RateLimitUserOps      bool
	RateLimitAutoWALFlush bool
}
