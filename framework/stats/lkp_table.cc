#include "stats/lkp_table.h"

#include <cmath>
#include <cstdio>

namespace kseries::stats {

namespace {

// LKP's widths: mean 10, " ±NN%" 6, change 10 plus "% ".
constexpr int k_value_width = 10;
constexpr int k_base_heading_width = 16;
constexpr int k_candidate_heading_width = 27;
constexpr double k_stddev_shown_above_percent = 2;

template <typename... Args>
std::string format(const char* pattern, Args... args) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, pattern, args...);
  return buffer;
}

std::string mean_text(double mean) {
  if (!std::isfinite(mean)) {
    return format("%*s", k_value_width, "n/a");
  }
  if (std::abs(mean) < 1000) {
    return format("%*.2f", k_value_width, mean);
  }
  if (std::abs(mean) > 100000000) {
    return format("%*.4g", k_value_width, mean);
  }
  // LKP prints Ruby's "%d" of a float: truncated toward zero.
  return format("%*lld", k_value_width, static_cast<long long>(mean));
}

std::string stddev_text(const Summary& summary) {
  double percent = summary.stddev;
  if (summary.mean != 0) {
    percent = 100 * summary.stddev / summary.mean;
  }
  if (!(percent > k_stddev_shown_above_percent)) {
    return "      ";
  }
  return format(" \u00b1%3lld%%", static_cast<long long>(percent));
}

std::string change_text(double relative_change) {
  if (!std::isfinite(relative_change)) {
    return format("%*s  ", k_value_width, "n/a");
  }
  const double percent = 100 * relative_change;
  if (std::abs(percent) < 100000) {
    return format("%+*.1f%% ", k_value_width, percent);
  }
  return format("%+*.2g%% ", k_value_width, percent);
}

std::string interval_text(const Interval& ratio_interval) {
  if (!std::isfinite(ratio_interval.low) || !std::isfinite(ratio_interval.high)) {
    return format("%-20s", "[n/a]");
  }
  return format("[%+7.1f%%, %+7.1f%%]", 100 * (ratio_interval.low - 1),
                100 * (ratio_interval.high - 1));
}

std::string p_text(double p) {
  if (p < 0.0001) {
    return format("%-7s", "<0.0001");
  }
  return format("%-7.2g", p);
}

std::string cut(std::string_view text, int width) {
  return std::string(text.substr(0, static_cast<std::size_t>(width)));
}

}  // namespace

std::string render_lkp_row(const LkpRow& row) {
  const Comparison& c = row.comparison;
  std::string line;
  line += mean_text(c.base.mean);
  line += stddev_text(c.base);
  line += change_text(c.relative_change);
  line += mean_text(c.candidate.mean);
  line += stddev_text(c.candidate);
  line += "  " + interval_text(c.ratio_interval);
  line += "  " + p_text(c.rank_test.p);
  line += "  " + format("%-7s", std::string(verdict_name(c.verdict)).c_str());
  line += "  " + row.metric;
  return line;
}

std::string render_lkp_table(std::string_view base_name, std::string_view candidate_name,
                             std::span<const LkpRow> rows) {
  std::string out;
  out += format("%*s ", k_base_heading_width, cut(base_name, k_base_heading_width).c_str());
  out += format("%*s \n", k_candidate_heading_width,
                cut(candidate_name, k_candidate_heading_width).c_str());
  out += std::string(k_base_heading_width, '-') + " " +
         std::string(k_candidate_heading_width, '-') + " \n";
  // LKP's two header lines, then the columns kseries adds.
  out += "         %stddev     %change         %stddev";
  out += "  " + format("%-20s", "95% CI of change") + "  " + format("%-7s", "p") + "  verdict\n";
  out += "             \\          |                \\  \n";
  for (const LkpRow& row : rows) {
    out += render_lkp_row(row) + "\n";
  }
  if (!rows.empty()) {
    out += "\n";
  }
  for (const LkpRow& row : rows) {
    out += row.metric + ": " + std::string(verdict_name(row.comparison.verdict)) + ", " +
           row.comparison.reason + "\n";
  }
  return out;
}

}  // namespace kseries::stats
