#include "gate/expectations.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries::gate {
namespace {

TEST(ExpectationsTest, ParsesFailLines) {
  const auto e = parse_expectations("# why\nfail: pmem memmap-types: _refcount\n", "expect");
  ASSERT_EQ(e.fails.size(), 1u);
  EXPECT_EQ(e.fails[0].cell, "pmem memmap-types");
  EXPECT_NE(e.find("pmem memmap-types"), nullptr);
}

// An empty expect file made a revision known-bad with nothing to fail:
// every verdict read EXPECTED.
TEST(ExpectationsTest, AFileThatExpectsNothingIsRefused) {
  for (const std::string text : {"", "# only a comment\n", "\n\n"}) {
    try {
      parse_expectations(text, "series/expect");
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::k_usage_or_infra);
      EXPECT_NE(std::string(e.what()).find("series/expect: expects nothing"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace kseries::gate
