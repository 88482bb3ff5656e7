// Package reliability is the project's data-safety suite: probes that kill,
// damage and starve a database through the engine.Opener interface, so the
// same probe runs against every registered engine (native, pebble, and
// rocksdb in a binary built with -tags rocksdb), and report what each
// engine did.
//
// Probes:
//   - Crash loop (crash.go): a writer subprocess applies batches of a
//     deterministic workload and prints each acknowledged batch; the parent
//     kills it with SIGKILL at a random moment (during writes, flushes,
//     compactions, or while it is still opening), reopens the directory in a
//     verifier subprocess, and requires that the database holds exactly the
//     state after some whole number of batches, no earlier than the last
//     acknowledged one (with the WAL disabled, the last one a completed
//     flush made durable).
//   - Corruption matrix (corrupt.go): a small database with tables in two
//     levels and writes left in the WAL is copied, one file is damaged (a
//     byte flipped, the file truncated or deleted), and a verifier
//     subprocess opens it and reads everything back (a Get of every key, a
//     forward and a reverse scan). Each trial gets one outcome (outcome.go).
//   - ENOSPC (enospc.go): a writer fills a small tmpfs until a write fails;
//     the writer must report the error and exit, and after the tmpfs grows
//     a reopen must hold every acknowledged batch.
//   - Bad input (badinput.go): db_bench command lines that must fail
//     cleanly, run with this project's db_bench and C++ db_bench.
//
// Contract: every probe runs the engine in a subprocess (the current binary
// re-executed with the child's spec in an environment variable; binaries
// that use the package call RunChildIfRequested first thing in main or
// TestMain), so a panic, SIGBUS or hang is counted as an outcome and never
// ends the run. A probe reports counts; callers decide what is a failure.
// Nothing here deletes a file outside the temporary directories it creates.
package reliability
