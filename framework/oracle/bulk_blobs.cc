#include "oracle/bulk_blobs.h"

#include <fstream>

#include "core/error.h"
#include "oracle/sha256.h"

namespace kseries::oracle {

namespace {

uint64_t number(const guest::Event& event, const std::string& key) {
  const std::string text = event.get(key);
  try {
    size_t used = 0;
    const uint64_t value = std::stoull(text, &used);
    if (used == text.size()) {
      return value;
    }
  } catch (const std::exception&) {
  }
  throw usage_error("protocol line " + std::to_string(event.line) + ": blob " + key + "='" + text +
                    "' is not a number");
}

}  // namespace

std::vector<BlobRef> blob_refs(const std::vector<guest::Event>& events) {
  std::vector<BlobRef> refs;
  for (const guest::Event& event : events) {
    if (event.verb != "blob") {
      continue;
    }
    BlobRef ref;
    ref.name = event.get("name");
    ref.offset = number(event, "offset");
    ref.size = number(event, "size");
    ref.sha256 = event.get("sha256");
    while (!ref.sha256.empty() && (ref.sha256.back() == '\r' || ref.sha256.back() == ' ')) {
      ref.sha256.pop_back();
    }
    if (ref.name.empty() || ref.sha256.size() != 64) {
      throw usage_error("protocol line " + std::to_string(event.line) +
                        ": blob without a name or a sha256");
    }
    refs.push_back(std::move(ref));
  }
  return refs;
}

std::string read_blob(const std::filesystem::path& disk_image, const BlobRef& blob) {
  std::ifstream in(disk_image, std::ios::binary);
  if (!in) {
    throw infra_error("cannot open the bulk disk image " + disk_image.string());
  }
  std::string data(blob.size, '\0');
  in.seekg(static_cast<std::streamoff>(blob.offset));
  in.read(data.data(), static_cast<std::streamsize>(blob.size));
  if (static_cast<uint64_t>(in.gcount()) != blob.size) {
    throw check_failure("blob " + blob.name + ": " + disk_image.string() + " ends before offset " +
                        std::to_string(blob.offset) + " + " + std::to_string(blob.size));
  }
  const std::string sum = sha256_hex(data);
  if (sum != blob.sha256) {
    throw check_failure("blob " + blob.name + " at offset " + std::to_string(blob.offset) +
                        ": sha256 " + sum + ", the guest announced " + blob.sha256);
  }
  return data;
}

}  // namespace kseries::oracle
