// The one list of host oracles a case.conf may name (`oracle:`). An oracle
// is a class deriving from Oracle (session/oracle.h) in a file of its own,
// with a make_ function; adding one is that file and one line here (its
// declaration beside its entry).
#include "session/oracle.h"

namespace kseries::session {

std::unique_ptr<Oracle> make_memmap_equivalence_oracle();  // oracle_dumps.cc
std::unique_ptr<Oracle> make_memmap_vs_base_oracle();      // oracle_dumps.cc
std::unique_ptr<Oracle> make_hugetlb_tails_oracle();       // oracle_hugetlb.cc
std::unique_ptr<Oracle> make_slow_path_work_oracle();      // oracle_slow_path_work.cc
std::unique_ptr<Oracle> make_nt_ordering_oracle();         // oracle_nt_ordering.cc
std::unique_ptr<Oracle> make_memmap_state_oracle();        // oracle_memmap_state.cc
std::unique_ptr<Oracle> make_ktap_oracle();                // oracle_ktap.cc

const std::vector<std::unique_ptr<Oracle>>& registered_oracles() {
  static const std::vector<std::unique_ptr<Oracle>> oracles = [] {
    std::vector<std::unique_ptr<Oracle>> list;
    list.push_back(make_memmap_equivalence_oracle());
    list.push_back(make_memmap_vs_base_oracle());
    list.push_back(make_hugetlb_tails_oracle());
    list.push_back(make_slow_path_work_oracle());
    list.push_back(make_nt_ordering_oracle());
    list.push_back(make_memmap_state_oracle());
    list.push_back(make_ktap_oracle());
    return list;
  }();
  return oracles;
}

}  // namespace kseries::session
