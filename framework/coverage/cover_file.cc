#include "coverage/cover_file.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>

#include "core/error.h"
#include "core/text.h"
#include "sys/file_streams.h"
#include "sys/files.h"

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

CoverParser::CoverParser(std::string what, std::size_t max_pcs)
    : m_what(std::move(what)), m_max_pcs(max_pcs) {}

std::optional<ExecutedPc> CoverParser::line(std::string_view text, std::size_t number) {
  auto fail = [&](const std::string& why) {
    return usage_error(m_what + ":" + std::to_string(number) + ": " + why);
  };
  if (!m_header) {
    if (!starts_with(text, "kseries-cover ")) {
      throw fail("not a kseries cover file (no 'kseries-cover' header)");
    }
    const auto header = split_words(text);
    if (std::find(header.begin(), header.end(), "version=1") == header.end()) {
      throw fail("unknown cover file version (this kseries reads version=1)");
    }
    m_header = true;
    return std::nullopt;
  }
  if (m_complete) {
    throw fail("text after the 'end' line");
  }
  const auto words = split_words(text);
  if (words.empty()) {
    return std::nullopt;
  }
  if (words[0] == "end") {
    std::uint64_t pcs = 0;
    if (words.size() != 2 || !starts_with(words[1], "pcs=") ||
        !parse_number(std::string_view(words[1]).substr(4), 10, pcs)) {
      throw fail("malformed 'end' line (end pcs=N)");
    }
    if (pcs != m_pcs) {
      throw fail("the 'end' line counts " + std::to_string(pcs) + " addresses, the file has " +
                 std::to_string(m_pcs));
    }
    m_complete = true;
    return std::nullopt;
  }
  ExecutedPc pc;
  if (words.size() != 2 || !parse_pc(words[0], pc.pc) || !parse_number(words[1], 10, pc.count)) {
    throw fail("expected '0xADDRESS COUNT'");
  }
  if (pc.count == 0) {
    throw fail("a count of 0 (only executed addresses are listed)");
  }
  if (m_pcs > 0 && pc.pc <= m_last) {
    throw fail("addresses out of order or repeated");
  }
  if (m_pcs == m_max_pcs) {
    throw fail("more than " + std::to_string(m_max_pcs) + " addresses");
  }
  ++m_pcs;
  m_last = pc.pc;
  return pc;
}

void CoverParser::finish() const {
  if (!m_header) {
    throw usage_error(m_what + ":1: not a kseries cover file (no 'kseries-cover' header)");
  }
}

CoverFile parse_cover_text(std::string_view text, const std::string& what, std::size_t max_pcs) {
  CoverParser parser(what, max_pcs);
  CoverFile file;
  std::size_t number = 0;
  for (const auto line : split_lines(text)) {
    if (auto pc = parser.line(line, ++number)) {
      file.pcs.push_back(*pc);
    }
  }
  parser.finish();
  file.complete = parser.complete();
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

AddressRanges normalise_ranges(AddressRanges ranges) {
  std::sort(ranges.begin(), ranges.end());
  AddressRanges out;
  for (const auto& range : ranges) {
    if (range.first >= range.second) {
      continue;
    }
    if (!out.empty() && range.first <= out.back().second) {
      out.back().second = std::max(out.back().second, range.second);
    } else {
      out.push_back(range);
    }
  }
  return out;
}

namespace {

// One cover file as it streams: its next address, checked.
class CoverStream {
 public:
  explicit CoverStream(const std::filesystem::path& path)
      : m_reader(path, k_max_cover_line_bytes, k_max_cover_bytes), m_parser(path.string()) {
    advance();
  }
  const std::optional<ExecutedPc>& head() const { return m_head; }
  bool complete() const { return m_parser.complete(); }
  void advance() {
    m_head.reset();
    while (const auto line = m_reader.next()) {
      if ((m_head = m_parser.line(*line, m_reader.line_number()))) {
        return;
      }
    }
    m_parser.finish();
  }

 private:
  LineReader m_reader;
  CoverParser m_parser;
  std::optional<ExecutedPc> m_head;
};

}  // namespace

Executed read_executed(const std::vector<std::filesystem::path>& files, const AddressRanges& keep) {
  std::vector<std::unique_ptr<CoverStream>> streams;
  for (const auto& file : files) {
    streams.push_back(std::make_unique<CoverStream>(file));
  }
  Executed out;
  std::size_t range = 0;  // the first range of KEEP that may still hold an address
  for (;;) {
    // The least address at the heads (a boot or a few per cell: a scan).
    std::optional<std::uint64_t> least;
    for (const auto& stream : streams) {
      if (stream->head() && (!least || stream->head()->pc < *least)) {
        least = stream->head()->pc;
      }
    }
    if (!least) {
      break;
    }
    std::uint64_t count = 0;
    for (const auto& stream : streams) {
      if (stream->head() && stream->head()->pc == *least) {
        const std::uint64_t add = stream->head()->count;
        count = count + add < count ? UINT64_MAX : count + add;
        stream->advance();
      }
    }
    ++out.distinct;
    while (range < keep.size() && keep[range].second <= *least) {
      ++range;
    }
    if (range < keep.size() && keep[range].first <= *least) {
      out.pcs.push_back({*least, count});
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!streams[i]->complete()) {
      out.cut_short.push_back(files[i].string());
    }
  }
  return out;
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
