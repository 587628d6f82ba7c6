#pragma once
// Blobs a guest wrote to its raw bulk disk with kseries_put and announced
// on the protocol channel ("KSERIES blob name=N offset=O size=S sha256=H"):
// read back from the disk image and checked against their checksum.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "guest/protocol.h"

namespace kseries::oracle {

struct BlobRef {
  std::string name;
  uint64_t offset = 0;
  uint64_t size = 0;
  std::string sha256;
};

// Every "blob" event, in order. Throws Error(k_usage) on a malformed one.
std::vector<BlobRef> blob_refs(const std::vector<guest::Event>& events);

// The blob's bytes from DISK_IMAGE; throws Error(k_check_failed) when the
// image is too short or the checksum differs (a torn or overwritten blob).
std::string read_blob(const std::filesystem::path& disk_image, const BlobRef& blob);

}  // namespace kseries::oracle
