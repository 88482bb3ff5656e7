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
