#include "events/codec.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace combat::events {
namespace {

fb::EventT RollEvent() {
  fb::EventT e;
  e.session = "s1";
  e.branch = "main";
  e.seq = 7;
  e.author = "gm";
  e.role = fb::Role::GM;
  e.cause = 6;
  e.ruleset = "d20_three_action";
  e.ruleset_version = 1;
  e.prev_hash.assign(32, 0xab);
  e.state_hash.assign(32, 0xcd);
  fb::RollT roll;
  roll.purpose = "attack";
  roll.roller = "aria";
  roll.expression = "2d20kh1+7";
  for (int v : {4, 17}) {
    auto d = std::make_unique<fb::DieT>();
    d->faces = 20;
    d->value = v;
    d->index = v == 4 ? 10 : 11;
    d->kept = v == 17;
    d->provenance = fb::Provenance::Manual;
    roll.dice.push_back(std::move(d));
  }
  roll.modifier = 7;
  roll.total = 24;
  e.body.Set(std::move(roll));
  return e;
}

TEST(EncodeEvent, DeterministicAndIdentified) {
  const std::vector<uint8_t> a = EncodeEvent(RollEvent());
  const std::vector<uint8_t> b = EncodeEvent(RollEvent());
  EXPECT_EQ(a, b);
  ASSERT_GE(a.size(), 8u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(a.data()) + 4, 4),
            "CMBE");
}

TEST(EventBuffer, RoundTripsAndHashes) {
  const std::vector<uint8_t> bytes = EncodeEvent(RollEvent());
  absl::StatusOr<EventBuffer> buf = EventBuffer::FromOwned(bytes, "test");
  ASSERT_TRUE(buf.ok()) << buf.status();
  EXPECT_EQ(buf->bytes(), bytes);
  EXPECT_EQ(buf->hash(), Sha256(bytes));
  EXPECT_TRUE(buf->CheckCanonical("test").ok());
  const fb::Event& e = buf->event();
  EXPECT_EQ(e.seq(), 7u);
  ASSERT_EQ(e.body_type(), fb::Body::Roll);
  EXPECT_EQ(e.body_as_Roll()->dice()->size(), 2u);
  EXPECT_FALSE(e.body_as_Roll()->dice()->Get(0)->kept());
}

TEST(EventBuffer, SetStateHashGivesTheEncodingOfTheFinalEvent) {
  fb::EventT e = RollEvent();
  e.state_hash.assign(32, 0);
  absl::StatusOr<EventBuffer> buf = EventBuffer::FromOwned(EncodeEvent(e), "test");
  ASSERT_TRUE(buf.ok());
  Digest h;
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<uint8_t>(i * 7 + 1);
  ASSERT_TRUE(buf->SetStateHash(h).ok());
  e.state_hash.assign(h.begin(), h.end());
  EXPECT_EQ(buf->bytes(), EncodeEvent(e));
  EXPECT_TRUE(buf->CheckCanonical("test").ok());
  EXPECT_EQ(buf->hash(), Sha256(EncodeEvent(e)));

  fb::EventT none = RollEvent();
  none.state_hash.clear();
  absl::StatusOr<EventBuffer> bare = EventBuffer::FromOwned(EncodeEvent(none), "test");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->SetStateHash(h).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(EventBuffer, FromUnalignedBytes) {
  const std::vector<uint8_t> bytes = EncodeEvent(RollEvent());
  std::vector<uint8_t> shifted(bytes.size() + 1);
  std::memcpy(shifted.data() + 1, bytes.data(), bytes.size());
  absl::StatusOr<EventBuffer> buf =
      EventBuffer::FromBytes(shifted.data() + 1, bytes.size(), "odd");
  ASSERT_TRUE(buf.ok()) << buf.status();
  EXPECT_EQ(buf->bytes(), bytes);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->bytes().data()) % 8, 0u);
}

