#pragma once
// Strip plots for the HTML report, as inline SVG (no script, no font file):
// one row per kernel, every sample a dot (jittered vertically so ties stay
// visible), the mean a tick and its 95 % interval a bar, on an axis that
// starts at zero so the length of a change reads as its size.
//
//   base                  |   ..:.:|:.:.                    |
//   zone-device-memmap/v10|  .:|:.                          | -29.5 % faster
//                         0        10M        20M        30M vns

#include <string>
#include <vector>

namespace kseries::report {

enum class Tone { k_base, k_faster, k_slower, k_neutral };

struct StripRow {
  std::string label;  // "base", "zone-device-memmap/v10"
  std::vector<double> samples;
  double mean = 0;
  double low = 0;  // the mean's interval
  double high = 0;
  std::string note;  // "-29.5 % [-29.5, -29.4] faster"
  Tone tone = Tone::k_neutral;
};

struct StripPlot {
  std::string title;  // "devdax-mem memmap_init_vns"
  std::string unit;   // "vns"
  std::vector<StripRow> rows;
};

// An <svg> element; every label and note escaped.
std::string render_strip_plot(const StripPlot& plot);

// "16.4M", "950k", "23", "0.5": three significant digits and an SI prefix,
// for axis ticks.
std::string si_number(double value);

}  // namespace kseries::report
