#include "events/json_line.h"

#include <string>

#include "events/codec.h"
#include "events/events_generated.h"
#include "events/json.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace combat::events {
namespace {

using ::testing::HasSubstr;

std::string Str(absl::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

TEST(JsonLineTest, StringsAreEscapedForStrictJson) {
  EXPECT_EQ(Str(""), "\"\"");
  EXPECT_EQ(Str("say \"hi\" \\ ok"), R"("say \"hi\" \\ ok")");
  EXPECT_EQ(Str(std::string("a\0b", 3)), R"("a\u0000b")");
  EXPECT_EQ(Str("\n\t\r\b\f\x01\x1f\x7f"), R"("\n\t\r\b\f\u0001\u001f\u007f")");
  EXPECT_EQ(Str("Zo\xc3\xab \xe2\x82\xac \xf0\x9f\x8e\xb2"),
            "\"Zo\xc3\xab \xe2\x82\xac \xf0\x9f\x8e\xb2\"");  // valid UTF-8 kept
  // Each byte outside valid UTF-8 becomes U+FFFD.
  EXPECT_EQ(Str("bad \xff end"), R"("bad \ufffd end")");
  EXPECT_EQ(Str("cut \xc3"), R"("cut \ufffd")");
  EXPECT_EQ(Str("overlong \xc0\xaf"), R"("overlong \ufffd\ufffd")");
  EXPECT_EQ(Str("surrogate \xed\xa0\x80"), R"("surrogate \ufffd\ufffd\ufffd")");
  EXPECT_EQ(Str("too big \xf4\x90\x80\x80"), R"("too big \ufffd\ufffd\ufffd\ufffd")");
}

fb::EventT Declared(const std::string& text) {
  fb::EventT e;
  e.session = "s1";
  e.branch = "main";
  e.seq = 2;
  e.author = "gob\xff";  // not UTF-8: the API can write it
  e.role = fb::Role::System;
  e.ruleset = "toy";
  e.prev_hash.assign(32, 0);
  for (int i = 0; i < 32; ++i) e.state_hash.push_back(static_cast<uint8_t>(i * 8));
  fb::DeclarationT d;
  d.command = std::make_unique<fb::CommandT>();
  d.command->action = "shout";
  d.command->text = text;
  e.body.Set(std::move(d));
  return e;
}

TEST(JsonLineTest, EventIsOneLineWithEveryFieldAndHexHashes) {
  auto ev = EventBuffer::FromOwned(EncodeEvent(Declared(std::string("a \"b\"\0c", 7))),
                                   "test");
  ASSERT_TRUE(ev.ok()) << ev.status();
  auto line = EventToJsonLine(*ev);
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(line->find('\n'), std::string::npos) << *line;
  EXPECT_EQ(line->rfind(
                "{\"session\":\"s1\",\"branch\":\"main\",\"seq\":2,"
                "\"author\":\"gob\\ufffd\",\"role\":\"System\",\"cause\":0,"
                "\"command_id\":\"\",\"ruleset\":\"toy\",\"ruleset_version\":0,"
                "\"prev_hash\":\"" + std::string(64, '0') + "\","
                "\"state_hash\":\"0008101820283038",
                0),
            0u)
      << *line;
  EXPECT_THAT(*line, HasSubstr("\"body_type\":\"Declaration\",\"body\":{\"command\":{"));
  EXPECT_THAT(*line, HasSubstr("\"text\":\"a \\\"b\\\"\\u0000c\""));
  // Absent vectors, strings and tables are printed, not omitted.
  EXPECT_THAT(*line, HasSubstr("\"targets\":[]"));
  EXPECT_THAT(*line, HasSubstr("\"weapon\":\"\""));
  EXPECT_THAT(*line, HasSubstr("\"role\":\"Player\""));  // Command.role default
  EXPECT_EQ(line->back(), '}');
  // The pretty printer stays as it was (FORMAT.md; event_diff reads it).
  auto pretty = EventToJson(*ev);
  EXPECT_FALSE(pretty.ok()) << "not UTF-8: the FlatBuffers printer refuses it";
}

TEST(JsonLineTest, StateRootAndErrors) {
  EXPECT_FALSE(BinaryToJsonLine(nullptr, 0, "Event").ok());
  EXPECT_FALSE(BinaryToJsonLine(nullptr, 0, "Nope").ok());
}

}  // namespace
}  // namespace combat::events
