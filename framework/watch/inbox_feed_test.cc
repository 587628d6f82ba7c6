#include "watch/inbox_feed.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "kseries_source_dir.h"
#include "sys/files.h"

namespace kseries::watch {
namespace {

// As public-inbox 1.9's new.atom has it (abridged): newest first.
const char* k_feed = R"(<?xml version="1.0" encoding="us-ascii"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>public inbox for toy@lists.example.org</title>
<id>mailto:toy@lists.example.org</id>
<entry><author><name>Rev Iewer</name><email>rev@example.com</email></author>
<title>Re: [PATCH v2 0/2] toy: the toy series</title><updated>2026-12-02T07:00:00Z</updated>
<link href="http://127.0.0.1:8080/toy/review-2@example.com/"/></entry>
<entry><author><name>Toy Author</name><email>toy@example.com</email></author>
<title>[PATCH v2 1/2] toy: five</title><updated>2026-12-02T06:08:52Z</updated>
<link href="http://127.0.0.1:8080/toy/p1.v2@example.com/"/></entry>
<entry><author><name>Toy Author</name><email>toy@example.com</email></author>
<title>[PATCH v2 0/2] toy: the toy series</title><updated>2026-12-02T06:08:52Z</updated>
<link href="http://127.0.0.1:8080/toy/cover-v2%2Ex@example.com/"/></entry>
<entry><author><name>Other</name><email>o@example.com</email></author>
<title>[PATCH 0/3] escape: a slash</title><updated>2026-12-01T00:00:00Z</updated>
<link href="http://127.0.0.1:8080/toy/..%2F..%2Fx@example.com/"/></entry>
<entry><author><name>Toy Author</name><email>toy@example.com</email></author>
<title>[PATCH v1 0/2] toy: the toy series</title><updated>2026-12-02T06:08:52Z</updated>
<link href="http://127.0.0.1:8080/toy/cover-v1@example.com/"/></entry>
<entry><author><name>Other</name><email>o@example.com</email></author>
<title>[PATCH] lone: a single patch</title><updated>2026-12-01T00:00:00Z</updated>
<link href="http://elsewhere.example/toy/lone@example.com/"/></entry>
<entry><author><name>Other</name><email>o@example.com</email></author>
<title>[PATCH] lone: a single patch
with a newline</title><updated>2026-12-01T00:00:00Z</updated>
<link href="http://127.0.0.1:8080/toy/lone2@example.com/"/></entry>
</feed>)";

TEST(InboxFeedTest, ReadsEveryEntryUnderTheInboxOldestFirst) {
  const Feed feed = parse_feed(k_feed, "http://127.0.0.1:8080/toy");
  EXPECT_EQ(feed.list_address, "toy@lists.example.org");
  EXPECT_EQ(feed.entries, 7u);
  // The link elsewhere, the message-id with a slash in it (it would leave
  // the inbox's URL space).
  EXPECT_EQ(feed.unusable, 2u);
  ASSERT_EQ(feed.messages.size(), 5u);
  EXPECT_EQ(feed.messages[0].message_id, "lone2@example.com");
  EXPECT_EQ(feed.messages[0].subject, "[PATCH] lone: a single patch with a newline");
  EXPECT_EQ(feed.messages[0].date, "2026-12-01T00:00:00Z");
  EXPECT_EQ(feed.messages.back().message_id, "review-2@example.com");
  EXPECT_EQ(feed.messages.back().author_email, "rev@example.com");
  EXPECT_EQ(feed.oldest, "2026-12-01T00:00:00Z");
  EXPECT_EQ(feed.newest, "2026-12-02T07:00:00Z");
}

TEST(InboxFeedTest, RefusesWhatIsNotAFeed) {
  EXPECT_THROW(parse_feed("<html></html>", "http://x/toy"), Error);
  EXPECT_THROW(parse_feed("not xml <", "http://x/toy"), Error);
  EXPECT_THROW(parse_feed(std::string(k_max_feed_bytes + 1, ' '), "http://x/toy"), Error);
}

// Recorded from public-inbox-httpd 1.9 (tests/inbox.bash's inbox, one
// revision of two patches with its cover letter; the port made 8080).
TEST(InboxFeedTest, ARecordedPublicInboxFeed) {
  const Feed feed = parse_feed(
      read_file(std::filesystem::path(KSERIES_SOURCE_DIR) / "framework/watch/testdata/new.atom"),
      "http://127.0.0.1:8080/toy");
  EXPECT_EQ(feed.list_address, "toy@lists.example.org");
  ASSERT_EQ(feed.messages.size(), 3u);
  const auto& cover = feed.messages[0];
  EXPECT_EQ(cover.subject, "[PATCH v2 0/2] toy series");
  EXPECT_EQ(cover.message_id, "cover.1796191732.git.a@example.com");
  EXPECT_EQ(cover.in_reply_to, "");
  // Its patches answer it (thr:in-reply-to).
  EXPECT_EQ(feed.messages[2].in_reply_to, "cover.1796191732.git.a@example.com");
  EXPECT_EQ(feed.messages[2].references,
            std::vector<std::string>{"cover.1796191732.git.a@example.com"});
}

}  // namespace
}  // namespace kseries::watch
