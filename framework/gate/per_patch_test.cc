#include "gate/per_patch.h"

#include <gtest/gtest.h>

#include "git/libgit2.h"
#include "testing/fake_builds.h"

namespace kseries::gate {
namespace {

namespace fs = std::filesystem;

git_oid oid(char digit) {
  git_oid id{};
  git_oid_fromstr(&id, std::string(40, digit).c_str());
  return id;
}

// The loop `kseries build --per-patch` and the gate's per-patch stage share:
// every step built in order, a broken one does not stop the next, test
// modules and nothing else for the last step.
TEST(BuildSteps, BuildsEveryStepInOrderAndModulesOnlyForTheLast) {
  kernel::Target target;
  target.name = "pmem";
  testing::FakeBuilds builder;
  builder.failing = {1};
  const std::vector<BuildStep> steps{{"s 1/3", "one", oid('1'), 1},
                                     {"s 2/3", "two", oid('2'), 2},
                                     {"s 3/3", "three", oid('3'), 3}};
  BuildStepsOptions options;
  options.log = [](std::size_t s) { return fs::path("/tmp/log-" + std::to_string(s)); };
  options.last_step_modules = {"/testcases/memmap"};
  std::vector<std::size_t> started;
  options.starting = [&](std::size_t s) { started.push_back(s); };
  const auto results = build_steps(target, steps, options, builder);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(started, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_TRUE(results[0].kernel);
  EXPECT_FALSE(results[1].kernel);
  EXPECT_EQ(results[1].status, kernel::StepStatus::k_build_failed);
  EXPECT_TRUE(results[2].kernel);
  ASSERT_EQ(builder.requests.size(), 3u);
  EXPECT_EQ(builder.requests[0].commit, std::string(40, '1'));
  EXPECT_EQ(builder.requests[2].commit, std::string(40, '3'));
  EXPECT_TRUE(builder.requests[0].test_modules.empty());
  EXPECT_TRUE(builder.requests[1].test_modules.empty());
  EXPECT_EQ(builder.requests[2].test_modules, std::vector<fs::path>{"/testcases/memmap"});
  EXPECT_EQ(results[2].log, "/tmp/log-2");
}

TEST(BuildSteps, ConfigureOnlyReachesEveryRequest) {
  kernel::Target target;
  target.name = "pmem";
  testing::FakeBuilds builder;
  BuildStepsOptions options;
  options.log = [](std::size_t) { return fs::path("/tmp/log"); };
  options.configure_only = true;
  build_steps(target, {{"base", "b", oid('a'), 0}, {"s 1/1", "one", oid('b'), 1}}, options,
              builder);
  ASSERT_EQ(builder.requests.size(), 2u);
  EXPECT_TRUE(builder.requests[0].configure_only);
  EXPECT_TRUE(builder.requests[1].configure_only);
}

TEST(AddedWarnings, OnlyWhatTheBuildBeforeDidNotHaveInOrder) {
  EXPECT_EQ(added_warnings({"a.c:1: w", "b.c:2: w"}, {"c.c:3: w", "a.c:1: w", "d.c:4: w"}),
            (std::vector<std::string>{"c.c:3: w", "d.c:4: w"}));
  EXPECT_TRUE(added_warnings({"a.c:1: w"}, {"a.c:1: w"}).empty());
  EXPECT_EQ(added_warnings({}, {"a.c:1: w"}), std::vector<std::string>{"a.c:1: w"});
}

}  // namespace
}  // namespace kseries::gate
