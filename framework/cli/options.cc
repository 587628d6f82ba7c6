#include "cli/options.h"

#include "core/error.h"

namespace kseries::cli {

qemu::Accel parse_accel(const std::string& text) {
  if (text == "kvm") {
    return qemu::Accel::k_kvm;
  }
  if (text == "tcg") {
    return qemu::Accel::k_tcg;
  }
  if (text == "auto") {
    return qemu::Accel::k_auto;
  }
  throw usage_error("--accel must be auto, kvm or tcg, not '" + text + "'");
}

std::string checked_clock(const std::string& text, ClockBoth both) {
  if (both == ClockBoth::k_allowed && text == "both") {
    return text;
  }
  qemu::check_clock_name(text);
  return text;
}

std::string checked_pmem(const std::string& text) {
  if (text != "legacy" && text != "nvdimm") {
    throw usage_error("--pmem must be legacy or nvdimm, not '" + text + "'");
  }
  return text;
}

}  // namespace kseries::cli
