package clock

import (
	"os"
	"strings"
)

// kernelTrustsTSC reports whether the kernel's current clock source reads
// the time stamp counter: "tsc", or "kvm-clock" (the counter with the
// host's per-CPU corrections).
func kernelTrustsTSC() bool {
	b, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	if err != nil {
		return false
	}
	switch strings.TrimSpace(string(b)) {
	case "tsc", "kvm-clock":
		return true
	}
	return false
}
