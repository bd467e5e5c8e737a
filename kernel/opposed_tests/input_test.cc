// Every verb refuses what it does not take (input.cc): an unknown
// parameter, a parameter of the wrong type, a targets/weapon/path/window
// it does not read, each naming the field; nothing is written.
#include <string>

#include "gtest/gtest.h"
#include "kernel/opposed_tests/test_util.h"

namespace combat::kernel::opposed::testutil {
namespace {

fb::RosterT Two() {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium")});
  return Roster({std::move(a), std::move(d)});
}

void ExpectRefused(Table& t, const fb::CommandT& c, const std::string& field) {
  const size_t before = t.log().size();
  auto ev = t.Submit(c);
  ASSERT_FALSE(ev.ok()) << c.action << " accepted";
  EXPECT_EQ(ev.status().code(), absl::StatusCode::kInvalidArgument) << ev.status();
  EXPECT_NE(std::string(ev.status().message()).find(field), std::string::npos)
      << ev.status().message() << " should name " << field;
  EXPECT_EQ(t.log().size(), before) << "nothing written";
}

TEST(Input, UnknownParamsWrongTypesAndUnreadFieldsAreRefused) {
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  auto unknown = s;
  With(unknown, "edge", 1);
  ExpectRefused(t, unknown, "params[edge]");
  auto number = s;
  With(number, "attribute", 1);
  ExpectRefused(t, number, "params.attribute");
  auto path = s;
  path.path.emplace_back(4, 5);
  ExpectRefused(t, path, "path");
  auto free = Cmd("a", "manipulate");
  WithText(free, "free", "yes");
  ExpectRefused(t, free, "params.free");
  auto two = Cmd("a", "manipulate");
  With(two, "free", 2);
  ExpectRefused(t, two, "params.free");
  ExpectRefused(t, Cmd("a", "disengage", {"d"}), "targets");
  auto w = Cmd("a", "end_turn");
  w.window = 3;
  ExpectRefused(t, w, "window");
  auto save = Cmd("a", "save_turn");
  With(save, "after", 1);
  ExpectRefused(t, save, "params.after");
  // The defense: text params.
  ASSERT_TRUE(t.Submit(s).ok());
  auto def = Cmd("d", "defend");
  def.window = t.state().windows.begin()->first;
  With(def, "defense", 1);
  ExpectRefused(t, def, "params.defense");
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
