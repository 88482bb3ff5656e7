package profiles

// PhaseResult is one measured step of a run. Workload phases carry Ops,
// Seconds and Checksum; the stabilize, settle and reopen steps carry Seconds;
// verify carries Seconds and the final checksum; storage and peak memory carry
// Bytes.
type PhaseResult struct {
	Name     string
	Ops      int64
	Seconds  float64
	Checksum uint64
	Bytes    int64
}

// Phase names, in run order. They contain no spaces so that a result line
// reads like db_bench's ("name : ... micros/op ...").
const (
	PhaseInsert                 = "profiles.insert"
	PhasePreReadStabilize       = "profiles.pre_read_stabilize"
	PhaseReadByUserID           = "profiles.read_by_user_id"
	PhaseLookupByEmail          = "profiles.lookup_by_email"
	PhaseScanCountryStatus      = "profiles.scan_country_status"
	PhaseQueryCountryStatus     = "profiles.query_country_status"
	PhaseScanCreatedAt          = "profiles.scan_created_at"
	PhaseQueryCreatedAt         = "profiles.query_created_at"
	PhaseScanTopReputation      = "profiles.scan_top_reputation"
	PhaseQueryTopReputation     = "profiles.query_top_reputation"
	PhaseUpdate                 = "profiles.update"
	PhasePostUpdateStabilize    = "profiles.post_update_stabilize"
	PhasePostReadByUserID       = "profiles.post_update_read_by_user_id"
	PhasePostLookupByEmail      = "profiles.post_update_lookup_by_email"
	PhasePostScanCountryStatus  = "profiles.post_update_scan_country_status"
	PhasePostQueryCountryStatus = "profiles.post_update_query_country_status"
	PhasePostScanTopReputation  = "profiles.post_update_scan_top_reputation"
	PhasePostQueryTopReputation = "profiles.post_update_query_top_reputation"
	PhaseSettle                 = "profiles.settle"
	PhaseStorage                = "profiles.storage"
	PhaseReopen                 = "profiles.reopen"
	PhaseVerify                 = "profiles.verify"
	PhasePeakMemory             = "profiles.peak_rss"
)

// checksumPhases lists the phases that carry a checksum, in run order: the
// sixteen workload phases and verify (the "final checksum").
var checksumPhases = []string{
	PhaseInsert, PhaseReadByUserID, PhaseLookupByEmail,
	PhaseScanCountryStatus, PhaseQueryCountryStatus,
	PhaseScanCreatedAt, PhaseQueryCreatedAt,
	PhaseScanTopReputation, PhaseQueryTopReputation,
	PhaseUpdate,
	PhasePostReadByUserID, PhasePostLookupByEmail,
	PhasePostScanCountryStatus, PhasePostQueryCountryStatus,
	PhasePostScanTopReputation, PhasePostQueryTopReputation,
	PhaseVerify,
}

// referenceLabels are the reference report's names for the workload phases,
// used in the Markdown report.
var referenceLabels = map[string]string{
	PhaseInsert:                 "insert profiles",
	PhaseReadByUserID:           "read by user id",
	PhaseLookupByEmail:          "lookup by email",
	PhaseScanCountryStatus:      "scan country/status index",
	PhaseQueryCountryStatus:     "query country/status",
	PhaseScanCreatedAt:          "scan created-at index",
	PhaseQueryCreatedAt:         "query created-at range",
	PhaseScanTopReputation:      "scan top reputation index",
	PhaseQueryTopReputation:     "query top reputation",
	PhaseUpdate:                 "update profiles",
	PhasePostReadByUserID:       "post-update read by user id",
	PhasePostLookupByEmail:      "post-update lookup by email",
	PhasePostScanCountryStatus:  "post-update scan country/status index",
	PhasePostQueryCountryStatus: "post-update query country/status",
	PhasePostScanTopReputation:  "post-update scan top reputation index",
	PhasePostQueryTopReputation: "post-update query top reputation",
}

// isQueryPhase reports whether name is a phase that reads a profile for each
// index entry it walks.
func isQueryPhase(name string) bool {
	switch name {
	case PhaseQueryCountryStatus, PhaseQueryCreatedAt, PhaseQueryTopReputation,
		PhasePostQueryCountryStatus, PhasePostQueryTopReputation:
		return true
	}
	return false
}

// isWorkloadPhase reports whether name is one of the sixteen timed phases.
func isWorkloadPhase(name string) bool {
	_, ok := referenceLabels[name]
	return ok
}

// partition returns worker index's contiguous slice [start, start+count) of
// total items split over workers, the first total%workers slices one larger
// (the reference's GetPartition).
func partition(total, index, workers int) (start, count int) {
	base := total / workers
	rem := total % workers
	count = base
	if index < rem {
		count++
	}
	start = index*base + min(index, rem)
	return start, count
}
