package cspp

import "github.com/godbbench/godbbench/memtable"

func init() {
	memtable.Register([]string{"cspp", "CSPPMemTab"}, newFromConfig)
}

// newFromConfig sizes the arena like ToplingDB's CSPPMemTabFactory: mem_cap
// when given, otherwise min(2*write_buffer_size, write_buffer_size+1 GiB),
// otherwise DefaultMemCap; never more than the 8 GiB the 31-bit offsets
// of version pins can address.
func newFromConfig(cfg memtable.Config) (memtable.Rep, error) {
	memCap := cfg.MemCap
	if wbs := cfg.WriteBufferSize; wbs > 0 {
		memCap = max(memCap, min(2*wbs, wbs+1<<30))
	}
	if memCap > maxSlots*4 {
		memCap = maxSlots * 4
	}
	return New(int64(memCap)), nil
}
