package reliability

import "github.com/godbbench/godbbench/engine"

// withRocksDB appends ecs for the rocksdb engine when this binary has it
// (built with -tags rocksdb), so the same tests give RocksDB's column.
func withRocksDB(ecs []EngineConfig, cfgs ...Config) []EngineConfig {
	if _, err := engine.Lookup("rocksdb"); err != nil {
		return ecs
	}
	for _, c := range cfgs {
		ecs = append(ecs, EngineConfig{"rocksdb", c})
	}
	return ecs
}

// EngineConfig is one engine in one configuration.
type EngineConfig struct {
	Engine string
	Config Config
}

// crashMatrix is what the crash loop runs: each engine with synchronous
// and unsynchronous writes, and the native engine's mapped WAL and writes
// with the WAL disabled (and rocksdb's three of those when built in).
func crashMatrix() []EngineConfig {
	return withRocksDB([]EngineConfig{
		{"native", Config{Sync: true}},
		{"native", Config{}},
		{"native", Config{MmapWrite: true}},
		{"native", Config{DisableWAL: true}},
		{"pebble", Config{Sync: true}},
		{"pebble", Config{}},
	}, Config{Sync: true}, Config{}, Config{DisableWAL: true})
}
