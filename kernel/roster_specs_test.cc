#include "kernel/roster_specs.h"

#include "gtest/gtest.h"
#include "kernel/testing/roster.h"

namespace combat::kernel {
namespace {

// The roster as the set-up sees it (packed, as it arrives).
struct Packed {
  explicit Packed(const fb::RosterT& r) { fbb.Finish(fb::Roster::Pack(fbb, &r)); }
  const fb::Roster& roster() const {
    return *flatbuffers::GetRoot<fb::Roster>(fbb.GetBufferPointer());
  }
  flatbuffers::FlatBufferBuilder fbb;
};

TEST(RosterSpecsTest, InOrderEachChecked) {
  Packed p(testing::MakeRoster("any", {testing::Creature("b", "x", 1, 1, {}),
                                       testing::Creature("a", "y", 2, 2, {})}));
  std::vector<std::string> seen;
  auto specs = RosterSpecs(p.roster(), [&](const fb::CombatantSpecT& c) {
    seen.push_back(c.id);
    return absl::OkStatus();
  });
  ASSERT_TRUE(specs.ok()) << specs.status();
  ASSERT_EQ(specs->size(), 2u);
  EXPECT_EQ((*specs)[0].id, "b");
  EXPECT_EQ(seen, (std::vector<std::string>{"b", "a"}));
}

TEST(RosterSpecsTest, RefusesNamingTheCombatantAndField) {
  Packed empty(testing::MakeRoster("any", {}));
  EXPECT_EQ(RosterSpecs(empty.roster(), nullptr).status().message(),
            "roster field 'combatants' is empty");
  Packed twice(testing::MakeRoster("any", {testing::Creature("a", "x", 1, 1, {}),
                                           testing::Creature("a", "y", 2, 2, {})}));
  EXPECT_EQ(RosterSpecs(twice.roster(), nullptr, "000 Setup").status().message(),
            "roster combatant 'a': field 'id': given twice (000 Setup)");
  Packed off(testing::MakeRoster("any", {testing::Creature("a", "x", 20, 1, {})}, 20, 20));
  EXPECT_EQ(RosterSpecs(off.roster(), nullptr).status().message(),
            "roster combatant 'a': field 'at': off the 20 x 20 map");
  Packed bad(testing::MakeRoster("any", {testing::Creature("a", "x", 1, 1, {})}));
  auto refused = RosterSpecs(bad.roster(), [](const fb::CombatantSpecT& c) {
    return RosterError(c.id, "stats.hp", "required");
  });
  EXPECT_EQ(refused.status().message(), "roster combatant 'a': field 'stats.hp': required");
}

}  // namespace
}  // namespace combat::kernel