TEST(EventBuffer, RejectsNonEvents) {
  EXPECT_EQ(EventBuffer::FromBytes("", "empty").status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(EventBuffer::FromBytes("1234567", "short").status().code(),
            absl::StatusCode::kDataLoss);
  std::vector<uint8_t> bytes = EncodeEvent(RollEvent());
  bytes[4] = 'X';  // identifier
  absl::StatusOr<EventBuffer> buf =
      EventBuffer::FromOwned(bytes, "session s1 seq 7");
  ASSERT_FALSE(buf.ok());
  EXPECT_EQ(buf.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(buf.status().message().find("session s1 seq 7"), std::string::npos);
  bytes = EncodeEvent(RollEvent());
  bytes.resize(bytes.size() / 2);
  EXPECT_EQ(EventBuffer::FromOwned(bytes, "torn").status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(EventBuffer, FlippedBytesNeverCrash) {
  const std::vector<uint8_t> good = EncodeEvent(RollEvent());
  int rejected = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    for (uint8_t mask : {0x01, 0x80, 0xff}) {
      std::vector<uint8_t> bad = good;
      bad[i] ^= mask;
      absl::StatusOr<EventBuffer> buf = EventBuffer::FromOwned(bad, "flip");
      if (!buf.ok()) {
        EXPECT_EQ(buf.status().code(), absl::StatusCode::kDataLoss);
        ++rejected;
        continue;
      }
      // Verified: safe to read everything; the hash differs.
      EXPECT_NE(buf->hash(), Sha256(good));
      fb::EventT object;
      buf->event().UnPackTo(&object);
      (void)buf->CheckCanonical("flip");
    }
  }
  EXPECT_GT(rejected, 0);
}

// The Verifier accepts these; the generated Pack would dereference null
// for a union type without a value (CheckCanonical crashed on them).
TEST(EventBuffer, RejectsMismatchedUnions) {
  struct Case {
    uint8_t body_type;
    bool body;
    uint8_t change_type;  // when body_type is StateChange
    bool change;
  };
  const uint8_t kChange = static_cast<uint8_t>(fb::Body::StateChange);
  for (const Case& c : {Case{static_cast<uint8_t>(fb::Body::Roll), false, 0,
                             false},                       // type, no value
                        Case{0, true, 0, false},           // value, no type
                        Case{9, true, 0, false},           // unknown type
                        Case{kChange, true, 3, false},     // change type only
                        Case{kChange, true, 0, true},      // change value only
                        Case{kChange, true, 99, true}}) {  // unknown change
    flatbuffers::FlatBufferBuilder fbb;
    flatbuffers::Offset<void> body;
    if (c.body) {
      flatbuffers::Offset<void> change;
      if (c.change) {
        change = fb::CreateRoundStarted(fbb, 1).Union();
      }
      fb::StateChangeBuilder sb(fbb);
      if (c.change) sb.add_change(change);
      if (c.change_type != 0) {
        sb.add_change_type(static_cast<fb::Change>(c.change_type));
      }
      body = sb.Finish().Union();
    }
    fb::EventBuilder eb(fbb);
    eb.add_seq(1);
    if (c.body) eb.add_body(body);
    if (c.body_type != 0) eb.add_body_type(static_cast<fb::Body>(c.body_type));
    fbb.Finish(eb.Finish(), fb::EventIdentifier());
    absl::StatusOr<EventBuffer> buf =
        EventBuffer::FromBytes(fbb.GetBufferPointer(), fbb.GetSize(), "u");
    EXPECT_EQ(buf.status().code(), absl::StatusCode::kDataLoss)
        << int{c.body_type} << " " << c.body << " " << int{c.change_type} << " "
        << c.change;
  }
  // The consistent forms pass.
  fb::EventT none;
  none.seq = 1;
  EXPECT_TRUE(EventBuffer::FromOwned(EncodeEvent(none), "none").ok());
  fb::EventT round;
  round.seq = 1;
  fb::StateChangeT sc;
  fb::RoundStartedT rs;
  rs.round = 1;
  sc.change.Set(std::move(rs));
  round.body.Set(std::move(sc));
  EXPECT_TRUE(EventBuffer::FromOwned(EncodeEvent(round), "round").ok());
}

TEST(EventBuffer, TrailingBytesAreNotCanonical) {
  std::vector<uint8_t> bytes = EncodeEvent(RollEvent());
  bytes.resize(bytes.size() + 8, 0);
  absl::StatusOr<EventBuffer> buf = EventBuffer::FromOwned(bytes, "pad");
  ASSERT_TRUE(buf.ok()) << buf.status();
  EXPECT_EQ(buf->CheckCanonical("pad").code(), absl::StatusCode::kDataLoss);
}

TEST(EventBuffer, DefaultScalarWrittenExplicitlyIsNotCanonical) {
  // The same event built with force_defaults: a different byte layout.
  flatbuffers::FlatBufferBuilder fbb;
  fbb.ForceDefaults(true);
  fb::EventT e = RollEvent();
  fbb.Finish(fb::Event::Pack(fbb, &e), fb::EventIdentifier());
  std::vector<uint8_t> bytes(fbb.GetBufferPointer(),
                             fbb.GetBufferPointer() + fbb.GetSize());
  absl::StatusOr<EventBuffer> buf = EventBuffer::FromOwned(bytes, "forced");
  ASSERT_TRUE(buf.ok()) << buf.status();
  EXPECT_EQ(buf->CheckCanonical("forced").code(), absl::StatusCode::kDataLoss);
  fb::EventT back;
  buf->event().UnPackTo(&back);
  EXPECT_EQ(EncodeEvent(back), EncodeEvent(RollEvent()));
}

}  // namespace
}  // namespace combat::events
