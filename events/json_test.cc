#include "events/json.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "events/codec.h"
#include "events/events_generated.h"
#include "events/state_generated.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace combat::events {
namespace {

using ::testing::HasSubstr;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

fb::EventT Envelope(uint64_t seq) {
  fb::EventT e;
  e.session = "s1";
  e.branch = "main";
  e.seq = seq;
  e.author = "Zoë";  // non-ASCII survives the round trip
  e.role = fb::Role::GM;
  e.cause = 3;
  e.command_id = "cmd-42";
  e.ruleset = "d20_three_action";
  e.ruleset_version = 2;
  for (int i = 0; i < 32; ++i) {
    e.prev_hash.push_back(static_cast<uint8_t>(i * 7));
    e.state_hash.push_back(static_cast<uint8_t>(255 - i));
  }
  return e;
}

fb::EventT RollEvent() {
  fb::EventT e = Envelope(4);
  fb::RollT roll;
  roll.purpose = "attack";
  roll.roller = "aria";
  roll.expression = "2d20kh1+7";
  for (int i = 0; i < 3; ++i) {
    auto d = std::make_unique<fb::DieT>();
    d->faces = 20;
    d->value = i == 1 ? 20 : 5 + i;
    d->index = 100 + i;
    d->kept = i != 0;
    d->exploded = i == 1;
    d->provenance = i == 2 ? fb::Provenance::Seeded : fb::Provenance::Manual;
    roll.dice.push_back(std::move(d));
  }
  roll.modifier = -7;
  roll.total = 20 + 7 - 7;
  roll.successes = 0;
  e.body.Set(std::move(roll));
  return e;
}

fb::EventT ChangeEvent() {
  fb::EventT e = Envelope(5);
  fb::StateChangeT sc;
  sc.cause = 3;
  sc.rule = "000.conditions.frightened";
  for (const auto& [k, v] : {std::pair<const char*, int64_t>{"dc", 15},
                             {"roll", -2},
                             {"big", int64_t{1} << 53}}) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    sc.numbers.push_back(std::move(n));
  }
  sc.note = "line one\nline \"two\"";
  fb::ConditionAddedT c;
  c.id = 9;
  c.actor = "goblin";
  c.name = "frightened";
  c.source = "aria";
  c.level = 2;
  c.expiry = std::make_unique<fb::ExpiryT>();
  c.expiry->kind = fb::ExpiryKind::TurnEnd;
  c.expiry->actor = "goblin";
  c.expiry->round = 3;
  c.ref = 4;
  sc.change.Set(std::move(c));
  e.body.Set(std::move(sc));
  return e;
}

fb::EventT SessionEvent() {
  fb::EventT e = Envelope(1);
  fb::StateChangeT sc;
  fb::SessionStartedT s;
  s.session = "s1";
  s.ruleset = "ap_rp";
  s.schema_version = kSchemaVersion;
  s.dice_commitment.assign(32, 0x5a);
  s.map = std::make_unique<fb::MapT>();
  s.map->width = 10;
  s.map->height = 8;
  auto cell = std::make_unique<fb::CellT>();
  cell->at = std::make_unique<fb::Pos>(3, 4);
  cell->terrain = "wall";
  s.map->cells.push_back(std::move(cell));
  sc.change.Set(std::move(s));
  e.body.Set(std::move(sc));
  return e;
}

// Bytes in a layout that depends only on the content: unpack and pack
// with a fresh builder (what EncodeEvent does for events).
template <typename Table>
std::vector<uint8_t> Repack(const std::vector<uint8_t>& bytes,
                            const char* identifier) {
  typename Table::NativeTableType object;
  flatbuffers::GetRoot<Table>(bytes.data())->UnPackTo(&object);
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(Table::Pack(fbb, &object), identifier);
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

void ExpectRoundTrip(const fb::EventT& event) {
  const std::vector<uint8_t> canonical = EncodeEvent(event);
  absl::StatusOr<std::string> json =
      BinaryToJson(canonical.data(), canonical.size(), "Event");
  ASSERT_TRUE(json.ok()) << json.status();
  absl::StatusOr<std::vector<uint8_t>> back = JsonToBinary(*json, "Event");
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << *json;
  EXPECT_EQ(*back, canonical) << *json;
  // And the JSON printed from the result is the same text.
  absl::StatusOr<std::string> again =
      BinaryToJson(back->data(), back->size(), "Event");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *json);
}

