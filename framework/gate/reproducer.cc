#include "gate/reproducer.h"

#include <algorithm>
#include <cctype>

#include "results/cell_id.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

bool plain(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("_./:=@,+-").find(c) != std::string_view::npos;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& words) {
  to.insert(to.end(), words.begin(), words.end());
}

// A header line may hold text from a mail (a summary): one line, printable.
std::string comment_text(std::string text) {
  text = text.substr(0, 300);
  for (char& c : text) {
    c = static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return text;
}

}  // namespace

std::string sh_quote(const std::string& word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), plain)) {
    return word;
  }
  std::string out = "'";
  for (const char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

std::string reproduce_line(const std::string& script) { return "sh " + sh_quote(script); }

std::optional<std::string> shard_reproducer(const std::string& value, const fs::path& run_dir) {
  if (value.empty() || run_dir.empty() || std::any_of(value.begin(), value.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
      })) {
    return std::nullopt;
  }
  const fs::path path = fs::path(value).lexically_normal();
  const fs::path root = fs::absolute(run_dir).lexically_normal();
  const fs::path relative = fs::absolute(path).lexically_normal().lexically_relative(root);
  if (path.filename() != "reproduce.sh" || relative.empty() || *relative.begin() == ".." ||
      relative.is_absolute()) {
    return std::nullopt;
  }
  return value;
}

// A cell's boot options as the gate gave them: its setups, its rebinds
// (only when its matrix line says; else the case's own), accel and clock.
void append_cell_options(std::vector<std::string>& boot, const MatrixCell& cell,
                         const ReproduceInputs& inputs) {
  if (cell.setups) {
    std::string setups;
    for (const auto& setup : *cell.setups) {
      setups += (setups.empty() ? "" : ",") + setup;
    }
    boot.insert(boot.end(), {"--setups", setups});
  }
  if (cell.rebinds) {
    boot.insert(boot.end(), {"--rebinds", std::to_string(*cell.rebinds)});
  }
  boot.insert(boot.end(), {"--accel", inputs.accel, "--clock", inputs.clock});
}

std::vector<std::vector<std::string>> reproduce_commands(const ReproduceInputs& inputs,
                                                         std::size_t series_index,
                                                         const std::string& cell,
                                                         const MatrixCell* matrix_cell,
                                                         bool timing_case) {
  const std::vector<std::string> series = series_index < inputs.series.size()
                                              ? inputs.series[series_index]
                                              : std::vector<std::string>{};
  std::vector<std::string> configs;
  for (std::size_t i = 0; i + 1 < inputs.directories.size(); i += 2) {
    if (inputs.directories[i] == "--configs") {
      configs = {inputs.directories[i], inputs.directories[i + 1]};
    }
  }
  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> apply = {"kseries", "apply"};
  append(apply, series);
  append(apply, inputs.base);
  apply.push_back("--replace");
  commands.push_back(apply);
  const auto id = results::CellId::parse(cell);
  if (id && id->kind == results::k_per_patch_cell) {
    std::vector<std::string> build = {"kseries", "build", "--target", id->target, "--per-patch"};
    append(build, series);
    append(build, inputs.base);
    append(build, configs);
    commands.push_back(build);
  } else if (matrix_cell) {
    std::vector<std::string> build = {"kseries", "build", "--target", matrix_cell->target};
    append(build, series);
    append(build, inputs.base);
    append(build, inputs.directories);
    commands.push_back(build);
    std::vector<std::string> boot = {"kseries",           "boot",   "--target",
                                     matrix_cell->target, "--case", matrix_cell->test_case};
    append(boot, series);
    if (timing_case) {
      boot.push_back("--compare-base");
    }
    append_cell_options(boot, *matrix_cell, inputs);
    append(boot, inputs.base);
    append(boot, inputs.directories);
    commands.push_back(boot);
  }
  return commands;
}

std::vector<std::vector<std::string>> reproduce_against_commands(const ReproduceInputs& inputs,
                                                                 std::size_t newer,
                                                                 std::size_t older,
                                                                 const MatrixCell& matrix_cell) {
  auto commands = reproduce_commands(inputs, newer, "", nullptr, false);
  std::vector<std::string> boot = {"kseries",          "boot",   "--target",
                                   matrix_cell.target, "--case", matrix_cell.test_case};
  if (newer < inputs.series.size()) {
    append(boot, inputs.series[newer]);
  }
  boot.push_back("--compare-base");
  if (older < inputs.series.size() && inputs.series[older].size() >= 2) {
    boot.insert(boot.end(), {"--against", inputs.series[older][1]});
  }
  append_cell_options(boot, matrix_cell, inputs);
  append(boot, inputs.base);
  append(boot, inputs.directories);
  commands.push_back(boot);
  return commands;
}

fs::path write_reproducer(const fs::path& dir, const std::string& series, const std::string& cell,
                          const std::string& status_line,
                          const std::vector<std::vector<std::string>>& commands) {
  std::string text = "#!/bin/sh\n# Reproduces gate cell '" + comment_text(cell) + "' of " +
                     comment_text(series) + ":\n#   " + comment_text(status_line) +
                     "\n# Only the gate's public inputs: the series as it was given and the base "
                     "commit.\n# Set KSERIES_WORKDIR to keep its work elsewhere than "
                     "~/.cache/kseries.\nset -e\n";
  for (const auto& argv : commands) {
    std::string line;
    for (std::size_t i = 0; i < argv.size(); ++i) {
      line += (i ? " " : "") + sh_quote(argv[i]);
      if (i == 1) {
        line += " ${KSERIES_WORKDIR:+--workdir \"$KSERIES_WORKDIR\"}";
      }
    }
    text += line + "\n";
  }
  fs::create_directories(dir);
  const fs::path file = dir / "reproduce.sh";
  write_file(file, text);
  fs::permissions(file, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
  return file;
}

}  // namespace kseries::gate
