#include "gate/per_patch_timing.h"

#include <gtest/gtest.h>

namespace kseries::gate {
namespace {

cases::TimingData timing(double fsdax) {
  cases::TimingData data;
  auto& s = data[{"fsdax-dev", "memmap_init_mns"}];
  s.unit = "mns";
  for (int i = 0; i < 10; ++i) {
    s.rebinds.push_back(fsdax + (i % 2 ? 1 : -1));
  }
  s.rebind_blocks = {10};
  auto& v = data[{"fsdax-dev", "memmap_init_vns"}];
  v.unit = "vns";
  v.rebinds = s.rebinds;
  v.rebind_blocks = {10};
  return data;
}

TEST(PerPatchTimingTest, EachPatchAgainstTheBaseAndTheOneBefore) {
  const auto table = render_per_patch_timing({{"base", timing(1000)},
                                              {"1/3 first", timing(1000)},
                                              {"2/3 second", timing(890)},
                                              {"3/3 third", timing(400)}});
  EXPECT_EQ(table.metric, "memmap_init_mns");  // the memory clock's, when there
  EXPECT_NE(table.text.find("2/3 second"), std::string::npos);
  EXPECT_NE(table.text.find("-11.0%"), std::string::npos) << table.text;  // 2/3 vs base
  EXPECT_NE(table.text.find("-55.1%"), std::string::npos) << table.text;  // 3/3 vs 2/3
  EXPECT_NE(table.text.find("same"), std::string::npos);                  // 1/3
  ASSERT_EQ(table.tip_changes.size(), 1u);
  EXPECT_EQ(table.tip_changes[0], "fsdax-dev -60.0%");
}

TEST(PerPatchTimingTest, NothingToTableSaysSo) {
  EXPECT_NE(render_per_patch_timing({{"base", {}}, {"1/1 x", {}}}).text.find("no memmap"),
            std::string::npos);
  EXPECT_NE(render_per_patch_timing({{"base", timing(1)}}).text.find("no patch"),
            std::string::npos);
}

}  // namespace
}  // namespace kseries::gate
