#include "bisect/bisect_runner.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <utility>

#include "core/elapsed.h"
#include "core/error.h"
#include "git/apply.h"
#include "series/series_chain.h"
#include "session/kernel_plan.h"
#include "session/oracle.h"
#include "session/session_runner.h"
#include "stats/compare.h"

namespace kseries::bisect {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f%%", fraction * 100);
  return buffer;
}

// The clock-neutral name: under icount memmap_init_ns is labelled
// memmap_init_vns (and _ms _vms); either spelling names both.
std::string neutral_metric(std::string metric) {
  for (const char* unit : {"ns", "ms"}) {
    const std::string virtual_suffix = std::string("_v") + unit;
    if (metric.size() > virtual_suffix.size() &&
        metric.compare(metric.size() - virtual_suffix.size(), virtual_suffix.size(),
                       virtual_suffix) == 0) {
      return metric.substr(0, metric.size() - virtual_suffix.size()) + "_" + unit;
    }
  }
  return metric;
}

// SERIES applied once: the commit of every prefix.
std::pair<std::string, std::vector<Prefix>> apply_prefixes(const fs::path& series_path,
                                                           const BisectRequest& request,
                                                           git::Store& store) {
  const auto chain = load_series_chain(series_path);
  const Series& top = *chain.back();
  git::ApplyRequest apply;
  apply.base = request.base;
  apply.base_label = request.base_label;
  for (const auto& series : chain) {
    apply.chain.push_back(series.get());
  }
  const auto applied = git::apply_chain(store, apply);
  const std::size_t n = top.patches.size();
  const std::size_t first = applied.outcomes.size() - n;
  std::vector<Prefix> prefixes(n + 1);
  prefixes[0].commit = request.base;
  for (std::size_t i = 0; i < first; ++i) {
    const auto& outcome = applied.outcomes[i];
    if (outcome.status != git::PatchStatus::k_applied) {
      throw check_failure("the prerequisite " + outcome.label + " does not apply onto " +
                          request.base_label + ": nothing to bisect above it\n" + outcome.failure);
    }
    prefixes[0].commit = outcome.commit;
  }
  std::string failure;
  for (std::size_t k = 1; k <= n; ++k) {
    const auto& outcome = applied.outcomes[first + k - 1];
    auto& prefix = prefixes[k];
    prefix.index = k;
    prefix.subject = top.patches[k - 1].subject.title;
    const auto& author = top.patches[k - 1].author;
    prefix.author = author.name + (author.email.empty() ? "" : " <" + author.email + ">");
    if (outcome.status == git::PatchStatus::k_applied) {
      prefix.commit = outcome.commit;
    } else {
      if (failure.empty()) {
        failure = outcome.label + " does not apply: " + first_line(outcome.failure);
      }
      prefix.apply_failure = failure;
    }
  }
  return {top.name, std::move(prefixes)};
}

// The first problem a boot of OUTCOME had ("boot NAME #N: ..."), or ""; BOOTS
// counts the boots.
std::string first_boot_problem(const session::SessionOutcome& outcome, int& boots) {
  std::string problem;
  for (const auto& boot : outcome.boots) {
    ++boots;
    std::string what;
    if (!boot.findings.empty()) {
      what = std::string(guest::to_string(boot.findings.front().kind)) + ": " +
             boot.findings.front().title;
    } else if (!boot.problems.empty()) {
      what = boot.problems.front();
    }
    if (!what.empty() && problem.empty()) {
      problem = "boot " + boot.kernel + " #" + std::to_string(boot.round) + ": " + what;
    }
  }
  return problem;
}

class PrefixRunner {
 public:
  PrefixRunner(const BisectRequest& request, BisectServices& services, session::Status& status,
               const BisectOutcome& outcome)
      : m_request(request),
        m_services(services),
        m_status(status),
        m_prefixes(outcome.prefixes),
        m_outcome(outcome) {}

  // REFERENCE: timing only, the prefix the run compares with (of the
  // reference revision under --against).
  BisectRun run(std::size_t prefix, std::size_t step, int run_number, std::size_t reference) {
    const auto start = Clock::now();
    const Prefix& p = m_prefixes[prefix];
    const fs::path dir = m_request.run_dir / "steps" /
                         ("step-" + std::to_string(step + 1) + "-prefix-" + std::to_string(prefix) +
                          "-run-" + std::to_string(run_number));
    fs::create_directories(dir);
    BisectRun run;
    if (!p.commit) {
      // A patch that does not apply fails every check at and above it.
      run.outcome = RunOutcome::k_fail;
      run.summary = p.apply_failure;
    } else if (m_request.policy.check == BisectCheck::k_apply) {
      run.outcome = RunOutcome::k_pass;
      run.summary = prefix == 0 ? "the base" : "applies";
    } else if (m_request.policy.check == BisectCheck::k_build) {
      run = build(p, dir);
    } else {
      run = session(p, step, dir, reference);
    }
    run.seconds = seconds_since(start);
    return run;
  }

