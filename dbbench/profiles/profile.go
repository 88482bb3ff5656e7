package profiles

// Profile is one user profile (ZoneTree's UserProfile record). Text fields are
// byte slices owned by the Profile and reused by Create, Update and
// DecodeRecord so that steady-state work does not allocate; copy a Profile's
// slices before keeping them beyond the next reuse.
type Profile struct {
	UserID      int64
	Email       []byte // 30 ASCII bytes for generated profiles
	Country     []byte // 2-letter code
	Status      []byte // active, suspended, deleted or pending
	CreatedAt   int64  // Unix milliseconds
	LastLogin   int64  // Unix milliseconds
	Reputation  int32  // 0..1,000,000
	DisplayName []byte // "User " + id as 12 digits
	Bio         []byte // free text; grows by " updated" per update
}

// CopyFrom makes p a deep copy of q, reusing p's buffers.
func (p *Profile) CopyFrom(q *Profile) {
	p.UserID = q.UserID
	p.Email = append(p.Email[:0], q.Email...)
	p.Country = append(p.Country[:0], q.Country...)
	p.Status = append(p.Status[:0], q.Status...)
	p.CreatedAt = q.CreatedAt
	p.LastLogin = q.LastLogin
	p.Reputation = q.Reputation
	p.DisplayName = append(p.DisplayName[:0], q.DisplayName...)
	p.Bio = append(p.Bio[:0], q.Bio...)
}
