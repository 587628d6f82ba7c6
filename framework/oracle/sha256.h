#pragma once
// SHA-256 (FIPS 180-4), to check the blobs guests announce with
// "KSERIES blob ... sha256=HEX" (no crypto library is linked).

#include <string>
#include <string_view>

namespace kseries::oracle {

// Lower-case hex digest of DATA.
std::string sha256_hex(std::string_view data);

}  // namespace kseries::oracle
