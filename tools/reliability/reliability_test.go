package reliability

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	RunChildIfRequested()
	os.Exit(m.Run())
}

// long reports whether the long mode was asked for (RELIABILITY_LONG=1).
func long() bool { return os.Getenv("RELIABILITY_LONG") == "1" }

// skipShort skips a subprocess probe under -short: CI runs it in its plain
// go test pass, and -short is the race-detector pass, where every child
// would run ten times slower for no gain (the children are separate
// processes).
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess probe: runs without -short")
	}
}
