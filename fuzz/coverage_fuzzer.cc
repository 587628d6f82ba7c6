// Fuzzes what kseries coverage reads that a guest or a series controls: the
// memcost plugin's cover= file (first half of the input), and a source file
// of the series' tree (the rest): its #if blocks, IS_ENABLED() statements,
// macros and functions, and the conditions evaluated against a .config.
#include "core/error.h"
#include "coverage/cover_file.h"
#include "coverage/cpp_condition.h"
#include "coverage/source_context.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  kseries::fuzz::refusal_is_fine([&] {
    const auto file = kseries::coverage::parse_cover_text(text.substr(0, text.size() / 2), "fuzz");
    for (std::size_t i = 1; i < file.pcs.size(); ++i) {
      kseries::fuzz::require(file.pcs[i - 1].pc < file.pcs[i].pc && file.pcs[i].count > 0);
    }
    const auto merged = kseries::coverage::merge_executed({file, file});
    kseries::fuzz::require(merged.size() == file.pcs.size());
  });
  const kseries::coverage::SourceText source(text.substr(text.size() / 2));
  kseries::coverage::ConditionEnvironment env;
  env.config = [](const std::string& symbol) { return symbol.size() % 2 ? "y" : ""; };
  for (int line = 1; line <= static_cast<int>(source.size()) && line <= 64; ++line) {
    const auto conditions = source.conditions(line);
    kseries::fuzz::require(conditions.size() <= 2 * kseries::coverage::k_max_conditions + 1);
    for (const auto& condition : conditions) {
      kseries::fuzz::require(condition.line >= 1 && condition.line < line);
      kseries::fuzz::require(condition.expression().size() <=
                             kseries::coverage::k_max_condition_bytes);
      kseries::coverage::evaluate_condition(condition.expression(), env);
    }
    // Lines of one key share their conditions (the key caches the reasons).
    if (line > 1 && source.conditions_key(line) == source.conditions_key(line - 1)) {
      const auto above = source.conditions(line - 1);
      kseries::fuzz::require(above.size() == conditions.size());
      for (std::size_t i = 0; i < above.size(); ++i) {
        kseries::fuzz::require(above[i].identity() == conditions[i].identity() ||
                               above[i].expression() == conditions[i].expression());
      }
    }
    source.in_macro_definition(line);
    source.holds_no_code(line);
    if (const auto function = source.function_at(line)) {
      kseries::fuzz::require(function->first <= line && line <= function->last);
    }
  }
  return 0;
}
