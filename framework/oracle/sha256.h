#pragma once
// SHA-256, to check the blobs guests announce with
// "KSERIES blob ... sha256=HEX" (OpenSSL's EVP digest).

#include <string>
#include <string_view>

namespace kseries::oracle {

// Lower-case hex digest of DATA.
std::string sha256_hex(std::string_view data);

}  // namespace kseries::oracle
