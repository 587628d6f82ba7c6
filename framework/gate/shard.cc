#include "gate/shard.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/error.h"
#include "core/json_text.h"
#include "gate/plan.h"
#include "gate/series_name.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

// FNV-1a, 64 bits: a plan's identity is the same on every machine, which
// std::hash does not promise.
std::string fingerprint(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) {
    hash = (hash ^ c) * 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

nlohmann::json policy_json(const RevisionRegressionPolicy& policy) {
  return {{"max_percent", policy.max_percent},
          {"metric", policy.metric ? nlohmann::json(*policy.metric) : nullptr},
          {"line", policy.line}};
}

nlohmann::json checkpatch_json(const CheckpatchPolicy& policy) {
  return {{"max_new_errors", policy.max_new_errors}, {"line", policy.line}};
}

CheckpatchPolicy checkpatch_from(const nlohmann::json& json) {
  return {json.at("max_new_errors").get<int>(), json.at("line").get<int>()};
}

RevisionRegressionPolicy policy_from(const nlohmann::json& json) {
  RevisionRegressionPolicy policy{json.at("max_percent").get<double>(), std::nullopt,
                                  json.at("line").get<int>()};
  if (!json.at("metric").is_null()) {
    policy.metric = json.at("metric").get<std::string>();
  }
  return policy;
}

// What the id covers: not the series' directories, which differ per runner.
std::string identity_text(const Plan& plan) {
  nlohmann::json json = {{"matrix", plan.matrix},
                         {"shards", plan.shards},
                         {"cells", plan.cells},
                         {"series", nlohmann::json::array()}};
  for (const auto& s : plan.series) {
    json["series"].push_back({{"name", s.name}, {"expect", s.expect.value_or("")}});
  }
  if (plan.revision_regression) {
    json["revision_regression"] = policy_json(*plan.revision_regression);
  }
  if (plan.checkpatch) {
    json["checkpatch"] = checkpatch_json(*plan.checkpatch);
  }
  return json.dump();
}

PlanJob& job_for(std::vector<PlanJob>& jobs, const std::string& id) {
  for (auto& job : jobs) {
    if (job.id == id) {
      return job;
    }
  }
  jobs.push_back({id, {}, 0});
  return jobs.back();
}

// Longest first onto the least loaded shard; ties go to the earlier job and
// the lower shard, so every machine computes the same assignment.
void assign(std::vector<PlanJob>& jobs, int shards) {
  std::vector<std::size_t> order(jobs.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return jobs[a].cells.size() > jobs[b].cells.size();
  });
  std::vector<std::size_t> load(static_cast<std::size_t>(shards), 0);
  for (const std::size_t i : order) {
    const auto least = std::min_element(load.begin(), load.end()) - load.begin();
    jobs[i].shard = static_cast<int>(least) + 1;
    load[static_cast<std::size_t>(least)] += jobs[i].cells.size();
  }
}

}  // namespace

int Plan::shard_of(const std::string& cell) const {
  for (const auto& job : jobs) {
    if (std::find(job.cells.begin(), job.cells.end(), cell) != job.cells.end()) {
      return job.shard;
    }
  }
  return 0;
}

std::optional<Expectations> series_expectations(const PlanSeries& series) {
  if (!series.expect) {
    return std::nullopt;
  }
  return parse_expectations(*series.expect, series.dir / "expect");
}

PlanSeries plan_series(const std::string& name, const fs::path& dir) {
  // As load_expectations() finds the file: only in a series directory.
  const fs::path file = dir / "expect";
  if (!fs::is_directory(dir) || !fs::is_regular_file(file)) {
    return {name, dir, std::nullopt};
  }
  return {name, dir, read_file(file)};
}

std::vector<PlanSeries> load_plan_series(const std::vector<fs::path>& series_dirs) {
  std::vector<PlanSeries> series;
  for (const auto& dir : series_dirs) {
    series.push_back(plan_series(gate_series_name(dir), dir));
  }
  return series;
}

ShardSpec parse_shard_spec(const std::string& text) {
  const auto slash = text.find('/');
  ShardSpec spec;
  try {
    if (slash == std::string::npos) {
      throw std::invalid_argument("no slash");
    }
    std::size_t used = 0;
    spec.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) {
      throw std::invalid_argument("index");
    }
    spec.count = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) {
      throw std::invalid_argument("count");
    }
  } catch (const std::logic_error&) {
    throw usage_error("--shard must be I/N (e.g. 2/3), not '" + text + "'");
  }
  if (spec.count < 1 || spec.index < 1 || spec.index > spec.count) {
    throw usage_error("--shard " + text + ": I/N needs 1 <= I <= N");
  }
  return spec;
}

