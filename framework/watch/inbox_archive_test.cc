#include "watch/inbox_archive.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include "core/error.h"

namespace kseries::watch {
namespace {

std::string gzip(const std::string& text) {
  z_stream stream{};
  deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, text.size()) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

// As public-inbox 1.9 serves <inbox>/manifest.js.gz (one epoch shown).
TEST(InboxArchive, TheManifestListsTheInboxsEpochsOldestFirst) {
  const std::string manifest = R"({
    "/nvdimm/git/1.git": {"modified": 1784130898, "fingerprint": "bbb"},
    "/nvdimm/git/0.git": {"modified": 1700000000, "fingerprint": "aaa", "reference": null},
    "/other/git/0.git": {"modified": 1},
    "/nvdimm/git/x.git": {},
    "/nvdimm/git/../../etc.git": {}
  })";
  const auto epochs =
      parse_manifest(gunzip(gzip(manifest), 1 << 20), "http://127.0.0.1:8391/nvdimm");
  ASSERT_EQ(epochs.size(), 2u);
  EXPECT_EQ(epochs[0].number, 0);
  EXPECT_EQ(epochs[0].url, "http://127.0.0.1:8391/nvdimm/git/0.git");
  EXPECT_EQ(epochs[0].modified, 1700000000);
  EXPECT_EQ(epochs[0].fingerprint, "aaa");
  EXPECT_EQ(epochs[1].number, 1);
  EXPECT_THROW(parse_manifest("[]", "http://x/nvdimm"), Error);
}

TEST(InboxArchive, GunzipIsBoundedAndRefusesWhatIsNotGzip) {
  EXPECT_EQ(gunzip(gzip("hello"), 100), "hello");
  EXPECT_THROW(gunzip(gzip(std::string(1 << 20, 'a')), 1000), Error);  // a gzip bomb
  EXPECT_THROW(gunzip("not gzip", 1000), Error);
  const std::string cut = gzip(std::string(100000, 'a') + "tail").substr(0, 40);
  EXPECT_THROW(gunzip(cut, 1 << 20), Error);
}

}  // namespace
}  // namespace kseries::watch
