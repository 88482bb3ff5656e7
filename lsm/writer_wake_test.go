package lsm

import (
	"runtime"
	"testing"
)

// TestSignalBeforeAwait: a signal that comes before its writer waits is
// not lost, and the writer's wait then ends at once, parked or not.
func TestSignalBeforeAwait(t *testing.T) {
	for _, spin := range []bool{false, true} {
		w := &writer{wake: make(chan struct{}, 1)}
		if w.signal() {
			t.Fatal("a writer not yet waiting counted as parked")
		}
		w.await(spin)
		if got := w.wakeState.Load(); got != wakeWaiting {
			t.Fatalf("wake state %d after the wait, want %d", got, wakeWaiting)
		}
		if len(w.wake) != 0 {
			t.Fatal("a signal to a writer that did not park went through its channel")
		}
	}
}

// waitingWriter starts a goroutine that waits for a new writer's signal and
// returns the writer and a channel closed when the wait ends.
func waitingWriter(spin bool) (*writer, <-chan struct{}) {
	w := &writer{wake: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		w.await(spin)
		close(done)
	}()
	return w, done
}

// TestSignalWakesParkedWriter: a writer that parked, at once or once its
// polling budget was spent, is woken through its channel, and its waker
// learns that it had parked.
func TestSignalWakesParkedWriter(t *testing.T) {
	for _, spin := range []bool{false, true} {
		w, done := waitingWriter(spin)
		for w.wakeState.Load() != wakeParked {
			runtime.Gosched()
		}
		if !w.signal() {
			t.Fatalf("spin %v: the waker did not see the writer parked", spin)
		}
		<-done
		if got := w.wakeState.Load(); got != wakeWaiting {
			t.Fatalf("spin %v: wake state %d after the wait, want %d", spin, got, wakeWaiting)
		}
	}
}

// TestPollingWriterCaughtWithoutChannel: a writer signaled while it polls
// returns without its channel, and the waker counts it as polling. The
// writer polls only a while, so the signal may also find it parked: then it
// must still wake.
func TestPollingWriterCaughtWithoutChannel(t *testing.T) {
	w, done := waitingWriter(true)
	parked := w.signal()
	<-done
	if !parked && len(w.wake) != 0 {
		t.Fatal("a writer caught polling left a send in its channel")
	}
}
