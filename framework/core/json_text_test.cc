#include "core/json_text.h"

#include <gtest/gtest.h>

namespace kseries {
namespace {

TEST(JsonTextTest, StrayBytesBecomeReplacementCharactersNotExceptions) {
  const nlohmann::json json = {
      {"line", std::string("panic \xFF caf\xE9 esc\x1b ff\x0c nul") + '\0'}};
  std::string text;
  ASSERT_NO_THROW(text = json_text(json));
  const auto back = nlohmann::json::parse(text);
  EXPECT_EQ(back["line"].get<std::string>(),
            std::string("panic \xEF\xBF\xBD caf\xEF\xBF\xBD esc\x1b ff\x0c nul") + '\0');
  EXPECT_EQ(text.back(), '\n');
}

}  // namespace
}  // namespace kseries
