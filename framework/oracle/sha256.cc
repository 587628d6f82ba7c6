#include "oracle/sha256.h"

#include <openssl/evp.h>

#include "core/error.h"

namespace kseries::oracle {

std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1) {
    throw infra_error("OpenSSL could not compute a SHA-256 digest");
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    hex += k_hex[digest[i] >> 4];
    hex += k_hex[digest[i] & 0xf];
  }
  return hex;
}

}  // namespace kseries::oracle