TEST(Json, RollEventRoundTrips) {
  ExpectRoundTrip(RollEvent());
  const std::vector<uint8_t> b = EncodeEvent(RollEvent());
  absl::StatusOr<std::string> json = BinaryToJson(b.data(), b.size(), "Event");
  ASSERT_TRUE(json.ok());
  EXPECT_THAT(*json, HasSubstr("\"body_type\": \"Roll\""));
  EXPECT_THAT(*json, HasSubstr("\"provenance\": \"Manual\""));
  EXPECT_THAT(*json, HasSubstr("\"kept\": false"));
  EXPECT_THAT(*json, HasSubstr("\"author\": \"Zoë\""));
}

TEST(Json, StateChangeEventRoundTrips) {
  ExpectRoundTrip(ChangeEvent());
  ExpectRoundTrip(SessionEvent());
  absl::StatusOr<EventBuffer> buf =
      EventBuffer::FromOwned(EncodeEvent(ChangeEvent()), "test");
  ASSERT_TRUE(buf.ok());
  absl::StatusOr<std::string> json = EventToJson(*buf);
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_THAT(*json, HasSubstr("\"change_type\": \"ConditionAdded\""));
  EXPECT_THAT(*json, HasSubstr("\"kind\": \"TurnEnd\""));
  EXPECT_THAT(*json, HasSubstr("\"rule\": \"000.conditions.frightened\""));
}

TEST(Json, EventFromJsonIsCanonicalAndAcceptsUnionTypeLast) {
  absl::StatusOr<std::vector<uint8_t>> b = JsonToBinary(R"({
    seq: 2,
    body: { purpose: "initiative", dice: [{ faces: 20, value: 11 }] },
    body_type: "Roll",
  })",
                                                        "Event");
  ASSERT_TRUE(b.ok()) << b.status();
  absl::StatusOr<EventBuffer> buf = EventBuffer::FromOwned(*b, "json");
  ASSERT_TRUE(buf.ok());
  EXPECT_TRUE(buf->CheckCanonical("json").ok());
  ASSERT_NE(buf->event().body_as_Roll(), nullptr);
  EXPECT_EQ(buf->event().body_as_Roll()->dice()->Get(0)->value(), 11);
  EXPECT_TRUE(buf->event().body_as_Roll()->dice()->Get(0)->kept());
}

TEST(Json, UnknownFieldIsNamed) {
  absl::StatusOr<std::vector<uint8_t>> b =
      JsonToBinary("{\n  \"seq\": 1,\n  \"sequence\": 2\n}", "Event");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(b.status()), HasSubstr("unknown field: sequence"));
  EXPECT_THAT(Message(b.status()), HasSubstr("input:3:"));
  EXPECT_THAT(Message(b.status()), HasSubstr("invalid Event JSON"));
  // Nested tables are strict too.
  absl::StatusOr<fb::CommandT> c = ParseCommand(
      R"({"action": "attack", "params": [{"key": "x", "val": 1}]})");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(Message(c.status()), HasSubstr("unknown field: val"));
}

TEST(Json, MalformedJsonNamesTheLine) {
  absl::StatusOr<std::vector<uint8_t>> b =
      JsonToBinary("{\n  \"seq\": 1,\n\n  \"author\": ,\n}", "Event");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(b.status()), HasSubstr("input:4:"));
}

TEST(Json, BadValuesAreErrors) {
  for (const char* bad : {
           R"({"seq": -1})",                      // ulong out of range
           R"({"ruleset_version": 4294967296})",  // int out of range
           R"({"role": "King"})",                 // unknown enum name
           R"({"seq": "one"})",                   // wrong type
           R"({"body_type": "Roll", "body": {"dice": [{"bogus": 1}]}})",
           R"({"seq": 1} {"seq": 2})",  // trailing text
           R"({"seq": 1} table X {})",  // no schema through JSON
           "",
           "[]",
           R"({"seq": 1, "body_type": "Roll"})",  // a union type, no value
           R"({"body_type": "StateChange", "body": {"change_type": "Moved"}})",
       }) {
    absl::StatusOr<std::vector<uint8_t>> b = JsonToBinary(bad, "Event");
    EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  absl::StatusOr<std::vector<uint8_t>> b =
      JsonToBinary(absl::string_view("{\"seq\": 1}\0 junk", 16), "Event");
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(b.status()), HasSubstr("NUL byte at offset 10"));
}

