package engine

// RunReaders is implemented by a DB whose Gets can share state across a
// run of them (the native engine keeps its read state pinned from one Get
// to the next while it stays current). Runs' loop of single Gets then
// reads through one RunReader per Runs and ends it after every run.
type RunReaders interface {
	NewRunReader() RunReader
}

// RunReader is one goroutine's Gets. Get is DB.Get: each sees what a DB.Get
// made at its start would see; its fn must not call the RunReader. End
// releases what the Gets held; the RunReader may be used again after it.
type RunReader interface {
	PointGetter
	End()
}
