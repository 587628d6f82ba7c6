#include "oracle/bulk_blobs.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "oracle/sha256.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::oracle {
namespace {

TEST(OracleBlobs, ReadsAnnouncedBlobsAndChecksThem) {
  testing::TempDir dir;
  std::string disk(8192, '\0');
  const std::string payload = "KSMMDMP1 pretend dump";
  disk.replace(4096, payload.size(), payload);
  write_file(dir.path() / "bulk.img", disk);
  const std::string log =
      "noise\nKSERIES blob name=devdax-dev-fast offset=4096 size=" +
      std::to_string(payload.size()) + " sha256=" + sha256_hex(payload) +
      "\r\nKSERIES blob name=bad offset=4096 size=4 sha256=" + sha256_hex("nope") + "\n";
  const auto refs = blob_refs(guest::parse_protocol(log));
  ASSERT_EQ(refs.size(), 2U);
  EXPECT_EQ(refs[0].name, "devdax-dev-fast");
  EXPECT_EQ(read_blob(dir.path() / "bulk.img", refs[0]), payload);
  EXPECT_THROW(read_blob(dir.path() / "bulk.img", refs[1]), Error);
  BlobRef past_end = refs[0];
  past_end.offset = 8190;
  EXPECT_THROW(read_blob(dir.path() / "bulk.img", past_end), Error);
}

}  // namespace
}  // namespace kseries::oracle
