package profiles

import (
	"encoding/binary"
	"fmt"
)

// UserIDSize is the size of a profiles-store key and of every index value.
const UserIDSize = 8

// AppendUserID appends id as 8 big-endian bytes: the profiles key and the
// value of every index entry.
func AppendUserID(dst []byte, id int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(id))
}

// ParseUserID reads an index value written by AppendUserID.
func ParseUserID(b []byte) (int64, error) {
	if len(b) != UserIDSize {
		return 0, fmt.Errorf("profiles: user id value has %d bytes, want %d", len(b), UserIDSize)
	}
	return int64(binary.BigEndian.Uint64(b)), nil
}

// AppendCountryStatusPrefix appends "{country}|{status}|", the prefix every
// country/status-index key of that pair starts with.
func AppendCountryStatusPrefix(dst, country, status []byte) []byte {
	dst = append(dst, country...)
	dst = append(dst, '|')
	dst = append(dst, status...)
	return append(dst, '|')
}

// AppendCountryStatusKey appends "{country}|{status}|{id:D20}".
func AppendCountryStatusKey(dst, country, status []byte, id int64) []byte {
	return appendPadded(AppendCountryStatusPrefix(dst, country, status), id, 20)
}

// AppendCreatedAtKey appends "{createdAt:D20}|{id:D20}".
func AppendCreatedAtKey(dst []byte, createdAt, id int64) []byte {
	dst = appendPadded(dst, createdAt, 20)
	dst = append(dst, '|')
	return appendPadded(dst, id, 20)
}

// AppendReputationKey appends "{(1000000-reputation):D10}|{id:D20}", so that
// ascending key order is highest reputation first, ties by ascending id.
func AppendReputationKey(dst []byte, reputation int32, id int64) []byte {
	dst = appendPadded(dst, int64(maxReputation-reputation), 10)
	dst = append(dst, '|')
	return appendPadded(dst, id, 20)
}
