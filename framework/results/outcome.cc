#include "results/outcome.h"

#include <array>
#include <cctype>
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

namespace {

int rank(Outcome outcome) {
  switch (outcome) {
    case Outcome::k_skip:
      return 0;
    case Outcome::k_pass:
      return 1;
    case Outcome::k_xfail:
      return 2;
    case Outcome::k_fail:
      return 3;
    case Outcome::k_xpass:
      return 4;
    case Outcome::k_error:
      return 5;
    case Outcome::k_interrupted:
      return 6;
  }
  return 5;
}

}  // namespace

Outcome fold(std::span<const Outcome> outcomes) {
  Outcome worst = Outcome::k_skip;
  for (const Outcome outcome : outcomes) {
    worst = rank(outcome) > rank(worst) ? outcome : worst;
  }
  return worst;
}

std::string verdict_word(Outcome outcome) {
  switch (outcome) {
    case Outcome::k_pass:
      return "PASS";
    case Outcome::k_skip:
      return "SKIP";
    case Outcome::k_xfail:
      return "EXPECTED";
    case Outcome::k_fail:
    case Outcome::k_xpass:
      return "FAIL";
    case Outcome::k_error:
      return "ERROR";
    case Outcome::k_interrupted:
      return "INTERRUPTED";
  }
  return "ERROR";
}

std::string verdict_key(Outcome outcome) {
  std::string word = verdict_word(outcome);
  for (char& c : word) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return word;
}

}  // namespace kseries::results
