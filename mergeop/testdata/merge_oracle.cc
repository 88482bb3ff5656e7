// merge_oracle runs librocksdb's own merge operators on requests read from
// stdin, one per line, and answers each on one line of stdout. Byte strings
// travel as lower-case hex, "-" standing for the empty string.
//
//   N <spec>                          -> "OK <Name()>" | "ERR <status>"
//   F <spec> <has> <existing> <n> <operand>...
//                                     -> "OK <result>" | "FAIL"
//   P <spec> <n> <operand>...         -> "OK <result>" | "DECLINE"
//
// F is FullMergeV2 (has is 1 when there is an existing value); P is
// PartialMergeMulti, what RocksDB's MergeHelper calls.
#include <deque>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <rocksdb/convenience.h>
#include <rocksdb/merge_operator.h>

namespace {

std::string FromHex(const std::string& hex) {
  std::string bytes;
  if (hex == "-") return bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

std::string ToHex(const std::string& bytes) {
  if (bytes.empty()) return "-";
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : bytes) {
    hex.push_back(kDigits[c >> 4]);
    hex.push_back(kDigits[c & 15]);
  }
  return hex;
}

std::shared_ptr<rocksdb::MergeOperator> Load(const std::string& spec,
                                             rocksdb::Status* status) {
  std::shared_ptr<rocksdb::MergeOperator> op;
  rocksdb::ConfigOptions config;
  *status = rocksdb::MergeOperator::CreateFromString(config, spec, &op);
  return op;
}

std::string Answer(const std::string& line) {
  std::istringstream in(line);
  std::string verb, spec;
  in >> verb >> spec;
  rocksdb::Status status;
  auto op = Load(spec, &status);
  if (!status.ok() || op == nullptr) return "ERR " + status.ToString();
  if (verb == "N") return std::string("OK ") + op->Name();

  bool has_existing = false;
  std::string existing;
  if (verb == "F") {
    int has = 0;
    std::string hex;
    in >> has >> hex;
    has_existing = has != 0;
    existing = FromHex(hex);
  }
  size_t n = 0;
  in >> n;
  std::vector<std::string> operands(n);
  for (auto& operand : operands) {
    std::string hex;
    in >> hex;
    operand = FromHex(hex);
  }

  std::string result;
  if (verb == "F") {
    std::vector<rocksdb::Slice> slices(operands.begin(), operands.end());
    rocksdb::Slice existing_slice(existing);
    rocksdb::MergeOperator::MergeOperationInput input(
        "key", has_existing ? &existing_slice : nullptr, slices, nullptr);
    rocksdb::Slice result_operand(nullptr, 0);
    rocksdb::MergeOperator::MergeOperationOutput output(result, result_operand);
    if (!op->FullMergeV2(input, &output)) return "FAIL";
    if (result_operand.data() != nullptr) result = result_operand.ToString();
    return "OK " + ToHex(result);
  }
  std::deque<rocksdb::Slice> slices(operands.begin(), operands.end());
  if (!op->PartialMergeMulti("key", slices, &result, nullptr)) return "DECLINE";
  return "OK " + ToHex(result);
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::cout << Answer(line) << std::endl;
  }
  return 0;
}
