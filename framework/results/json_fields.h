#pragma once
// Reading a JSON file another machine may have written (a shard's
// results.json, copied from CI: anyone may have edited it), field by field
// with the field's place in the file: absent and null are the default, a
// value of the wrong type is Error(k_usage) naming where it is
// ("kernels.base.setups: an object expected, not array"), and nothing else
// throws. The readers of results/ share it; no key is spelled here.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kseries::results {

[[noreturn]] void wrong_type(const std::string& where, const char* expected,
                             const nlohmann::json& got);

// One JSON object being read, and where it sits in the file (for the
// error). Absent and null are the same: the field's default.
class Fields {
 public:
  Fields(const nlohmann::json& object, std::string where)
      : m_json(object), m_where(std::move(where)) {
    if (!object.is_object()) {
      wrong_type(m_where.empty() ? "the file" : m_where, "an object", object);
    }
  }

  std::string where(const std::string& key) const {
    return m_where.empty() ? key : m_where + "." + key;
  }
  const nlohmann::json& raw() const { return m_json; }
  const nlohmann::json* get(const char* key) const {
    const auto it = m_json.find(key);
    return it == m_json.end() || it->is_null() ? nullptr : &*it;
  }
  std::string text(const char* key, std::string fallback = "") const {
    const nlohmann::json* v = get(key);
    if (!v) {
      return fallback;
    }
    if (!v->is_string()) {
      wrong_type(where(key), "a string", *v);
    }
    return v->get<std::string>();
  }
  std::optional<double> number(const char* key) const {
    const nlohmann::json* v = get(key);
    if (!v) {
      return std::nullopt;
    }
    if (!v->is_number()) {
      wrong_type(where(key), "a number", *v);
    }
    return v->get<double>();
  }
  // A count or a round: clamped into LOW..HIGH (an edited file may hold
  // 1e308), 0 when absent.
  double bounded(const char* key, double low, double high) const {
    const double value = number(key).value_or(0);
    return std::isnan(value) ? 0 : std::clamp(value, low, high);
  }
  int integer(const char* key) const {
    return static_cast<int>(
        bounded(key, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  }
  std::uint64_t count(const char* key) const {
    const nlohmann::json* v = get(key);
    if (v && v->is_number_unsigned()) {
      return v->get<std::uint64_t>();  // exactly, beyond a double's 2^53
    }
    return static_cast<std::uint64_t>(bounded(key, 0, 1.8e19));
  }
  bool flag(const char* key) const {
    const nlohmann::json* v = get(key);
    if (v && !v->is_boolean()) {
      wrong_type(where(key), "true or false", *v);
    }
    return v && v->get<bool>();
  }
  // The array or object at KEY; nullptr when absent or null.
  const nlohmann::json* array(const char* key) const {
    return kind(key, nlohmann::json::value_t::array, "an array");
  }
  const nlohmann::json* object(const char* key) const {
    return kind(key, nlohmann::json::value_t::object, "an object");
  }

 private:
  const nlohmann::json* kind(const char* key, nlohmann::json::value_t type,
                             const char* name) const {
    const nlohmann::json* v = get(key);
    if (v && v->type() != type) {
      wrong_type(where(key), name, *v);
    }
    return v;
  }

  const nlohmann::json& m_json;
  std::string m_where;
};

// WHERE[I], for an element of a list.
std::string indexed(const std::string& where, std::size_t i);

// The numbers of the list at KEY; a null (a NaN written) is left out.
std::vector<double> numbers(const Fields& f, const char* key);

// The text of the list at KEY; with AS_JSON a value that is not text is
// kept as its JSON (a problem is shown whatever it is), else it is the
// file's fault.
std::vector<std::string> texts(const Fields& f, const char* key, bool as_json = false);

// Each element of the list at KEY, as an object, through READ.
template <typename T, typename Read>
std::vector<T> each(const Fields& f, const char* key, Read read) {
  std::vector<T> out;
  if (const nlohmann::json* list = f.array(key)) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      out.push_back(read(Fields((*list)[i], indexed(f.where(key), i))));
    }
  }
  return out;
}

// Each member of OBJECT, by name, through READ.
template <typename T, typename Read>
std::map<std::string, T> members(const Fields& object, Read read) {
  std::map<std::string, T> out;
  for (const auto& [name, value] : object.raw().items()) {
    out.emplace(name, read(Fields(value, object.where(name))));
  }
  return out;
}

// Each member of the object at KEY (none when absent), through READ.
template <typename T, typename Read>
std::map<std::string, T> members(const Fields& f, const char* key, Read read) {
  const nlohmann::json* object = f.object(key);
  return object ? members<T>(Fields(*object, f.where(key)), read) : std::map<std::string, T>{};
}

}  // namespace kseries::results
