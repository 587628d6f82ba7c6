#include "coverage/cover_file.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "core/error.h"
#include "core/text.h"

namespace kseries::coverage {

namespace {

bool parse_number(std::string_view text, int base, std::uint64_t& value) {
  if (text.empty()) {
    return false;
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_pc(std::string_view text, std::uint64_t& value) {
  return starts_with(text, "0x") && parse_number(text.substr(2), 16, value);
}

}  // namespace

CoverFile parse_cover_text(std::string_view text, const std::string& what, std::size_t max_pcs) {
  const auto lines = split_lines(text);
  auto fail = [&](std::size_t index, const std::string& why) {
    return usage_error(what + ":" + std::to_string(index + 1) + ": " + why);
  };
  if (lines.empty() || !starts_with(lines[0], "kseries-cover ")) {
    throw fail(0, "not a kseries cover file (no 'kseries-cover' header)");
  }
  const auto header = split_words(lines[0]);
  if (std::find(header.begin(), header.end(), "version=1") == header.end()) {
    throw fail(0, "unknown cover file version (this kseries reads version=1)");
  }
  CoverFile file;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (file.complete) {
      throw fail(i, "text after the 'end' line");
    }
    const auto words = split_words(lines[i]);
    if (words.empty()) {
      continue;
    }
    if (words[0] == "end") {
      std::uint64_t pcs = 0;
      if (words.size() != 2 || !starts_with(words[1], "pcs=") ||
          !parse_number(std::string_view(words[1]).substr(4), 10, pcs)) {
        throw fail(i, "malformed 'end' line (end pcs=N)");
      }
      if (pcs != file.pcs.size()) {
        throw fail(i, "the 'end' line counts " + std::to_string(pcs) + " addresses, the file has " +
                          std::to_string(file.pcs.size()));
      }
      file.complete = true;
      continue;
    }
    ExecutedPc pc;
    if (words.size() != 2 || !parse_pc(words[0], pc.pc) || !parse_number(words[1], 10, pc.count)) {
      throw fail(i, "expected '0xADDRESS COUNT'");
    }
    if (pc.count == 0) {
      throw fail(i, "a count of 0 (only executed addresses are listed)");
    }
    if (!file.pcs.empty() && pc.pc <= file.pcs.back().pc) {
      throw fail(i, "addresses out of order or repeated");
    }
    if (file.pcs.size() == max_pcs) {
      throw fail(i, "more than " + std::to_string(max_pcs) + " addresses");
    }
    file.pcs.push_back(pc);
  }
  return file;
}

std::vector<ExecutedPc> merge_executed(const std::vector<CoverFile>& files) {
  std::map<std::uint64_t, std::uint64_t> counts;
  for (const auto& file : files) {
    for (const auto& pc : file.pcs) {
      std::uint64_t& count = counts[pc.pc];
      count = count + pc.count < count ? UINT64_MAX : count + pc.count;
    }
  }
  std::vector<ExecutedPc> merged;
  merged.reserve(counts.size());
  for (const auto& [pc, count] : counts) {
    merged.push_back({pc, count});
  }
  return merged;
}

std::uint64_t executions_in(const std::vector<ExecutedPc>& pcs, std::uint64_t begin,
                            std::uint64_t end) {
  auto it =
      std::lower_bound(pcs.begin(), pcs.end(), begin,
                       [](const ExecutedPc& pc, std::uint64_t value) { return pc.pc < value; });
  std::uint64_t most = 0;
  for (; it != pcs.end() && it->pc < end; ++it) {
    most = std::max(most, it->count);
  }
  return most;
}

}  // namespace kseries::coverage
