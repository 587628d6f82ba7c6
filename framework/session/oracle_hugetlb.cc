// hugetlb-tails: boot-time HugeTLB folio dumps (oracle/hugetlb_tails.h).
#include "oracle/hugetlb_tails.h"
#include "session/oracle.h"

namespace kseries::session {

namespace {

// hugetlb-tails: each kernel's folios judged alone, then tails vs the baseline's.
class HugetlbTailsOracle final : public Oracle {
 public:
  std::string name() const override { return "hugetlb-tails"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    auto& dumps = evidence_of<oracle::HugetlbDumps>(record);
    dumps = oracle::collect_hugetlb_dumps(record.events, record.run.bulk);
    record.verdicts = oracle::judge_hugetlb_tails(dumps);
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    static const oracle::HugetlbDumps k_none{};
    const auto* base = evidence_of<oracle::HugetlbDumps>(baseline);
    const auto* mine = evidence_of<oracle::HugetlbDumps>(candidate);
    return oracle::judge_hugetlb_vs_base(base ? *base : k_none, mine ? *mine : k_none);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_hugetlb_tails_oracle() {
  return std::make_unique<HugetlbTailsOracle>();
}

}  // namespace kseries::session
