#include "report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/markup.h"

namespace kseries::report {

namespace {

constexpr double k_width = 780;
constexpr double k_plot_left = 200;
constexpr double k_plot_right = 560;
constexpr double k_row_height = 26;
constexpr double k_top = 22;
constexpr double k_axis_height = 30;
// The largest axis end: 1e300 leaves room for the headroom and the ticks.
constexpr double k_max_axis = 1e300;
// And well above the denormals, whose fifth is 0 (a zero tick step, inf
// ticks: fuzz_report_text's find, a sample of 1.5e-323).
constexpr double k_min_axis = 1e-300;

std::string num(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

const char* colour(Tone tone) {
  switch (tone) {
    case Tone::k_base:
      return "#6e7781";
    case Tone::k_faster:
      return "#1a7f37";
    case Tone::k_slower:
      return "#cf222e";
    case Tone::k_neutral:
      return "#0969da";
  }
  return "#000";
}

// A step of 1, 2 or 5 times a power of ten giving about five ticks.
double tick_step(double top) {
  const double raw = top / 5;
  const double power = std::pow(10, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) {
      return m * power;
    }
  }
  return 10 * power;
}

}  // namespace

std::string si_number(double value) {
  const char* prefixes[] = {"", "k", "M", "G", "T"};
  double v = value;
  int i = 0;
  while (std::abs(v) >= 1000 && i < 4) {
    v /= 1000;
    ++i;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g%s", v, prefixes[i]);
  return buffer;
}

std::string render_strip_plot(const StripPlot& plot) {
  double top = 0;
  for (const auto& row : plot.rows) {
    for (const double s : row.samples) {
      if (std::isfinite(s)) {
        top = std::max(top, s);
      }
    }
    if (std::isfinite(row.high)) {
      top = std::max(top, row.high);
    }
  }
  if (!(top > 0)) {
    top = 1;
  }
  // A finite axis whatever the samples (a results.json or a guest may carry
  // 1.7976931348623157e308, whose 2 % headroom is inf): capped well below
  // DBL_MAX and above the denormals, and ticks counted, never summed (t += step never grows once
  // step is below t's precision).
  top = std::clamp(top, k_min_axis, k_max_axis);
  const double step = tick_step(top);
  const double ticks = std::ceil(top * 1.02 / step);
  const double axis_max = ticks * step;
  const auto x = [&](double value) {
    return k_plot_left + (k_plot_right - k_plot_left) * std::clamp(value / axis_max, 0.0, 1.0);
  };
  const double height =
      k_top + k_row_height * static_cast<double>(plot.rows.size()) + k_axis_height;
  const double axis_y = k_top + k_row_height * static_cast<double>(plot.rows.size());

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"strip\" width=\"" +
                    num(k_width) + "\" height=\"" + num(height) + "\" viewBox=\"0 0 " +
                    num(k_width) + " " + num(height) + "\" role=\"img\">";
  svg += "<title>" + escape(plot.title) + "</title>";
  svg += "<text x=\"0\" y=\"14\" class=\"plot-title\">" + escape(plot.title) + "</text>";
  // The axis: ticks, grid lines, the unit.
  for (int tick = 0; tick <= static_cast<int>(ticks); ++tick) {
    const double t = tick * step;
    svg += "<line x1=\"" + num(x(t)) + "\" y1=\"" + num(k_top) + "\" x2=\"" + num(x(t)) +
           "\" y2=\"" + num(axis_y + 4) + "\" class=\"grid\"/>";
    svg += "<text x=\"" + num(x(t)) + "\" y=\"" + num(axis_y + 16) +
           "\" text-anchor=\"middle\" class=\"tick\">" + escape(si_number(t)) + "</text>";
  }
  svg += "<text x=\"" + num(k_plot_right + 28) + "\" y=\"" + num(axis_y + 16) +
         "\" class=\"tick\">" + escape(plot.unit) + "</text>";
  for (std::size_t r = 0; r < plot.rows.size(); ++r) {
    const auto& row = plot.rows[r];
    const double mid = k_top + k_row_height * (static_cast<double>(r) + 0.5);
    const char* fill = colour(row.tone);
    svg += "<text x=\"" + num(k_plot_left - 8) + "\" y=\"" + num(mid + 4) +
           "\" text-anchor=\"end\" class=\"label\">" + escape(row.label) + "</text>";
    for (std::size_t i = 0; i < row.samples.size(); ++i) {
      if (!std::isfinite(row.samples[i])) {
        continue;
      }
      // A fixed jitter pattern: the same data draws the same picture.
      const double jitter = (static_cast<double>((i * 7) % 11) / 10.0 - 0.5) * k_row_height * 0.5;
      svg += "<circle cx=\"" + num(x(row.samples[i])) + "\" cy=\"" + num(mid + jitter) +
             "\" r=\"2.5\" fill=\"" + fill + "\" fill-opacity=\"0.45\"/>";
    }
    if (std::isfinite(row.low) && std::isfinite(row.high)) {
      svg += "<line x1=\"" + num(x(row.low)) + "\" y1=\"" + num(mid) + "\" x2=\"" +
             num(x(row.high)) + "\" y2=\"" + num(mid) +
             "\" stroke=\"#24292f\" stroke-width=\"3\"/>";
    }
    if (std::isfinite(row.mean)) {
      svg += "<line x1=\"" + num(x(row.mean)) + "\" y1=\"" + num(mid - 8) + "\" x2=\"" +
             num(x(row.mean)) + "\" y2=\"" + num(mid + 8) +
             "\" stroke=\"#24292f\" stroke-width=\"2\"/>";
    }
    if (!row.note.empty()) {
      svg += "<text x=\"" + num(k_plot_right + 8) + "\" y=\"" + num(mid + 4) + "\" fill=\"" + fill +
             "\" class=\"note\">" + escape(row.note) + "</text>";
    }
  }
  svg += "</svg>";
  return svg;
}

}  // namespace kseries::report