 private:
  // Never "base": the base may boot beside prefix 0.
  std::string name(const Prefix& p) const {
    return "prefix-" + std::to_string(p.index) + "-of-" + std::to_string(m_prefixes.size() - 1);
  }

  BisectRun build(const Prefix& p, const fs::path& dir) {
    const auto built = m_services.builder.build(
        {.target = &m_request.target,
         .commit = *p.commit,
         .log = dir / "build.log",
         .progress = [&](const std::string& text) { m_status.progress(name(p) + ": " + text); }});
    BisectRun run;
    run.builds = built.status == kernel::StepStatus::k_cached ? 0 : 1;
    run.cached = built.status == kernel::StepStatus::k_cached ? 1 : 0;
    if (built.kernel) {
      run.outcome = RunOutcome::k_pass;
      run.summary = built.kernel->cached ? "builds (cached kernel)" : "builds";
      return run;
    }
    run.outcome = RunOutcome::k_fail;
    if (built.status == kernel::StepStatus::k_not_constructible) {
      run.summary = "target " + m_request.target.name + " is not constructible" +
                    (built.dropped.empty() ? "" : ": dropped " + built.dropped.front());
    } else {
      run.summary = "does not build";
      if (!built.errors.empty()) {
        const auto& e = built.errors.front();
        run.summary += ": " + e.file + ":" + std::to_string(e.line) + ": " + e.message;
      } else if (!built.make_failures.empty()) {
        run.summary += ": " + built.make_failures.front();
      }
    }
    return run;
  }

  // The kernel a timing run boots beside the prefix, and its session name;
  // nullopt (with WHY) when the reference revision's prefix does not apply.
  std::optional<session::KernelUnderTest> reference_kernel(std::size_t reference,
                                                           std::string& why) const {
    if (m_request.policy.reference != TimingReference::k_against) {
      const Prefix& r = m_prefixes[reference];
      return session::KernelUnderTest{
          session::KernelRole::k_base, reference == 0 ? "base" : name(r), *r.commit, {}, {}, 0, {}};
    }
    const auto& against = m_outcome.reference_prefixes;
    const Prefix& r = against[std::min(reference, against.size() - 1)];
    if (!r.commit) {
      why = "the reference " + m_outcome.against + " at " + std::to_string(r.index) + "/" +
            std::to_string(against.size() - 1) + ": " + r.apply_failure;
      return std::nullopt;
    }
    return session::KernelUnderTest{
        session::KernelRole::k_base,
        "against-" + std::to_string(r.index) + "-of-" + std::to_string(against.size() - 1),
        *r.commit,
        {},
        {},
        0,
        {}};
  }

  bool same_tree(const git_oid& a, const git_oid& b) const {
    const auto ta = m_services.store.commit_tree(a);
    const auto tb = m_services.store.commit_tree(b);
    return git_oid_equal(git_tree_id(ta.get()), git_tree_id(tb.get())) != 0;
  }

  BisectRun session(const Prefix& p, std::size_t step, const fs::path& dir, std::size_t reference) {
    const auto& test_case = *m_request.test_case;
    const session::Oracle* oracle = session::find_oracle(test_case.oracle);
    const bool timing = m_request.policy.check == BisectCheck::k_timing;
    std::optional<session::KernelUnderTest> reference_role;
    if (timing) {
      BisectRun run;
      reference_role = reference_kernel(reference, run.summary);
      if (!reference_role) {
        run.outcome = RunOutcome::k_untestable;
        return run;
      }
      if (same_tree(reference_role->commit, *p.commit)) {
        // Patches the two revisions share: nothing to compare, nothing to boot.
        run.outcome = RunOutcome::k_pass;
        run.summary = "the same tree as the reference: good without a boot";
        return run;
      }
    }
    auto request = request_for(p, dir, oracle, timing, reference_role);
    session::Services services{m_services.builder, m_services.runner, m_services.workdir_root};
    const auto outcome = session::run_session(std::move(request), services, m_status);

    BisectRun run;
    for (const auto& k : outcome.kernels) {
      if (!k.build.key.empty()) {
        (k.build.cached ? run.cached : run.builds) += 1;
      }
    }
    switch (outcome.end) {
      case session::SessionEnd::k_skipped:
        throw usage_error("case " + test_case.name + " on target " + m_request.target.name +
                          " is skipped: " + outcome.why + ": nothing to bisect with");
      case session::SessionEnd::k_not_built:
        run.builds += 1;  // the one that failed
        run.outcome = RunOutcome::k_untestable;
        run.summary = first_line(outcome.why);
        return run;
      case session::SessionEnd::k_booted:
        break;
    }
    return judge(outcome, step, std::move(run));
  }

