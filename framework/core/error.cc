#include "core/error.h"

namespace kseries {

std::string Error::describe() const {
  std::string out = what();
  for (const auto& line : m_context) {
    out += "\n  ";
    out += line;
  }
  return out;
}

}  // namespace kseries
