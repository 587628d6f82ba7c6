#pragma once
// A preprocessor condition (`#if` expression, or the condition of an
// `if (IS_ENABLED(CONFIG_X))`) evaluated against a kernel configuration,
// three-valued: a name the configuration does not decide (a macro of the
// tree's own, an arithmetic value) makes the answer unknown unless the
// other operand decides it.

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kseries::coverage {

// What a name stands for: CONFIG_X from .config; anything else from the
// caller (`defined(NAME)`, e.g. a macro found in the tree), nullopt unknown.
struct ConditionEnvironment {
  // .config values: "y", "m", a string or number, or "" when not set.
  std::function<std::string(const std::string& symbol)> config;
  // Whether NAME (not CONFIG_*) is #defined, if known.
  std::function<std::optional<bool>(const std::string& name)> defined;
};

struct ConditionValue {
  std::optional<bool> value;      // nullopt: unknown
  std::set<std::string> symbols;  // Kconfig symbols it reads (without CONFIG_)
  std::set<std::string> macros;   // other names it reads (defined(X), X)
};

// Evaluates EXPRESSION (the text after #if/#elif, or an `if (...)` condition:
// defined, !, &&, ||, ?:-free comparisons, numbers, parentheses,
// IS_ENABLED/IS_BUILTIN/IS_MODULE/IS_REACHABLE). An expression it cannot
// read is unknown, never an error.
ConditionValue evaluate_condition(std::string_view expression, const ConditionEnvironment& env);

}  // namespace kseries::coverage
