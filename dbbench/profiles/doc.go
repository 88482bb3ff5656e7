// Package profiles is ZoneTree's "100M profiles" benchmark (its
// benchmarks/profile-store suite) rebuilt on engine.DB: the same generator,
// the same random plan, the same five stores and key encodings, the same
// phases in the same order and the same checksums, so that a run here can be
// checked against the reference's published checksums bit for bit.
//
// # Contract
//
//   - Run(cfg) drives five engine.DB instances (cfg.Open, one sub-directory of
//     cfg.Dir per store) through every phase and returns one PhaseResult per
//     step; phase checksums depend only on Profiles, Queries, QueryLimit, Seed
//     and Threads, never on the engine.
//   - Model(cfg) computes the same checksums without any engine.
//   - CompareChecksums fails, naming the phase and both values, when engines
//     disagree; WriteMarkdown writes the reference's report tables.
//
// Published values (seed 570123434, query limit 100, one worker) reproduced by
// the tests: all 17 checksums at N=100K, by the model and through the runner
// on in-memory stores; all 17 at 500K and 1M by the model
// (-profiles.published); at N=100M the insert checksum FCB46248E0D81425 by
// default and 12 of the 17 (all but the five query phases) with
// -profiles.scans100m. The full model at 100M (-profiles.full) also covers the
// five query phases but needs about 20 CPU-minutes.
//
// # Generator
//
// Mix is the SplitMix64 step. For id (int64) and seed (int32, reinterpreted
// as uint32 and widened): a = Mix(id+seed), b = Mix(a+0x9E3779B97F4A7C15).
// Country = codes[a%32]; Status = [active suspended deleted pending][(a>>8)%4];
// CreatedAt = 1672531200000 + id*1000 + a%997 (strictly increasing in id);
// LastLogin = 1672531200000 + b%7776000000; Reputation = b%1000000;
// Email = "user"+D12(id)+"@example"+D2(id%97)+".com";
// DisplayName = "User "+D12(id);
// Bio = "Profile "+id+" prefers "+topics[a%5]+" and has segment "+D4(b%10000)+".".
// Dn is a decimal zero-padded to n digits (a '-' first when negative).
//
// Update: m = Mix(id+seed+0xD1B54A32D192ED03); when id%4 == 0 the status moves
// to the next in the list (wrapping); Reputation += m%501-250, clamped to
// [0, 1000000]; LastLogin += 604800000 + m%86400000; Bio += " updated".
//
// # Stored record (value of the profiles store)
//
// The nine fields as text joined by '|': decimal int64 UserID, Email,
// Country, Status, decimal CreatedAt, decimal LastLogin, decimal Reputation,
// DisplayName, Bio. Decoding splits at the first eight '|'; the Bio keeps any
// further '|'. Profile 42 with seed 570123434 is 148 bytes:
//
//	42|user000000000042@example42.com|CH|pending|1672531242427|1680130194440|
//	994440|User 000000000042|Profile 42 prefers analytics and has segment
//	4440.
//
// (one line in the store; wrapped here). Records of ids drawn from 1..100M
// are 150-172 bytes, about 166 on average, and grow by 8 bytes per update.
//
// # Stores and keys
//
// All keys are ASCII with fixed-width numbers, so bytewise order is the
// reference's ordinal order. Every index value is the user id as 8 bytes,
// big-endian (ParseUserID rejects any other length).
//
//	store                 key                                      example key
//	profiles              user id, 8 bytes big-endian              00 00 00 00 00 00 00 2A
//	email-index           Email (30 bytes)                         user000000000042@example42.com
//	country-status-index  Country|Status|D20(id) (30-33 bytes)     CH|pending|00000000000000000042
//	created-at-index      D20(CreatedAt)|D20(id) (41 bytes)        00000001672531242427|00000000000000000042
//	reputation-index      D10(1000000-Reputation)|D20(id) (31 b)   0000005560|00000000000000000042
//
// Ascending reputation-index order is highest reputation first, ties by
// ascending id.
//
// # Plan
//
// One DotNetRandom(seed) (.NET's seeded System.Random) draws, in order: N
// point-read ids, N email-read ids, Q country/status queries (country
// Next(0,32) then status Next(0,4)), Q created-at start ids
// NextInt64(1, max(2, N-5000)), N update ids, N post-update read ids, N
// post-update email ids, Q post-update country/status queries. Ids are
// NextInt64(1, N+1). Q is N for N <= 10000, else N/4, unless configured.
//
// # Phases and checksums
//
// Checksum is FNV-1a over 64-bit words (int64 as is, int32 zero-extended,
// one word per UTF-16 code unit of text); a profile folds UserID, Email,
// Country, Status, CreatedAt, LastLogin, Reputation. Phases, each folding as
// noted: insert ids 1..N, five separate puts each (fold id); read by user id
// (profile); lookup by email, regenerating the email in the timed loop
// (profile); scan country/status, a fresh iterator from "CC|status|" while
// the key has that prefix, at most QueryLimit entries (each id); query
// country/status, the same walk reading each profile (each profile); scan and
// query created-at from D20(from)|D20(0) while key <= D20(to)|D20(MaxInt64);
// scan and query top reputation from the first key; update (get, compute,
// get again, delete the old country/status and reputation keys, put the
// record, put the new country/status and reputation keys; fold the updated
// profile); then post-update read, email, country/status scan and query, top
// reputation scan and query. Verify, after settle, close and reopen, folds
// the count of profiles (a full iterator walk) and profiles 1, max(1, N/2)
// and N: the "final checksum".
//
// With Threads > 1 each worker takes a contiguous slice of each phase (the
// update phase: ids with id%Threads == worker, in plan order) and the phase
// checksum is the only active worker's value, or else a fresh checksum over
// the 16 upper-case hex digits of each active worker's value, in order.
//
// # Output
//
// Each workload phase prints a db_bench result line with its checksum:
//
//	profiles.insert : 11.234 micros/op 89015 ops/sec 1.123 seconds 100000 operations; (checksum 37C6E9056D5AC045)
//
// then "name : 1.234 seconds" for the stabilize, settle and reopen steps,
// "profiles.verify : 0.012 seconds (checksum ...)", and "name : N bytes" for
// storage (sum of file sizes under Dir after settle) and peak RSS (VmHWM).
package profiles
