#include "results/outcome.h"

#include <array>
#include <utility>

namespace kseries::results {

namespace {

constexpr std::array<std::pair<Outcome, std::string_view>, 7> k_names = {{
    {Outcome::k_pass, "pass"},
    {Outcome::k_fail, "fail"},
    {Outcome::k_xfail, "xfail"},
    {Outcome::k_xpass, "xpass"},
    {Outcome::k_skip, "skip"},
    {Outcome::k_error, "error"},
    {Outcome::k_interrupted, "interrupted"},
}};

}  // namespace

bool is_failure(Outcome outcome) {
  return outcome == Outcome::k_fail || outcome == Outcome::k_xpass || outcome == Outcome::k_error ||
         outcome == Outcome::k_interrupted;
}

std::string outcome_name(Outcome outcome) {
  for (const auto& [value, name] : k_names) {
    if (value == outcome) {
      return std::string(name);
    }
  }
  return "?";
}

std::optional<Outcome> parse_outcome(std::string_view name) {
  for (const auto& [value, word] : k_names) {
    if (word == name) {
      return value;
    }
  }
  return std::nullopt;
}

Outcome expect_failure(Outcome outcome) {
  switch (outcome) {
    case Outcome::k_fail:
      return Outcome::k_xfail;
    case Outcome::k_pass:
      return Outcome::k_xpass;
    default:
      return outcome;
  }
}

}  // namespace kseries::results
