#pragma once
// The comparison table kernel developers know from the 0-day/LKP reports
// ("%change ±%stddev"), with the interval of the change, the p-value and the
// verdict added before the metric name, which stays last as in LKP:
//
//       base-v6.12       zone-device-memmap/v6
//   ---------------- ---------------------------
//            %stddev     %change         %stddev  95% CI of change      p        verdict
//   (LKP's marker line: a backslash under each %stddev, a bar under %change)
//        31.30 ± 10%     -59.9%      12.55 ± 10%  [  -62.3%,   -57.4%]  <0.0001  faster   a.ms
//
// LKP's column rules are kept: a mean is "%10.2f" below 1000, "%10.4g"
// above 1e8 and a truncated integer between; " ±NN%" (the sample stddev as a
// truncated percentage of the mean) only when above 2 %; the change is
// "%+10.1f%%"; headings are cut to 16 and 27 characters. A change that
// cannot be computed prints as "n/a". Each row's verdict and reason follow
// the table, one line per metric.

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
// columns.
std::string render_lkp_table(std::string_view base_name, std::string_view candidate_name,
                             std::span<const LkpRow> rows);

// One metric row without the trailing newline (the table's body line).
std::string render_lkp_row(const LkpRow& row);

}  // namespace kseries::stats
