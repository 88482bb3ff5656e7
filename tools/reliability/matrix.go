package reliability

// EngineConfig is one engine in one configuration.
type EngineConfig struct {
	Engine string
	Config Config
}

// crashMatrix is what the crash loop runs: each engine with synchronous
// and unsynchronous writes, and the native engine's mapped WAL.
func crashMatrix() []EngineConfig {
	return []EngineConfig{
		{"native", Config{Sync: true}},
		{"native", Config{}},
		{"native", Config{MmapWrite: true}},
		{"pebble", Config{Sync: true}},
		{"pebble", Config{}},
	}
}
