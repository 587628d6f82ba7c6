#include "results/json_fields.h"

#include "core/error.h"

namespace kseries::results {

void wrong_type(const std::string& where, const char* expected, const nlohmann::json& got) {
  throw usage_error(where + ": " + expected + " expected, not " + got.type_name());
}

std::string indexed(const std::string& where, std::size_t i) {
  return where + "[" + std::to_string(i) + "]";
}

std::vector<double> numbers(const Fields& f, const char* key) {
  std::vector<double> out;
  if (const nlohmann::json* list = f.array(key)) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      const nlohmann::json& v = (*list)[i];
      if (v.is_number()) {
        out.push_back(v.get<double>());
      } else if (!v.is_null()) {
        wrong_type(indexed(f.where(key), i), "a number", v);
      }
    }
  }
  return out;
}

std::vector<std::string> texts(const Fields& f, const char* key, bool as_json) {
  std::vector<std::string> out;
  if (const nlohmann::json* list = f.array(key)) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      const nlohmann::json& v = (*list)[i];
      if (v.is_string()) {
        out.push_back(v.get<std::string>());
      } else if (as_json) {
        out.push_back(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      } else {
        wrong_type(indexed(f.where(key), i), "a string", v);
      }
    }
  }
  return out;
}

}  // namespace kseries::results
