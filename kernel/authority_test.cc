#include "kernel/authority.h"

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

State Table() {
  State s;
  s.schema_version = 7;
  s.combatants["aria"].id = "aria";
  s.combatants["aria"].player = "ann";
  s.combatants["bo"].id = "bo";
  s.combatants["bo"].player = "ben";
  s.combatants["ghoul"].id = "ghoul";  // the GM runs it
  return s;
}

fb::CommandT Cmd(const std::string& actor, const std::string& action,
                 const std::string& author = "", fb::Role role = fb::Role::Player) {
  fb::CommandT c;
  c.actor = actor;
  c.action = action;
  c.author = author;
  c.role = role;
  return c;
}

TEST(AuthorityTest, APlayersCombatantIsCommandedByItsPlayer) {
  const State s = Table();
  fb::CommandT c = Cmd("aria", "attack");
  AssignAuthority(s, c);
  EXPECT_EQ(c.author, "ann");
  EXPECT_EQ(c.role, fb::Role::Player);
  EXPECT_TRUE(CheckAuthority(s, c).ok());
}

TEST(AuthorityTest, ACombatantTheGmRunsIsTheGms) {
  const State s = Table();
  fb::CommandT c = Cmd("ghoul", "attack");
  AssignAuthority(s, c);
  EXPECT_EQ(c.author, "gm");
  EXPECT_EQ(c.role, fb::Role::GM);
  EXPECT_TRUE(CheckAuthority(s, c).ok());
  // Named by someone who plays nobody: the GM, under that name.
  fb::CommandT d = Cmd("ghoul", "attack", "dana");
  AssignAuthority(s, d);
  EXPECT_EQ(d.author, "dana");
  EXPECT_EQ(d.role, fb::Role::GM);
}

TEST(AuthorityTest, CommandsForNoCombatantAndGmVerbsAreTheGms) {
  const State s = Table();
  fb::CommandT c = Cmd("", "end_round");
  AssignAuthority(s, c);
  EXPECT_EQ(c.role, fb::Role::GM);
  EXPECT_EQ(c.author, "gm");
  fb::CommandT g = Cmd("aria", "gm_adjust");
  AssignAuthority(s, g);
  EXPECT_EQ(g.role, fb::Role::GM);
}

TEST(AuthorityTest, APlayerMayNotCommandAnotherPlayersOrTheGmsCombatant) {
  const State s = Table();
  fb::CommandT c = Cmd("bo", "attack", "ann");
  AssignAuthority(s, c);
  EXPECT_EQ(c.role, fb::Role::Player);  // left for the check to refuse
  absl::Status st = CheckAuthority(s, c);
  EXPECT_EQ(st.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(st.message().find("bo is played by ben, not ann"), std::string::npos) << st;

  fb::CommandT g = Cmd("ghoul", "attack", "ann");
  AssignAuthority(s, g);
  st = CheckAuthority(s, g);
  EXPECT_EQ(st.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(st.message().find("ghoul is run by the GM"), std::string::npos) << st;
}

TEST(AuthorityTest, ThePlayerRoleCannotRuleNorActForNobody) {
  const State s = Table();
  absl::Status st = CheckAuthority(s, Cmd("aria", "gm_adjust", "ann"));
  EXPECT_EQ(st.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(st.message().find("is the GM's"), std::string::npos) << st;
  st = CheckAuthority(s, Cmd("", "end_round", "ann"));
  EXPECT_EQ(st.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(st.message().find("field 'actor'"), std::string::npos) << st;
}

TEST(AuthorityTest, SystemAndNamelessCommandsAreRefused) {
  const State s = Table();
  EXPECT_EQ(CheckAuthority(s, Cmd("aria", "attack", "ann", fb::Role::System)).code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(CheckAuthority(s, Cmd("ghoul", "attack", "", fb::Role::GM)).code(),
            absl::StatusCode::kPermissionDenied);
  // The GM may command anyone.
  EXPECT_TRUE(CheckAuthority(s, Cmd("aria", "attack", "dana", fb::Role::GM)).ok());
}

}  // namespace
}  // namespace combat::kernel