TEST(Json, UnknownRootTable) {
  EXPECT_EQ(JsonToBinary("{}", "Die").status().code(),
            absl::StatusCode::kInvalidArgument);
  const uint8_t zero[8] = {};
  EXPECT_EQ(BinaryToJson(zero, sizeof(zero), "event").status().code(),
            absl::StatusCode::kInvalidArgument);
}

constexpr char kScript[] = R"({
  "roster": {
    "title": "Ambush at the ford",
    "ruleset": "d20_three_action",
    "map": { "width": 12, "height": 8,
             "cells": [ { "at": { "x": 2, "y": 3 }, "terrain": "difficult" } ] },
    "combatants": [
      { "id": "aria", "name": "Aria", "side": "party", "at": { "x": 1, "y": 1 },
        "stats": [ { "key": "level", "value": 3 }, { "key": "hp", "value": 31 } ],
        "weapons": [ { "name": "spear", "damage": "1d8", "kind": "melee",
                       "numbers": [ { "key": "bonus", "value": 7 } ] } ] },
      { "id": "gob1", "name": "Goblin", "side": "goblins", "size": 1,
        "at": { "x": 5, "y": 2 }, "tags": [ "unaware" ] }
    ]
  },
  "commands": [
    { "id": "c1", "actor": "aria", "author": "ann", "action": "attack",
      "targets": [ "gob1" ], "weapon": "spear", "dice": [ 17, 6 ] },
    { "id": "c2", "actor": "gob1", "author": "gm", "role": "GM",
      "action": "move", "path": [ { "x": 4, "y": 2 }, { "x": 3, "y": 2 } ],
      "params": [ { "key": "speed", "value": 5, "text": "stride" } ] },
    { "id": "c3", "author": "gm", "role": "GM", "action": "end_turn" }
  ]
})";

TEST(Json, ScriptParsesIntoObjects) {
  absl::StatusOr<fb::ScriptT> s = ParseScript(kScript);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_NE(s->roster, nullptr);
  EXPECT_EQ(s->roster->title, "Ambush at the ford");
  ASSERT_NE(s->roster->map, nullptr);
  EXPECT_EQ(s->roster->map->width, 12);
  ASSERT_EQ(s->roster->map->cells.size(), 1u);
  EXPECT_EQ(s->roster->map->cells[0]->at->y(), 3);
  ASSERT_EQ(s->roster->combatants.size(), 2u);
  const fb::CombatantSpecT& aria = *s->roster->combatants[0];
  EXPECT_EQ(aria.id, "aria");
  EXPECT_EQ(aria.size, 1);  // default
  ASSERT_EQ(aria.stats.size(), 2u);
  EXPECT_EQ(aria.stats[1]->key, "hp");
  EXPECT_EQ(aria.stats[1]->value, 31);
  ASSERT_EQ(aria.weapons.size(), 1u);
  EXPECT_EQ(aria.weapons[0]->reach, 5);  // default
  EXPECT_EQ(aria.weapons[0]->numbers[0]->value, 7);
  EXPECT_EQ(s->roster->combatants[1]->tags,
            std::vector<std::string>{"unaware"});
  ASSERT_EQ(s->commands.size(), 3u);
  EXPECT_EQ(s->commands[0]->role, fb::Role::Player);  // default
  EXPECT_EQ(s->commands[0]->dice, (std::vector<int32_t>{17, 6}));
  EXPECT_EQ(s->commands[0]->targets, std::vector<std::string>{"gob1"});
  EXPECT_EQ(s->commands[1]->role, fb::Role::GM);
  ASSERT_EQ(s->commands[1]->path.size(), 2u);
  EXPECT_EQ(s->commands[1]->path[1].x(), 3);
  EXPECT_EQ(s->commands[1]->params[0]->text, "stride");
  EXPECT_EQ(s->commands[2]->actor, "");
}