Plan make_plan(const ResolvedMatrix& matrix, std::vector<PlanSeries> series, int shards) {
  if (shards < 1) {
    throw usage_error("--shards must be at least 1");
  }
  Plan plan;
  plan.matrix = matrix.name;
  plan.shards = shards;
  plan.series = std::move(series);
  plan.revision_regression = matrix.revision_regression;
  plan.checkpatch = matrix.checkpatch;
  plan.matrix_file = matrix.file.string();
  for (const auto& cell : make_gate_plan(matrix).cells) {
    plan.cells.push_back(cell.name());
    if (!cell.job.empty()) {
      job_for(plan.jobs, cell.job).cells.push_back(cell.name());
    }
  }
  assign(plan.jobs, shards);
  plan.id = fingerprint(identity_text(plan));
  return plan;
}

nlohmann::json plan_json(const Plan& plan) {
  nlohmann::json json = {{"plan_id", plan.id},
                         {"matrix", plan.matrix},
                         {"shard_count", plan.shards},
                         {"cells", plan.cells},
                         {"series", nlohmann::json::array()},
                         {"jobs", nlohmann::json::array()},
                         {"shards", nlohmann::json::array()}};
  for (const auto& s : plan.series) {
    json["series"].push_back({{"name", s.name},
                              {"dir", s.dir.string()},
                              {"expect", s.expect ? nlohmann::json(*s.expect) : nullptr}});
  }
  for (const auto& job : plan.jobs) {
    json["jobs"].push_back({{"id", job.id}, {"cells", job.cells}, {"shard", job.shard}});
  }
  if (plan.revision_regression) {
    json["revision_regression"] = policy_json(*plan.revision_regression);
  }
  if (plan.checkpatch) {
    json["checkpatch"] = checkpatch_json(*plan.checkpatch);
  }
  if (plan.revision_regression || plan.checkpatch) {
    json["matrix_file"] = plan.matrix_file;
  }
  // What a CI matrix iterates over: one entry per shard, with its --shard value.
  for (int i = 1; i <= plan.shards; ++i) {
    nlohmann::json jobs = nlohmann::json::array();
    for (const auto& job : plan.jobs) {
      if (job.shard == i) {
        jobs.push_back(job.id);
      }
    }
    json["shards"].push_back({{"shard", std::to_string(i) + "/" + std::to_string(plan.shards)},
                              {"index", i},
                              {"jobs", jobs}});
  }
  return json;
}

Plan plan_from_json(const nlohmann::json& json) {
  try {
    Plan plan;
    plan.id = json.at("plan_id").get<std::string>();
    plan.matrix = json.at("matrix").get<std::string>();
    plan.shards = json.at("shard_count").get<int>();
    plan.cells = json.at("cells").get<std::vector<std::string>>();
    for (const auto& s : json.at("series")) {
      PlanSeries series{s.at("name").get<std::string>(), s.at("dir").get<std::string>(), {}};
      if (!s.at("expect").is_null()) {
        series.expect = s.at("expect").get<std::string>();
      }
      plan.series.push_back(std::move(series));
    }
    for (const auto& j : json.at("jobs")) {
      plan.jobs.push_back({j.at("id").get<std::string>(),
                           j.at("cells").get<std::vector<std::string>>(),
                           j.at("shard").get<int>()});
    }
    if (json.contains("revision_regression")) {
      plan.revision_regression = policy_from(json.at("revision_regression"));
    }
    if (json.contains("checkpatch")) {
      plan.checkpatch = checkpatch_from(json.at("checkpatch"));
    }
    plan.matrix_file = json.value("matrix_file", "");
    if (fingerprint(identity_text(plan)) != plan.id) {
      throw usage_error("plan " + plan.id + " does not match its own contents (edited?)");
    }
    return plan;
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(std::string("not a kseries plan: ") + e.what());
  }
}

void Share::restrict(Expectations& expectations) const {
  std::erase_if(expectations.fails, [&](const Expectation& e) { return !contains(e.cell); });
}

void write_shard_record(const ShardRecord& record) {
  const nlohmann::json json = {{"plan", plan_json(record.plan)},
                               {"shard", record.index},
                               {"base", record.base},
                               {"run_dir", record.run_dir.string()},
                               {"revisions", gated_revisions_json(record.revisions)},
                               {"finished", record.finished}};
  const fs::path file = record.run_dir / "shard.json";
  write_file(file.string() + ".tmp", json_text(json));
  fs::rename(file.string() + ".tmp", file);
}

ShardRecord read_shard_record(const fs::path& run_dir) {
  const fs::path file = run_dir / "shard.json";
  if (!fs::is_regular_file(file)) {
    throw usage_error(run_dir.string() + ": no shard.json (not a `kseries gate --shard` run)");
  }
  const auto json = parse_json_text(read_file(file));
  if (json.is_discarded() || !json.is_object()) {
    throw usage_error(file.string() + ": not JSON");
  }
  try {
    return {plan_from_json(json.at("plan")),
            json.at("shard").get<int>(),
            json.at("base").get<std::string>(),
            json.at("run_dir").get<std::string>(),
            gated_revisions_from_json(json.at("revisions")),
            json.at("finished").get<bool>()};
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(file.string() + ": " + e.what());
  } catch (Error& e) {
    e.add_context("in " + file.string());
    throw;
  }
}

}  // namespace kseries::gate