  // The session of prefix P in DIR: a timing step boots its reference, a
  // pairing oracle the base (session/kernel_plan.h).
  session::SessionRequest request_for(
      const Prefix& p, const fs::path& dir, const session::Oracle* oracle, bool timing,
      const std::optional<session::KernelUnderTest>& reference_role) const {
    session::SessionRequest request;
    request.target = m_request.target;
    request.test_case = *m_request.test_case;
    request.testcases = m_request.testcases;
    request.case_options = m_request.case_options;
    request.accel = m_request.accel;
    request.clock = m_request.clock;
    request.pmem = m_request.pmem;
    request.pmem_size = m_request.pmem_size;
    request.pmem_size_given = m_request.pmem_size_given;
    request.timeout = m_request.timeout;
    request.run_dir = dir;
    const session::Pairing pairing{
        .oracle = oracle, .judge_timing = timing, .baseline_asked = timing};
    for (const session::KernelRole role : session::session_roles(pairing)) {
      if (role == session::KernelRole::k_candidate) {
        request.kernels.push_back({.role = role, .name = name(p), .commit = *p.commit});
      } else if (timing) {
        request.kernels.push_back(*reference_role);
      } else {
        request.kernels.push_back({.role = role, .name = "base", .commit = *m_prefixes[0].commit});
      }
    }
    return request;
  }

  // A booted session as the step's run, by the bisection's check: the boots
  // alone, the timing pooled over the step's runs, or the case's verdict.
  BisectRun judge(const session::SessionOutcome& outcome, std::size_t step, BisectRun run) {
    const std::string boot_problem = first_boot_problem(outcome, run.boots);
    switch (m_request.policy.check) {
      case BisectCheck::k_boot:
        run.outcome = boot_problem.empty() ? RunOutcome::k_pass : RunOutcome::k_fail;
        run.summary = boot_problem.empty() ? "boots cleanly" : boot_problem;
        return run;
      case BisectCheck::k_timing: {
        if (!boot_problem.empty()) {
          // A crash says nothing about the timing: git bisect's skip.
          run.outcome = RunOutcome::k_untestable;
          run.summary = boot_problem;
          return run;
        }
        auto& [base, candidate] = m_timing[step];
        pool_timing(base, outcome.kernels.front().timing);
        pool_timing(candidate, outcome.kernels.back().timing);
        auto judged = judge_timing(base, candidate, m_request.metric, m_request.threshold);
        judged.builds = run.builds;
        judged.cached = run.cached;
        judged.boots = run.boots;
        return judged;
      }
      default:
        break;
    }
    const auto& report = outcome.report;
    run.outcome = report.failed ? RunOutcome::k_fail : RunOutcome::k_pass;
    run.summary = boot_problem;
    for (const auto& test : report.suite.cases) {
      if (run.summary.empty() && test.status == report::CaseStatus::k_failed) {
        run.summary = test.classname + " " + test.name + ": " + first_line(test.message);
      }
    }
    if (run.outcome == RunOutcome::k_pass) {
      run.summary = report::tally_cases(report.suite);
    }
    return run;
  }

  const BisectRequest& m_request;
  BisectServices& m_services;
  session::Status& m_status;
  const std::vector<Prefix>& m_prefixes;
  const BisectOutcome& m_outcome;
  // Timing samples pooled over the runs of one step (base, candidate).
  std::map<std::size_t, std::pair<cases::TimingData, cases::TimingData>> m_timing;
};

std::string prefix_label(const Prefix& p, std::size_t n) {
  return std::to_string(p.index) + "/" + std::to_string(n) +
         (p.index == 0 ? " (the base)" : " '" + p.subject + "'");
}

}  // namespace

void pool_timing(cases::TimingData& into, const cases::TimingData& more) {
  for (const auto& [key, samples] : more) {
    auto& target = into[key];
    target.unit = samples.unit;
    target.pages = samples.pages;
    target.first.insert(target.first.end(), samples.first.begin(), samples.first.end());
    target.rebinds.insert(target.rebinds.end(), samples.rebinds.begin(), samples.rebinds.end());
    target.rebind_blocks.insert(target.rebind_blocks.end(), samples.rebind_blocks.begin(),
                                samples.rebind_blocks.end());
    target.probe.insert(target.probe.end(), samples.probe.begin(), samples.probe.end());
  }
}