TEST(Json, ScriptBinaryCarriesItsIdentifier) {
  absl::StatusOr<std::vector<uint8_t>> b = JsonToBinary(kScript, "Script");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(fb::ScriptBufferHasIdentifier(b->data()));
  absl::StatusOr<std::string> json =
      BinaryToJson(b->data(), b->size(), "Script");
  ASSERT_TRUE(json.ok()) << json.status();
  absl::StatusOr<std::vector<uint8_t>> again = JsonToBinary(*json, "Script");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(Repack<fb::Script>(*again, fb::ScriptIdentifier()),
            Repack<fb::Script>(*b, fb::ScriptIdentifier()));
  // A script is not an event.
  EXPECT_EQ(BinaryToJson(b->data(), b->size(), "Event").status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(Json, RosterAndCommand) {
  absl::StatusOr<fb::RosterT> r = ParseRoster(
      R"({ title: "t", combatants: [ { id: "a", stats: [ { key: "hp", value: 9 } ] } ] })");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->combatants[0]->stats[0]->value, 9);
  absl::StatusOr<fb::CommandT> c = ParseCommand(
      R"({ "action": "ready", "text": "when it moves", "window": 3 })");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->action, "ready");
  EXPECT_EQ(c->window, 3u);
  absl::StatusOr<std::vector<uint8_t>> b =
      JsonToBinary(R"({ "action": "ready" })", "Command");
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(fb::ScriptBufferHasIdentifier(b->data()));
  absl::StatusOr<std::string> json =
      BinaryToJson(b->data(), b->size(), "Command");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(*json, "{\n  \"action\": \"ready\"\n}\n");
}

TEST(Json, StateRoundTrips) {
  absl::StatusOr<std::vector<uint8_t>> b = JsonToBinary(R"({
    "session": "s1", "ruleset": "wound_slots", "seq": 12, "round": 2,
    "active": "aria",
    "order": [ { "actor": "aria", "initiative": 17 },
               { "actor": "gob1", "initiative": 9, "delayed": true } ],
    "combatants": [ { "spec": { "id": "aria" }, "at": { "x": 1, "y": 2 },
                      "resources": [ { "key": "ap", "value": 3 } ] } ],
    "next_roll_index": 40
  })",
                                                        "State");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(fb::StateBufferHasIdentifier(b->data()));
  absl::StatusOr<std::string> json =
      BinaryToJson(b->data(), b->size(), "State");
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_THAT(*json, HasSubstr("\"delayed\": true"));
  absl::StatusOr<std::vector<uint8_t>> again = JsonToBinary(*json, "State");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(Repack<fb::State>(*again, fb::StateIdentifier()),
            Repack<fb::State>(*b, fb::StateIdentifier()));
}

TEST(Json, FlippedBytesAreCaughtNeverCrash) {
  for (const fb::EventT& event : {RollEvent(), ChangeEvent(), SessionEvent()}) {
    const std::vector<uint8_t> good = EncodeEvent(event);
    int caught = 0;
    for (size_t i = 0; i < good.size(); ++i) {
      for (uint8_t mask : {0x01, 0x04, 0x40, 0x80, 0xff}) {
        std::vector<uint8_t> bad = good;
        bad[i] ^= mask;
        absl::StatusOr<std::string> json =
            BinaryToJson(bad.data(), bad.size(), "Event");
        if (!json.ok()) {
          EXPECT_EQ(json.status().code(), absl::StatusCode::kDataLoss)
              << json.status();
          ++caught;
        }
      }
    }
    EXPECT_GT(caught, 0);
  }
  // Truncated buffers: refused, or (when only trailing padding is cut)
  // printed; never read out of bounds.
  const std::vector<uint8_t> good = EncodeEvent(RollEvent());
  int refused = 0;
  for (size_t n = 0; n < good.size(); ++n) {
    absl::StatusOr<std::string> json = BinaryToJson(good.data(), n, "Event");
    if (!json.ok()) {
      EXPECT_EQ(json.status().code(), absl::StatusCode::kDataLoss) << n;
      ++refused;
    }
    if (n < 8) {
      EXPECT_FALSE(json.ok()) << n;
    }
  }
  EXPECT_GT(refused, static_cast<int>(good.size()) / 2);
}

// A union value whose type is missing (NONE) or unknown passes the
// Verifier; the printer must not be handed it.
TEST(Json, UnionTypeWithoutValueIsDataLoss) {
  flatbuffers::FlatBufferBuilder fbb;
  fb::EventBuilder eb(fbb);
  eb.add_seq(1);
  eb.add_body_type(fb::Body::Roll);
  fbb.Finish(eb.Finish(), fb::EventIdentifier());
  EXPECT_EQ(BinaryToJson(fbb.GetBufferPointer(), fbb.GetSize(), "Event")
                .status()
                .code(),
            absl::StatusCode::kDataLoss);
}

