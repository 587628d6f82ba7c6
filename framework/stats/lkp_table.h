#pragma once
// The comparison table kernel developers know from the 0-day/LKP reports
// ("%change ±%stddev"), with the interval, p-value and verdict added on the
// right and the metric name last, as in LKP:
//
//   base-name        candidate-name
//   ---------------- ---------------------------
//            %stddev     %change         %stddev  95% CI of change     p        verdict
//                \          |                \
//        30.20 ±  5%     -60.3%      12.00 ±  8%  [ -63.1%,  -57.0%]  <0.0001  faster   metric
//
// LKP's column rules are kept: a mean is "%10.2f" below 1000, "%10.4g"
// above 1e8 and a truncated integer between; " ±NN%" (the sample stddev as a
// truncated percentage of the mean) only when above 2 %; the change is
// "%+10.1f%%". A change that cannot be computed prints as "n/a".
// Each row's reason follows the table, one line per metric.

#include <span>
#include <string>
#include <string_view>

#include "stats/compare.h"

namespace kseries::stats {

struct LkpRow {
  std::string metric;  // "memmap_init_zone_device.fsdax-map-dev.ms"
  Comparison comparison;
};

// Renders the whole table; base_name and candidate_name head the two value
// columns (cut to 16 and 27 characters as LKP does).
std::string render_lkp_table(std::string_view base_name, std::string_view candidate_name,
                             std::span<const LkpRow> rows);

// One metric row without the trailing newline (the table's body line).
std::string render_lkp_row(const LkpRow& row);

}  // namespace kseries::stats
