package reliability

// Outcome is how one damaged-database trial ended, from best to worst.
type Outcome string

// The outcomes. A trial has exactly one; DeletedLive is recorded beside it.
const (
	// Correct: the database opened and every read returned the model's data.
	Correct Outcome = "correct"
	// Older: the database opened and read back, without an error, the exact
	// state after fewer whole batches than were written: what RocksDB's
	// point-in-time WAL recovery gives for a damaged WAL. Acceptable for
	// damage to a WAL only; for any other file it is counted as Wrong.
	Older Outcome = "older state"
	// Refused: the open failed with an error.
	Refused Outcome = "open refused"
	// ReadError: the open succeeded and a read reported an error; every
	// value returned before it was right.
	ReadError Outcome = "read error"
	// Wrong: a read returned a value that was never there, a stale or
	// deleted value, or skipped a live key, without an error first.
	Wrong Outcome = "SILENT WRONG DATA"
	// Crash: the process died of a signal (SIGBUS, SIGSEGV) or a panic.
	Crash Outcome = "crash"
	// Hang: the process did not finish within its time limit.
	Hang Outcome = "hang"
)

// Outcomes lists the outcomes in report order.
var Outcomes = []Outcome{Correct, Older, Refused, ReadError, Wrong, Crash, Hang}

// Bad reports whether o is a failure whatever file was damaged.
func (o Outcome) Bad() bool { return o == Wrong || o == Crash || o == Hang }

// classify turns a verifier's verdict (or how it died, vexit) into an
// outcome. lo..hi is the window the verifier was given: hi writes were
// made, the first lo of them are in tables. olderOK says an older state
// is acceptable (the damaged file is a WAL).
func classify(v Verdict, vexit string, hi int, olderOK bool) Outcome {
	switch {
	case len(vexit) >= 4 && vexit[:4] == "hang":
		return Hang
	case vexit != "":
		return Crash
	case v.Wrong > 0:
		return Wrong
	case v.OpenErr != "":
		return Refused
	case v.ReadErr != "":
		return ReadError
	case v.Prefix == hi:
		return Correct
	case v.Prefix >= 0 && olderOK:
		return Older
	}
	return Wrong
}
