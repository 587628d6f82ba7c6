#include "cli/options.h"

#include <gtest/gtest.h>

#include <optional>

#include "core/error.h"

namespace kseries::cli {
namespace {

std::optional<ErrorKind> kind_of(void (*call)()) {
  try {
    call();
  } catch (const Error& e) {
    return e.kind();
  }
  return std::nullopt;
}

TEST(OptionsTest, EachWordIsParsedOnceAndAnyOtherIsAUsageError) {
  EXPECT_EQ(parse_accel("kvm"), qemu::Accel::k_kvm);
  EXPECT_EQ(parse_accel("tcg"), qemu::Accel::k_tcg);
  EXPECT_EQ(parse_accel("auto"), qemu::Accel::k_auto);
  EXPECT_EQ(kind_of([] { parse_accel("KVM"); }), ErrorKind::k_usage);
  EXPECT_EQ(checked_clock("icount"), "icount");
  EXPECT_EQ(checked_clock("memory"), "memory");
  EXPECT_EQ(kind_of([] { checked_clock("icuont"); }), ErrorKind::k_usage);
  EXPECT_EQ(kind_of([] { checked_clock("both"); }), ErrorKind::k_usage);
  EXPECT_EQ(checked_clock("both", ClockBoth::k_allowed), "both");
  EXPECT_EQ(checked_pmem("nvdimm"), "nvdimm");
  EXPECT_EQ(kind_of([] { checked_pmem("dax"); }), ErrorKind::k_usage);
}

}  // namespace
}  // namespace kseries::cli