TEST(Json, UnionWithoutKnownTypeIsDataLoss) {
  for (uint8_t type : {uint8_t{0}, uint8_t{9}, uint8_t{200}}) {
    flatbuffers::FlatBufferBuilder fbb;
    auto purpose = fbb.CreateString("attack");
    fb::RollBuilder rb(fbb);
    rb.add_purpose(purpose);
    auto roll = rb.Finish();
    fb::EventBuilder eb(fbb);
    eb.add_seq(1);
    eb.add_body(roll.Union());
    if (type != 0) eb.add_body_type(static_cast<fb::Body>(type));
    fbb.Finish(eb.Finish(), fb::EventIdentifier());
    absl::StatusOr<std::string> json =
        BinaryToJson(fbb.GetBufferPointer(), fbb.GetSize(), "Event");
    ASSERT_FALSE(json.ok()) << int{type};
    EXPECT_EQ(json.status().code(), absl::StatusCode::kDataLoss);
  }
}

TEST(Json, NonUtf8StringIsDataLoss) {
  fb::EventT e = Envelope(1);
  e.author = std::string("\xff\xfe", 2);
  const std::vector<uint8_t> b = EncodeEvent(e);
  EXPECT_EQ(BinaryToJson(b.data(), b.size(), "Event").status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(JsonToBinary("{\"author\": \"\xff\"}", "Event").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Json, ConcurrentUse) {
  const std::vector<uint8_t> canonical = EncodeEvent(ChangeEvent());
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        absl::StatusOr<std::string> json =
            BinaryToJson(canonical.data(), canonical.size(), "Event");
        if (!json.ok()) {
          ++failures[t];
          continue;
        }
        absl::StatusOr<std::vector<uint8_t>> b = JsonToBinary(*json, "Event");
        if (!b.ok() || *b != canonical) ++failures[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

TEST(JsonErrorTest, UnknownEnumValueNamesTheFieldAndTheValidValues) {
  auto c = ParseCommand(R"({"id": "x", "actor": "bo",
    "role": "gm", "action": "strike"})");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(Message(c.status()), HasSubstr("unknown enum value: gm"));
  EXPECT_THAT(Message(c.status()),
              HasSubstr("field 'role' takes one of System, GM, Player; "
                        "did you mean 'GM'?"));
  // Unquoted keys and values, and a value that matches nothing.
  auto r = ParseCommand("{id: \"x\",\n role:   Narrator }");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()),
              HasSubstr("field 'role' takes one of System, GM, Player"));
  EXPECT_THAT(Message(r.status()), ::testing::Not(HasSubstr("did you mean")));
  // In a nested table: the field of that table, the nearest value.
  auto unit = ParseRoster(R"({"map": {"width": 3, "unit": Metrs}})");
  ASSERT_FALSE(unit.ok());
  EXPECT_THAT(Message(unit.status()),
              HasSubstr("field 'unit' takes one of Feet, Yards, Metres; "
                        "did you mean 'Metres'?"));
}

TEST(JsonErrorTest, UnknownFieldNamesTheTableFieldsAndTheNearest) {
  auto top = ParseRoster(R"({"titel": "x"})");
  ASSERT_FALSE(top.ok());
  EXPECT_THAT(Message(top.status()), HasSubstr("unknown field: titel; Roster fields: "));
  EXPECT_THAT(Message(top.status()), HasSubstr("did you mean 'title'?"));
  // Nested in a vector of tables.
  auto nested = ParseCommand(R"({"id": "x", "params": [{"key": "a"}, {"key": "b", "txt": "c"}]})");
  ASSERT_FALSE(nested.ok());
  EXPECT_THAT(Message(nested.status()),
              HasSubstr("unknown field: txt; Param fields: key, value, text; "
                        "did you mean 'text'?"));
  // Through a union, by its _type key.
  auto in_union = JsonToBinary(
      R"({"seq": 1, "body_type": "Declaration", "body": {"command": {"acton": "x"}}})",
      "Event");
  ASSERT_FALSE(in_union.ok());
  EXPECT_THAT(Message(in_union.status()),
              HasSubstr("unknown field: acton; Command fields: id, actor,"));
  EXPECT_THAT(Message(in_union.status()), HasSubstr("did you mean 'action'?"));
  // Nothing near: the fields, no guess.
  auto far = ParseCommand(R"({"zzzzzzzz": 1})");
  ASSERT_FALSE(far.ok());
  EXPECT_THAT(Message(far.status()), HasSubstr("Command fields: id,"));
  EXPECT_THAT(Message(far.status()), ::testing::Not(HasSubstr("did you mean")));
}

}  // namespace
}  // namespace combat::events