BisectRun judge_timing(const cases::TimingData& base, const cases::TimingData& candidate,
                       const std::string& metric, double threshold) {
  BisectRun run;
  run.outcome = RunOutcome::k_pass;
  const std::string wanted = neutral_metric(metric);
  std::string measured;
  bool found = false, unknown = false, slower = false;
  std::string failing, others;
  for (const auto& [key, samples] : base) {
    if (measured.find(key.second) == std::string::npos) {
      measured += (measured.empty() ? "" : ", ") + key.second;
    }
    const auto other = candidate.find(key);
    if (neutral_metric(key.second) != wanted || other == candidate.end() ||
        samples.rebinds.empty()) {
      continue;
    }
    found = true;
    const auto options = cases::compare_options_for(key.second, samples, other->second);
    const auto c = stats::compare(samples.rebinds, other->second.rebinds, options);
    std::string line = key.first + " " + std::string(stats::verdict_name(c.verdict)) + " " +
                       percent(c.relative_change);
    if (c.verdict == stats::Verdict::k_slower && c.relative_change >= threshold) {
      slower = true;
      failing += (failing.empty() ? "" : ", ") + line;
      continue;
    }
    if (c.verdict == stats::Verdict::k_slower) {
      line += " (below the threshold " + percent(threshold) + ")";
    } else if (c.verdict == stats::Verdict::k_unknown) {
      unknown = true;
      line += " (" + c.reason + ")";
    }
    others += (others.empty() ? "" : ", ") + line;
  }
  if (!found) {
    throw usage_error("the metric " + metric + " was not measured: the case measured " +
                      (measured.empty() ? std::string("nothing") : measured));
  }
  run.outcome = slower ? RunOutcome::k_fail : unknown ? RunOutcome::k_unknown : RunOutcome::k_pass;
  run.summary =
      metric + ": " + (failing.empty() ? others : failing + (others.empty() ? "" : "; " + others));
  return run;
}

BisectOutcome run_bisect(const BisectRequest& request, BisectServices& services,
                         session::Status& status) {
  // Apply: every prefix a commit, once; a prefix that does not apply fails.
  auto [name, prefixes] = apply_prefixes(request.series, request, services.store);
  const std::size_t n = prefixes.size() - 1;
  if (request.policy.check != BisectCheck::k_apply &&
      request.policy.check != BisectCheck::k_build && !request.test_case) {
    throw usage_error("the " + bisect_check_name(request.policy.check) + " check needs a case");
  }

  // Bisect: run what the algorithm asks for until it has its answer.
  BisectOutcome outcome{name, std::move(prefixes), Bisection(n, request.policy), {}, {}};
  if (request.policy.check == BisectCheck::k_timing &&
      request.policy.reference == TimingReference::k_against) {
    // The good revision, applied onto the same base once as well.
    auto [against, reference_prefixes] = apply_prefixes(request.against, request, services.store);
    outcome.against = against;
    outcome.reference_prefixes = std::move(reference_prefixes);
  }
  Bisection& bisection = outcome.bisection;
  PrefixRunner runner(request, services, status, outcome);
  int run_number = 0;
  std::size_t last_step = static_cast<std::size_t>(-1);
  while (const auto prefix = bisection.next()) {
    const std::size_t step = bisection.current_step();
    run_number = step == last_step ? run_number + 1 : 1;
    last_step = step;
    const auto& phase = bisection.steps().back().phase;
    status.progress("bisect " + name + ": step " + std::to_string(step + 1) + " (" +
                    bisect_phase_name(phase) + ") prefix " +
                    prefix_label(outcome.prefixes[*prefix], n) + ", run " +
                    std::to_string(run_number));
    auto run = runner.run(*prefix, step, run_number, bisection.reference());
    char cost[96];
    std::snprintf(cost, sizeof cost, " (%d built, %d cached, %d boot(s), %.0f s)", run.builds,
                  run.cached, run.boots, run.seconds);
    status.progress("bisect " + name + ": prefix " + std::to_string(*prefix) + "/" +
                    std::to_string(n) + " run " + std::to_string(run_number) + ": " +
                    run_outcome_name(run.outcome) + ": " + run.summary.substr(0, 200) + cost);
    bisection.record(std::move(run));
    if (bisection.steps()[step].verdict != StepVerdict::k_more) {
      status.progress("bisect " + name + ": prefix " + std::to_string(*prefix) + "/" +
                      std::to_string(n) + " is " +
                      step_verdict_name(bisection.steps()[step].verdict));
    }
    if (services.on_run) {
      services.on_run(outcome);
    }
  }
  return outcome;
}

}  // namespace kseries::bisect
