package profiles

// countryCodes is the generator's fixed country list; a profile's country is
// countryCodes[a mod 32].
var countryCodes = [32]string{
	"US", "DE", "GB", "FR", "NL", "SE", "NO", "DK",
	"FI", "ES", "IT", "PT", "PL", "CZ", "TR", "JP",
	"KR", "SG", "IN", "BR", "CA", "AU", "MX", "AR",
	"ZA", "IL", "IE", "CH", "AT", "BE", "RO", "GR",
}

// statusValues is the status list; Update moves a status to the next entry.
var statusValues = [4]string{"active", "suspended", "deleted", "pending"}

// bioTopics is indexed by a mod 5.
var bioTopics = [5]string{
	"storage engines", "distributed systems", "analytics", "developer tools", "backend services",
}

const (
	// baseCreatedAt is 2023-01-01T00:00:00Z in Unix milliseconds.
	baseCreatedAt int64 = 1_672_531_200_000
	// goldenGamma is SplitMix64's increment.
	goldenGamma uint64 = 0x9E3779B97F4A7C15
	// updateSalt separates the update stream from the create stream.
	updateSalt uint64 = 0xD1B54A32D192ED03
	// lastLoginWindow is 90 days in milliseconds.
	lastLoginWindow uint64 = 90 * 24 * 60 * 60 * 1000
	// loginStep is 7 days in milliseconds, added to LastLogin by every update.
	loginStep int64 = 7 * 24 * 60 * 60 * 1000
	// maxReputation bounds reputation after updates; the reputation index
	// stores maxReputation-reputation so the highest comes first.
	maxReputation int32 = 1_000_000
)

// mix is one SplitMix64 output step.
func mix(v uint64) uint64 {
	v += goldenGamma
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

// Generator creates and updates profiles deterministically from a seed, as
// ZoneTree's ProfileGenerator does. It holds no mutable state and may be
// shared by goroutines.
type Generator struct {
	seed uint64 // the int32 seed reinterpreted as uint32, widened
}

// NewGenerator returns the generator for seed.
func NewGenerator(seed int32) Generator {
	return Generator{seed: uint64(uint32(seed))}
}

// draws returns the two 64-bit draws a and b of a profile.
func (g Generator) draws(id int64) (a, b uint64) {
	a = mix(uint64(id) + g.seed)
	b = mix(a + goldenGamma)
	return a, b
}

// CreatedAt returns the creation time of profile id without building it.
// It rises strictly with id (id*1000 plus less than 1000).
func (g Generator) CreatedAt(id int64) int64 {
	a := mix(uint64(id) + g.seed)
	return baseCreatedAt + id*1000 + int64(a%997)
}

// countryStatus returns the indexes of the initial country and status of id.
func (g Generator) countryStatus(id int64) (country, status int) {
	a := mix(uint64(id) + g.seed)
	return int(a % 32), int((a >> 8) % 4)
}

// Create fills p with profile id, reusing p's buffers.
func (g Generator) Create(p *Profile, id int64) {
	a, b := g.draws(id)
	p.UserID = id
	p.Email = appendEmail(p.Email[:0], id)
	p.Country = append(p.Country[:0], countryCodes[a%32]...)
	p.Status = append(p.Status[:0], statusValues[(a>>8)%4]...)
	p.CreatedAt = baseCreatedAt + id*1000 + int64(a%997)
	p.LastLogin = baseCreatedAt + int64(b%lastLoginWindow)
	p.Reputation = int32(b % 1_000_000)
	p.DisplayName = appendPadded(append(p.DisplayName[:0], "User "...), id, 12)
	bio := append(p.Bio[:0], "Profile "...)
	bio = appendPadded(bio, id, 0)
	bio = append(bio, " prefers "...)
	bio = append(bio, bioTopics[a%5]...)
	bio = append(bio, " and has segment "...)
	bio = appendPadded(bio, int64(b%10_000), 4)
	p.Bio = append(bio, '.')
}

// appendEmail appends "user{id:D12}@example{id%97:D2}.com".
func appendEmail(dst []byte, id int64) []byte {
	dst = append(dst, "user"...)
	dst = appendPadded(dst, id, 12)
	dst = append(dst, "@example"...)
	dst = appendPadded(dst, id%97, 2)
	return append(dst, ".com"...)
}

// Update applies one update to p in place, as ProfileGenerator.Update does:
// the delta depends only on the id, so k updates of one id apply the same
// change k times (order matters only through clamping).
func (g Generator) Update(p *Profile) {
	m := mix(uint64(p.UserID) + g.seed + updateSalt)
	if p.UserID%4 == 0 {
		// Array.IndexOf gives -1 for an unknown status, which moves to "active".
		next := (statusIndex(p.Status) + 1) % len(statusValues)
		p.Status = append(p.Status[:0], statusValues[next]...)
	}
	rep := p.Reputation + (int32(m%501) - 250)
	if rep < 0 {
		rep = 0
	} else if rep > maxReputation {
		rep = maxReputation
	}
	p.Reputation = rep
	p.LastLogin += loginStep + int64(m%86_400_000)
	p.Bio = append(p.Bio, " updated"...)
}

// statusIndex returns the position of s in statusValues, or -1.
func statusIndex(s []byte) int {
	for i, v := range statusValues {
		if string(s) == v {
			return i
		}
	}
	return -1
}

// appendPadded appends v in invariant decimal, zero-padded to width digits
// (.NET's "D{width}" format: a minus sign, when negative, precedes the padding).
func appendPadded(dst []byte, v int64, width int) []byte {
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u
	}
	var digits [20]byte
	i := len(digits)
	for {
		i--
		digits[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	for n := len(digits) - i; n < width; n++ {
		dst = append(dst, '0')
	}
	return append(dst, digits[i:]...)
}
