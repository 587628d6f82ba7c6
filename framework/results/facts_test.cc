#include "results/facts.h"

#include <gtest/gtest.h>

namespace kseries::results {
namespace {

// The names are gate.json's and JUnit's since the first gate: files and
// golden reports written before still read.
TEST(FactsTest, TheNamesAreTheOnesGateJsonAlwaysHad) {
  EXPECT_EQ(patch_fact_key(3, PatchFact::k_build), "patch.3.build");
  EXPECT_EQ(patch_fact_key(1, PatchFact::k_new_warnings), "patch.1.new_warnings");
  EXPECT_EQ(kernel_fact_key("candidate", KernelFact::k_seconds), "build.candidate.seconds");
}

TEST(FactsTest, WhatIsSetReadsBackAndWhatIsNotIsEmpty) {
  Properties properties;
  set_patch_fact(properties, 2, PatchFact::k_apply, "applied");
  set_kernel_fact(properties, "candidate", KernelFact::k_arch, "arm64");
  EXPECT_EQ(patch_fact(properties, 2, PatchFact::k_apply), "applied");
  EXPECT_EQ(patch_fact(properties, 1, PatchFact::k_apply), "");
  EXPECT_EQ(patch_fact(properties, 2, PatchFact::k_build), "");
  EXPECT_EQ(kernel_fact(properties, "candidate", KernelFact::k_arch), "arm64");
  EXPECT_EQ(kernel_fact(properties, "base", KernelFact::k_arch), "");
  set_session_fact(properties, SessionFact::k_memory_model, "icelake-sp scaled 1/50");
  EXPECT_EQ(properties.at("memory_model"), "icelake-sp scaled 1/50");
  EXPECT_EQ(session_fact(properties, SessionFact::k_memory_model), "icelake-sp scaled 1/50");
  EXPECT_EQ(session_fact(properties, SessionFact::k_clock), "");
  EXPECT_EQ(session_fact_key(SessionFact::k_clock), "clock");
}

}  // namespace
}  // namespace kseries::results
