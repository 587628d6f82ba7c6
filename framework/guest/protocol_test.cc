#include "guest/protocol.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "guest/protocol_log.h"
#include "testing/temp_dir.h"

namespace kseries::guest {
namespace {

TEST(ProtocolTest, ParsesVerbsAndFields) {
  const auto events = parse_protocol(
      "KSERIES boot kernel=6.12.117 cpus=2\n"
      "garbage line\n"
      "KSERIES measure setup=fsdax-dev iter=3 metric=memmap_init_ms value=35 unit=ms "
      "kind=rebind pages=515584\n"
      "KSERIES result status=fail subject=devdax-dev reason=bind failed: Invalid argument (22)\n"
      "\x01KSERIES poweroff\n"
      "KSERIES measure setup=x iter=1 metric=m value=notanumber unit=ms\n"
      "KSERIES meas");
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events[0].verb, "boot");
  EXPECT_EQ(events[0].get("kernel"), "6.12.117");
  EXPECT_EQ(events[1].line, 3);
  EXPECT_EQ(events[1].number("value").value(), 35);
  EXPECT_EQ(events[2].get("reason"), "bind failed: Invalid argument (22)");
  EXPECT_EQ(events[3].verb, "poweroff");
  EXPECT_EQ(events[5].verb, "meas");  // a torn last line is an event with no fields

  const auto ms = measurements(events);
  ASSERT_EQ(ms.size(), 1u);  // the one with a non-numeric value is dropped
  EXPECT_EQ(ms[0].setup, "fsdax-dev");
  EXPECT_EQ(ms[0].iter, 3);
  EXPECT_EQ(ms[0].kind, "rebind");
  EXPECT_EQ(ms[0].extra.at("pages"), "515584");
}

TEST(ProtocolTest, KernelMessagesAreNotProtocol) {
  EXPECT_TRUE(
      parse_protocol("[    1.234] memmap_init_zone_device initialised 524288 pages in 34ms\n")
          .empty());
}

TEST(ProtocolTest, AKeyStartsTheLineOrFollowsASpace) {
  const auto events = parse_protocol("KSERIES x a=b=c d  e=\"q r\" -f=1 g-h_2=3 end\n");
  ASSERT_EQ(events.size(), 1u);
  const auto& fields = events[0].fields;
  EXPECT_EQ(fields.size(), 3u);
  EXPECT_EQ(events[0].get("a"), "b=c d");         // "c" follows '=', not a space
  EXPECT_EQ(events[0].get("e"), "\"q r\" -f=1");  // not quoted as a whole
  EXPECT_EQ(events[0].get("g-h_2"), "3 end");
  EXPECT_EQ(parse_protocol("KSERIES x  =1 y=").at(0).get("y", "absent"), "");
}

TEST(ProtocolTest, LongLinesFromTheGuestDoNotCrash) {
  // std::regex recursed per character and overflowed the stack on such a line.
  const std::string key(400 * 1024, 'k');
  const auto events = parse_protocol("KSERIES measure " + key + "=1 " + key + " v=2\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].get(key), "1 " + key);
  EXPECT_EQ(events[0].get("v"), "2");
}

// Found by fuzz/protocol (UBSan: 1.88889e+86 is outside the range of int):
// the rebind index became an int unchecked.
TEST(ProtocolTest, ARebindIndexOutOfRangeIsNotAMeasurement) {
  const auto events = parse_protocol(
      "KSERIES measure setup=a metric=m value=1 iter=1e86\n"
      "KSERIES measure setup=a metric=m value=2 iter=-3\n"
      "KSERIES measure setup=a metric=m value=3 iter=2.5\n"
      "KSERIES measure setup=a metric=m value=4 iter=7\n");
  const auto measured = measurements(events);
  ASSERT_EQ(measured.size(), 1u);
  EXPECT_EQ(measured[0].iter, 7);
  EXPECT_EQ(measured[0].value, 4);
}

// A number enters checked: 1.7976931348623157e308 sent the HTML report's
// axis into an endless loop; inf and nan are no measurement either.
TEST(ProtocolTest, AValueOutOfRangeIsNotAMeasurement) {
  const auto events = parse_protocol(
      "KSERIES measure setup=a metric=m value=1.7976931348623157e308 iter=1\n"
      "KSERIES measure setup=a metric=m value=inf iter=2\n"
      "KSERIES measure setup=a metric=m value=nan iter=3\n"
      "KSERIES measure setup=a metric=m value=-1e16 iter=4\n"
      "KSERIES measure setup=a metric=m value=1e300 iter=5\n"
      "KSERIES measure setup=a metric=m value=123456789 iter=6\n");
  const auto measured = measurements(events);
  ASSERT_EQ(measured.size(), 1u);
  EXPECT_EQ(measured[0].iter, 6);
  EXPECT_EQ(events[0].number("value"), std::nullopt);
}

// A guest that floods the port past the part read and then powers off:
// the poweroff (and a guest-error) at the end of the log is read, nothing
// else of the flood; the flood itself is said.
TEST(ProtocolTest, APoweroffAfterAFloodIsSeen) {
  const testing::TempDir dir;
  std::string log = "KSERIES boot kernel=6.12\nKSERIES case-start name=demo\n";
  while (log.size() < 300000) {
    log += "KSERIES measure setup=x iter=1 metric=m value=1 unit=ns kind=rebind\n";
  }
  log += "KSERIES guest-error reason=too much\nKSERIES poweroff\n";
  testing::put_file(dir / "p.log", log);
  const auto flooded = read_protocol_log(dir / "p.log", 100000);
  EXPECT_TRUE(flooded.flooded);
  ASSERT_GE(flooded.events.size(), 3u);
  EXPECT_EQ(flooded.events[0].verb, "boot");
  EXPECT_EQ(flooded.events.back().verb, "poweroff");
  EXPECT_EQ(flooded.events.back().line, 0);
  EXPECT_EQ(flooded.events[flooded.events.size() - 2].verb, "guest-error");
  std::size_t measures = 0;
  for (const auto& event : flooded.events) {
    measures += event.verb == "measure" ? 1 : 0;
  }
  EXPECT_LT(measures, 100000u / 60);  // the head's, not the flood's
  // Within the bound: all of it, once.
  const auto whole = read_protocol_log(dir / "p.log", 1 << 20);
  EXPECT_FALSE(whole.flooded);
  EXPECT_EQ(std::count_if(whole.events.begin(), whole.events.end(),
                          [](const Event& e) { return e.verb == "poweroff"; }),
            1);
  // Just over the bound: the tail overlaps the head; nothing read twice.
  const auto just = read_protocol_log(dir / "p.log", log.size() - 10);
  EXPECT_TRUE(just.flooded);
  EXPECT_EQ(std::count_if(just.events.begin(), just.events.end(),
                          [](const Event& e) { return e.verb == "poweroff"; }),
            1);
  EXPECT_EQ(std::count_if(just.events.begin(), just.events.end(),
                          [](const Event& e) { return e.verb == "guest-error"; }),
            1);
  EXPECT_TRUE(read_protocol_log(dir / "none.log", 100).events.empty());
}

}  // namespace
}  // namespace kseries::guest
