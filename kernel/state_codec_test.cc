// StateHash (cached parts, reused builders, cached specs and digests) must
// equal StateHashUncached (every part encoded afresh) whatever changed, and
// EncodeState / DecodeState must round-trip.
#include "kernel/state_codec.h"

#include <string>

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

Combatant MakeCombatant(const std::string& id, int n) {
  Combatant c;
  c.id = id;
  c.name = "Name " + id;
  c.side = n % 2 == 0 ? "heroes" : "foes";
  c.size = 1 + n % 2;
  c.at = {n, 2 * n};
  c.controller = "player" + std::to_string(n);
  c.tags = {"humanoid", "tag" + std::to_string(n)};
  c.stats = {{"ac", 15 + n}, {"hp_max", 20 + n}, {"speed", 30}, {"zero", 0}};
  Weapon w;
  w.name = "spear";
  w.damage = "1d8+3";
  w.kind = "melee";
  w.category = "martial";
  w.reach = 10;
  w.damage_type = "piercing";
  w.numbers = {{"bonus", 5 + n}, {"crit", 20}};
  c.weapons.push_back(w);
  w.name = "bow";
  w.kind = "ranged";
  w.range_increment = 60;
  w.numbers.clear();
  c.weapons.push_back(w);
  c.resources = {{"actions", 3}, {"hp", 20 + n}, {"reaction", 0}};
  Condition cond;
  cond.id = 7;
  cond.name = "frightened";
  cond.source = "dragon";
  cond.relative_to = "dragon";
  cond.level = 2;
  cond.expiry = {fb::ExpiryKind::Never, "dragon", 3};
  cond.parent = 1;
  cond.ref = 99;
  cond.note = "roared";
  cond.added_at = 12;
  c.conditions[cond.id] = cond;
  return c;
}

State MakeState() {
  State s;
  s.session = "s1";
  s.title = "A fight";
  s.ruleset = "d20_three_action";
  s.ruleset_version = 3;
  s.schema_version = 4;
  s.dice_commitment = std::vector<uint8_t>(32, 0xab);
  s.map.width = 20;
  s.map.height = 10;
  s.map.terrain[{3, 4}] = "difficult";
  s.map.terrain[{1, 1}] = "wall";
  s.seq = 42;
  s.round = 3;
  s.active = "a";
  s.order = {{"a", 18, false}, {"b", 12, true}};
  s.acted = {"b"};
  for (int i = 0; i < 4; ++i) {
    const std::string id(1, static_cast<char>('a' + i));
    s.combatants[id] = MakeCombatant(id, i);
  }
  Window w;
  w.id = 2;
  w.trigger = 40;
  w.kind = "reaction";
  w.eligible = {"a", "b"};
  w.answered = {"a"};
  w.opened_at = 41;
  s.windows[w.id] = w;
  s.next_condition_id = 8;
  s.next_window_id = 3;
  s.next_roll_index = 17;
  s.voided = {5, 9};
  s.unapplied = {6};
  return s;
}

void ExpectSame(const State& s) {
  EXPECT_EQ(events::Hex(StateHash(s)), events::Hex(StateHashUncached(s)));
}

TEST(StateHashTest, CachedEqualsUncachedAsPartsChange) {
  State s = MakeState();
  ExpectSame(s);
  ExpectSame(s);  // every cache warm
  const events::Digest first = StateHash(s);

  // A dynamic field, then a spec field, of one combatant.
  Combatant* b = s.FindMutable("b");
  b->resources["hp"] -= 5;
  ExpectSame(s);
  b = s.FindMutable("b");
  b->stats["ac"] += 1;
  ExpectSame(s);
  b = s.FindMutable("b");
  b->weapons[0].numbers["bonus"] = 0;
  ExpectSame(s);
  b = s.FindMutable("b");
  b->tags.push_back("prone-proof");
  b->conditions.clear();
  ExpectSame(s);

  // Marked changed but unchanged: the same digest.
  State t = MakeState();
  EXPECT_EQ(StateHash(t), first);
  t.FindMutable("c");
  EXPECT_EQ(StateHash(t), first);
  ExpectSame(t);

  // Two states whose combatants share ids but not specs, interleaved.
  for (int i = 0; i < 3; ++i) {
    ExpectSame(s);
    ExpectSame(t);
    s.FindMutable("a")->resources["actions"] = i;
    t.FindMutable("a")->resources["actions"] = i;
    ExpectSame(s);
    ExpectSame(t);
  }
}

TEST(StateHashTest, EmptyAndSparseStates) {
  State empty;
  ExpectSame(empty);
  State s;
  s.session = "s";
  s.combatants["x"].id = "x";
  ExpectSame(s);
  s.FindMutable("x")->weapons.push_back(Weapon());
  ExpectSame(s);
}

TEST(StateCodecTest, RoundTrip) {
  const State s = MakeState();
  const std::vector<uint8_t> bytes = EncodeState(s);
  auto back = DecodeState(bytes.data(), bytes.size());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(EncodeState(*back), bytes);
  EXPECT_EQ(StateHash(*back), StateHashUncached(s));
}

}  // namespace
}  // namespace combat::kernel
