#pragma once
// The facts a gate cell keeps for the renderers beside its outcome, typed:
// per patch (what apply, checkpatch and the per-patch builds found of patch
// N) and per kernel role (the candidate's build). They travel in the cell's
// properties, under names that gate.json and JUnit have always carried
// ("patch.3.build", "build.candidate.seconds"); those names are made here
// and nowhere else.

#include <map>
#include <string>

namespace kseries::results {

using Properties = std::map<std::string, std::string>;

enum class PatchFact {
  k_apply,         // apply: "applied", "failed", "not attempted"
  k_commit,        // apply: the commit the patch became
  k_errors,        // checkpatch
  k_warnings,      // checkpatch's warnings; a per-patch build's warnings
  k_checks,        // checkpatch
  k_build,         // per-patch: "built", "cached", "not constructible", "failed"
  k_seconds,       // per-patch: the build's seconds
  k_log,           // per-patch: the build's log
  k_new_warnings,  // per-patch: warnings the patch adds to the build before it
};

enum class KernelFact { k_kernel, k_seconds, k_compiler, k_arch, k_warnings, k_commit };

// What a booted cell's timings were taken with: the clock ("icount",
// "memory", "wall") and the memory clock's machine profile, described.
enum class SessionFact { k_clock, k_memory_model };

// The property name of FACT of patch PATCH (1-based).
std::string patch_fact_key(int patch, PatchFact fact);
// The property name of FACT of the kernel of ROLE ("candidate", "base").
std::string kernel_fact_key(const std::string& role, KernelFact fact);

void set_patch_fact(Properties& properties, int patch, PatchFact fact, std::string value);
// "" when the cell has none.
std::string patch_fact(const Properties& properties, int patch, PatchFact fact);
void set_kernel_fact(Properties& properties, const std::string& role, KernelFact fact,
                     std::string value);
std::string kernel_fact(const Properties& properties, const std::string& role, KernelFact fact);
// The property name of FACT: "clock", "memory_model" (the names `kseries
// boot`'s JUnit suite properties carry).
std::string session_fact_key(SessionFact fact);
void set_session_fact(Properties& properties, SessionFact fact, std::string value);
std::string session_fact(const Properties& properties, SessionFact fact);

}  // namespace kseries::results
