package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/ratelimit"
)

// TestRateLimitUserOpsChargesGet: with rate_limit_bg_reads and
// rate_limit_user_ops, the table reads of Get are charged at user
// priority and wait for the limiter (on a virtual clock: the waits add up
// to the bytes read at the rate); without rate_limit_user_ops they are
// not charged.
func TestRateLimitUserOpsChargesGet(t *testing.T) {
	const rate = 100 << 10 // bytes per second
	for _, userOps := range []bool{false, true} {
		clock := &ratelimit.VirtualClock{}
		rateLimiterClock = clock
		o := testOptions()
		o.RateLimiterBytesPerSec = rate
		o.RateLimitBgReads = true
		o.Read.RateLimitUserOps = userOps
		o.CacheSize = 0 // every Get reads the file
		o.DisableAutoCompactions = true
		db := mustOpen(t, t.TempDir(), o)
		rateLimiterClock = nil
		for i := range 3000 {
			put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%d", i))
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3000; i += 30 {
			k := fmt.Sprintf("key%06d", i)
			if v, ok := getString(t, db, k); !ok || v != fmt.Sprintf("value%d", i) {
				t.Fatalf("%s = %q, %v", k, v, ok)
			}
		}
		l := db.RateLimiter()
		charged := l.TotalBytesThrough(ratelimit.User)
		waited := clock.NowMicros()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if !userOps {
			if charged != 0 || waited != 0 {
				t.Errorf("without rate_limit_user_ops Get charged %d bytes and waited %d us", charged, waited)
			}
			continue
		}
		if charged < 100*4096/2 {
			t.Fatalf("100 uncached Gets charged %d bytes", charged)
		}
		// The first burst is granted at once; the rest come at the rate.
		burst := l.SingleBurstBytes()
		if want := (charged - burst) * 1e6 / rate; waited < want {
			t.Errorf("Gets charged %d bytes at %d B/s and waited %d us, want at least %d", charged, rate, waited, want)
		}
	}
}
