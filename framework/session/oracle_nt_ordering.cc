// nt-ordering: the memcost plugin's ordering records (oracle/nt_ordering.h).
#include "memcost/symbols.h"
#include "oracle/nt_ordering.h"
#include "session/oracle.h"

namespace kseries::session {

namespace {

// nt-ordering: the memcost plugin's ordering records, per setup.
class NtOrderingOracle final : public Oracle {
 public:
  std::string name() const override { return "nt-ordering"; }
  bool needs_memory_plugin() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    record.verdicts = oracle::judge_nt_ordering(record.events, record.memcost,
                                                memcost::Symbolizer::load(record.system_map));
  }
};

}  // namespace

std::unique_ptr<Oracle> make_nt_ordering_oracle() { return std::make_unique<NtOrderingOracle>(); }

}  // namespace kseries::session
