#include "results/facts.h"

namespace kseries::results {

namespace {

const char* name_of(PatchFact fact) {
  switch (fact) {
    case PatchFact::k_apply:
      return "apply";
    case PatchFact::k_commit:
      return "commit";
    case PatchFact::k_errors:
      return "errors";
    case PatchFact::k_warnings:
      return "warnings";
    case PatchFact::k_checks:
      return "checks";
    case PatchFact::k_build:
      return "build";
    case PatchFact::k_seconds:
      return "seconds";
    case PatchFact::k_log:
      return "log";
    case PatchFact::k_new_warnings:
      return "new_warnings";
  }
  return "?";
}

const char* name_of(KernelFact fact) {
  switch (fact) {
    case KernelFact::k_kernel:
      return "kernel";
    case KernelFact::k_seconds:
      return "seconds";
    case KernelFact::k_compiler:
      return "compiler";
    case KernelFact::k_arch:
      return "arch";
    case KernelFact::k_warnings:
      return "warnings";
    case KernelFact::k_commit:
      return "commit";
  }
  return "?";
}

std::string lookup(const Properties& properties, const std::string& key) {
  const auto it = properties.find(key);
  return it == properties.end() ? "" : it->second;
}

}  // namespace

std::string patch_fact_key(int patch, PatchFact fact) {
  return "patch." + std::to_string(patch) + "." + name_of(fact);
}

std::string kernel_fact_key(const std::string& role, KernelFact fact) {
  return "build." + role + "." + name_of(fact);
}

void set_patch_fact(Properties& properties, int patch, PatchFact fact, std::string value) {
  properties[patch_fact_key(patch, fact)] = std::move(value);
}

std::string patch_fact(const Properties& properties, int patch, PatchFact fact) {
  return lookup(properties, patch_fact_key(patch, fact));
}

void set_kernel_fact(Properties& properties, const std::string& role, KernelFact fact,
                     std::string value) {
  properties[kernel_fact_key(role, fact)] = std::move(value);
}

std::string kernel_fact(const Properties& properties, const std::string& role, KernelFact fact) {
  return lookup(properties, kernel_fact_key(role, fact));
}

std::string session_fact_key(SessionFact fact) {
  return fact == SessionFact::k_clock ? "clock" : "memory_model";
}

void set_session_fact(Properties& properties, SessionFact fact, std::string value) {
  properties[session_fact_key(fact)] = std::move(value);
}

std::string session_fact(const Properties& properties, SessionFact fact) {
  return lookup(properties, session_fact_key(fact));
}

}  // namespace kseries::results
