#pragma once
// What every fuzzer shares: the input as text, and the rule that a parser of
// hostile input may refuse it only with a kseries::Error (any other exception
// escapes to libFuzzer, which reports it as a crash).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/error.h"

namespace kseries::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `parse`; a kseries::Error is a refusal, which is fine.
template <typename Parse>
void refusal_is_fine(Parse&& parse) {
  try {
    parse();
  } catch (const Error&) {
  }
}

// A property the parser promises does not hold: a crash for libFuzzer.
inline void require(bool property) {
  if (!property) {
    std::abort();
  }
}

}  // namespace kseries::fuzz
