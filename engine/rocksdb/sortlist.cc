//go:build rocksdb

// The rocksdb engine's MergeSortOperator (--merge_operator=sortlist). It
// merges as RocksDB 7.8.3's SortList (utilities/merge_operators/sortlist.cc)
// does, with one difference: RocksDB's SortList::MakeVector reads each
// operand from its first byte up to a NUL byte, past the operand's end into
// whatever memory follows it (the next memtable node, the next block entry),
// so a Get can merge numbers that were never written, or abort the process
// with an uncaught std::invalid_argument from std::stoi when the bytes after
// an operand are a comma and a non-digit. This one reads an operand only up
// to its end (or its first NUL byte, as RocksDB's would if the operand were
// the last thing in memory), fails the merge where std::stoi throws, and
// declines partial merges, where RocksDB's PartialMergeMulti answers true
// and writes nothing, leaving an empty operand no later full merge can
// read. The name stays "MergeSortOperator", so a database either made
// opens with the other.
//
// Operand format: decimal ints in ascending order separated by ','; each
// token is read as std::stoi reads one: optional leading white space, an
// optional sign, at least one digit, anything after the digits ignored, the
// value within 32 bits. The result of a full merge is the merge sort of the
// operands, oldest first, taking from the newer list on ties, written back
// the same way; the existing value is ignored, as RocksDB's ignores it.

#include "sortlist.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace {

using ROCKSDB_NAMESPACE::Logger;
using ROCKSDB_NAMESPACE::MergeOperator;
using ROCKSDB_NAMESPACE::Slice;

bool is_c_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// read_int reads [p, end) as std::stoi does, returning false where stoi
// throws.
bool read_int(const char* p, const char* end, int* out) {
  while (p < end && is_c_space(*p)) p++;
  bool negative = false;
  if (p < end && (*p == '+' || *p == '-')) {
    negative = *p == '-';
    p++;
  }
  const int64_t limit = int64_t{1} << 31;  // magnitude of INT_MIN
  int64_t magnitude = 0;
  int digits = 0;
  for (; p < end && *p >= '0' && *p <= '9'; p++) {
    digits++;
    if (magnitude <= limit) magnitude = magnitude * 10 + (*p - '0');
  }
  if (digits == 0) return false;
  if (negative) {
    if (magnitude > limit) return false;
    *out = static_cast<int>(-magnitude);
    return true;
  }
  if (magnitude >= limit) return false;
  *out = static_cast<int>(magnitude);
  return true;
}

// read_list appends the ints of operand to list, false at a token std::stoi
// refuses.
bool read_list(const Slice& operand, std::vector<int>* list) {
  const char* p = operand.data();
  const char* end = p + operand.size();
  if (const void* nul = memchr(p, 0, operand.size())) end = static_cast<const char*>(nul);
  for (;;) {
    const char* comma = static_cast<const char*>(memchr(p, ',', static_cast<size_t>(end - p)));
    const char* token_end = comma != nullptr ? comma : end;
    int v;
    if (!read_int(p, token_end, &v)) return false;
    list->push_back(v);
    if (comma == nullptr) return true;
    p = comma + 1;
  }
}

// merge_into sets *out to the merge of left and right, from right on ties.
void merge_into(const std::vector<int>& left, const std::vector<int>& right,
                std::vector<int>* out) {
  out->clear();
  out->reserve(left.size() + right.size());
  size_t l = 0, r = 0;
  while (l < left.size() && r < right.size()) {
    if (left[l] < right[r]) {
      out->push_back(left[l++]);
    } else {
      out->push_back(right[r++]);
    }
  }
  out->insert(out->end(), left.begin() + static_cast<std::ptrdiff_t>(l), left.end());
  out->insert(out->end(), right.begin() + static_cast<std::ptrdiff_t>(r), right.end());
}

class BoundedSortList : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    std::vector<int> merged, operand, next;
    for (const Slice& s : in.operand_list) {
      operand.clear();
      if (!read_list(s, &operand)) return false;
      merge_into(merged, operand, &next);
      merged.swap(next);
    }
    std::string& value = out->new_value;
    value.clear();
    for (size_t i = 0; i < merged.size(); i++) {
      if (i > 0) value.push_back(',');
      value.append(std::to_string(merged[i]));
    }
    return true;
  }

  bool PartialMerge(const Slice&, const Slice&, const Slice&, std::string*,
                    Logger*) const override {
    return false;
  }

  bool PartialMergeMulti(const Slice&, const std::deque<Slice>&, std::string*,
                         Logger*) const override {
    return false;
  }

  const char* Name() const override { return "MergeSortOperator"; }
};

}  // namespace

bool gdb_is_sortlist_name(const char* name) {
  return strcmp(name, "sortlist") == 0 || strcmp(name, "MergeSortOperator") == 0;
}

std::shared_ptr<MergeOperator> gdb_new_sortlist() { return std::make_shared<BoundedSortList>(); }
