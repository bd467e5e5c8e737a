// End-to-end tests of the `combat` tool through RunCli, against a real
// RocksDB in a temp dir.
#include "replay/cli.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "replay/testing/cli_run.h"

namespace combat::replay {
namespace {


class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = ::testing::TempDir() + "/cli-XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    db_ = dir_ + "/db";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  CliRun Combat(std::vector<std::string> args) { return RunCombat(args); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  std::string dir_;
  std::string db_;
};

constexpr char kRoster[] = R"({
  "title": "two duellists",
  "ruleset": "d20_three_action",
  "map": {"width": 10, "height": 10},
  "combatants": [
    {"id": "aria", "name": "Aria", "side": "party", "player": "ann", "at": {"x": 1, "y": 1},
     "stats": [{"key": "level", "value": 2}, {"key": "str", "value": 3},
               {"key": "dex", "value": 2}, {"key": "ess", "value": 1},
               {"key": "hp", "value": 20}, {"key": "speed", "value": 30},
               {"key": "physical_defense", "value": 14},
               {"key": "mental_defense", "value": 12}],
     "weapons": [{"name": "spear", "damage": "1d8", "kind": "melee",
                  "category": "medium"}]},
    {"id": "grub", "name": "Grub", "side": "goblins", "at": {"x": 2, "y": 1},
     "stats": [{"key": "level", "value": 1}, {"key": "str", "value": 1},
               {"key": "dex", "value": 3}, {"key": "ess", "value": 0},
               {"key": "hp", "value": 9}, {"key": "speed", "value": 30},
               {"key": "physical_defense", "value": 12},
               {"key": "mental_defense", "value": 10}],
     "weapons": [{"name": "club", "damage": "1d6", "kind": "melee",
                  "category": "light"}]}
  ]
})";

constexpr char kSeed[] =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

TEST_F(CliTest, ListsRulesets) {
  CliRun r = Combat({"rulesets"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("d20_three_action"), std::string::npos);
  EXPECT_NE(r.out.find("energy_rounds"), std::string::npos);
}

TEST_F(CliTest, BadRosterJsonNamesTheFieldAndWritesNothing) {
  std::string bad = kRoster;
  bad.replace(bad.find("\"title\""), 7, "\"titel\"");
  CliRun r = Combat({"new", "--db", db_, "--session", "s1", "--roster",
                  Write("bad.json", bad)});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("titel"), std::string::npos) << r.err;
  // Nothing was created: the read-only `sessions` finds no database.
  CliRun list = Combat({"sessions", "--db", db_});
  EXPECT_EQ(list.code, 2);
  EXPECT_NE(list.err.find("does not exist"), std::string::npos) << list.err;
  EXPECT_EQ(list.out, "");
}

TEST_F(CliTest, MissingFlagIsBadInput) {
  CliRun r = Combat({"state", "--db", db_});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--session"), std::string::npos);
}

// A flag the verb does not take is refused, naming it, the nearest the
// verb takes and all of them, and nothing is written (was: ignored without
// a word, so `new --dice 20` made a session with no set-up dice).
TEST_F(CliTest, AnUnknownFlagIsRefusedNamingIt) {
  const std::string roster = Write("r.json", kRoster);
  CliRun r = Combat({"new", "--db", db_, "--session", "s1", "--roster", roster, "--sesion", "s2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no flag '--sesion'; did you mean '--session'?"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--setup-dice"), std::string::npos) << r.err;
  EXPECT_EQ(Combat({"sessions", "--db", db_}).code, 2);  // no database made
  // Every verb's usage entry names the flags it takes, on every line of it.
  ASSERT_EQ(Combat({"new", "--db", db_, "--session", "s1", "--roster", roster, "--signing-key", "/nonexistent"})
                .err.find("no flag"),
            std::string::npos);
  EXPECT_EQ(Combat({"step", "--db", db_, "--session", "s1", "--round", "1", "--turn", "1", "--count", "1"})
                .err.find("no flag"),
            std::string::npos);
  EXPECT_NE(Combat({"head", "--db", db_, "--session", "s1", "--against", "x"}).err.find("no flag '--against'"),
            std::string::npos);  // named only in head's description
}

// Set-up dice from `new` as from a `play` script's `setup_dice`: seed 002
// l.72 "If you are unconscious due to Stamina loss, you roll a 1d20 each
// Round until you get a 20, in which case you wake up and have 1 Stamina"
// (l.657): a creature the roster brings in at 0 Stamina rolls when Round 1
// begins, and the table may give that die. A bad list is refused naming the
// flag and the die, nothing written.
constexpr char kSleeperRoster[] = R"({
  "ruleset": "energy_rounds",
  "map": {"width": 8, "height": 8},
  "combatants": [
    {"id": "kara", "side": "party", "at": {"x": 1, "y": 1},
     "stats": [{"key": "stamina", "value": 0}]},
    {"id": "orc", "side": "orcs", "at": {"x": 5, "y": 5}}
  ]
})";

TEST_F(CliTest, NewTakesSetUpDiceAsPlayDoes) {
  const std::string roster = Write("sleeper.json", kSleeperRoster);
  // A 20 wakes her with 1 Stamina, before Round 1's budgets: 1 Energy (l.58).
  CliRun made = Combat({"new", "--db", db_, "--session", "s1", "--roster", roster,
                        "--seed", kSeed, "--setup-dice", "20"});
  ASSERT_EQ(made.code, 0) << made.err;
  CliRun state = Combat({"state", "--db", db_, "--session", "s1", "--json"});
  ASSERT_EQ(state.code, 0) << state.err;
  EXPECT_NE(made.out.find("wake_d20=20"), std::string::npos) << made.out;
  EXPECT_NE(made.out.find("manual"), std::string::npos) << made.out;
  EXPECT_EQ(state.out.find("\"Unconscious\""), std::string::npos) << state.out;

  // Not a whole number: exit 2, the flag and the die named, nothing written.
  CliRun bad = Combat({"new", "--db", db_, "--session", "s2", "--roster", roster,
                       "--setup-dice", "20,x"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--setup-dice: die 2 'x' is not a whole number"),
            std::string::npos) << bad.err;
  // A value its die cannot show, or more dice than the set-up rolls.
  CliRun off = Combat({"new", "--db", db_, "--session", "s2", "--roster", roster,
                       "--setup-dice", "21"});
  EXPECT_EQ(off.code, 2);
  EXPECT_NE(off.err.find("does not fit the d20"), std::string::npos) << off.err;
  CliRun extra = Combat({"new", "--db", db_, "--session", "s2", "--roster", roster,
                         "--setup-dice", "7,20"});
  EXPECT_EQ(extra.code, 2);
  EXPECT_NE(extra.err.find("2 supplied but only 1 were rolled"), std::string::npos)
      << extra.err;
  CliRun list = Combat({"sessions", "--db", db_});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_EQ(list.out.find("s2"), std::string::npos) << list.out;
}

TEST_F(CliTest, NewSubmitLogState) {
  CliRun made = Combat({"new", "--db", db_, "--session", "s1", "--roster",
                     Write("roster.json", kRoster), "--seed", kSeed});
  ASSERT_EQ(made.code, 0) << made.err;
  EXPECT_NE(made.out.find("session s1 started"), std::string::npos) << made.out;

  // A player (ann plays aria) may not rule: rejected (exit 1), nothing written.
  CliRun before = Combat({"state", "--db", db_, "--session", "s1", "--json"});
  ASSERT_EQ(before.code, 0) << before.err;
  CliRun denied = Combat(
      {"submit", "--db", db_, "--session", "s1", "--command",
       Write("c1.json", R"({"id": "c1", "author": "ann", "actor": "aria", "action": "gm_adjust",
          "text": "cheat", "params": [{"key": "resource", "text": "hp"},
                                      {"key": "delta", "value": 50}]})")});
  EXPECT_EQ(denied.code, 1) << denied.err;
  CliRun after = Combat({"state", "--db", db_, "--session", "s1", "--json"});
  EXPECT_EQ(after.out, before.out) << "a rejected command wrote something";

  // The GM may, with a reason; the ruling shows in the log.
  CliRun ruled = Combat(
      {"submit", "--db", db_, "--session", "s1", "--command",
       Write("c2.json", R"({"id": "c2", "author": "dana", "role": "GM",
          "actor": "grub", "action": "gm_adjust", "text": "potion",
          "params": [{"key": "resource", "text": "hp"},
                     {"key": "delta", "value": 2}]})")});
  ASSERT_EQ(ruled.code, 0) << ruled.err;
  EXPECT_NE(ruled.out.find("GM ruling"), std::string::npos) << ruled.out;
  // Submitting the same command id again applies nothing new.
  CliRun again = Combat({"submit", "--db", db_, "--session", "s1", "--command",
                      dir_ + "/c2.json"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("already applied"), std::string::npos);
  // The same id with other content is a conflict, not a silent drop.
  CliRun conflict = Combat(
      {"submit", "--db", db_, "--session", "s1", "--command",
       Write("c2b.json", R"({"id": "c2", "author": "dana", "role": "GM",
          "actor": "grub", "action": "gm_adjust", "text": "potion",
          "params": [{"key": "resource", "text": "hp"},
                     {"key": "delta", "value": 9}]})")});
  EXPECT_EQ(conflict.code, 1) << conflict.err;
  EXPECT_NE(conflict.err.find("conflict: command id 'c2' was already applied"),
            std::string::npos) << conflict.err;
  EXPECT_NE(conflict.err.find(", this one to "), std::string::npos) << conflict.err;

  CliRun log = Combat({"log", "--db", db_, "--session", "s1"});
  ASSERT_EQ(log.code, 0) << log.err;
  EXPECT_NE(log.out.find("potion"), std::string::npos);
  CliRun json = Combat({"log", "--db", db_, "--session", "s1", "--json",
                     "--from", "1", "--to", "1"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"SessionStarted\""), std::string::npos) << json.out;

  CliRun at = Combat({"state", "--db", db_, "--session", "s1", "--at", "1", "--json"});
  ASSERT_EQ(at.code, 0) << at.err;
  EXPECT_NE(at.out.find("\"seq\":1,"), std::string::npos) << at.out;
  CliRun beyond = Combat({"state", "--db", db_, "--session", "s1", "--at", "100000"});
  EXPECT_EQ(beyond.code, 2);
}

// `state`: roster names beside ids, hp as current/max, bookkeeping apart;
// the same in --json (combatant_view).
TEST_F(CliTest, StateShowsNamesMaximaAndBookkeepingApart) {
  ASSERT_EQ(Combat({"new", "--db", db_, "--session", "s1", "--roster",
                    Write("roster.json", kRoster), "--seed", kSeed})
                .code,
            0);
  CliRun st = Combat({"state", "--db", db_, "--session", "s1"});
  ASSERT_EQ(st.code, 0) << st.err;
  EXPECT_NE(st.out.find("  aria (Aria) [party, played by ann] at (1,1) "), std::string::npos) << st.out;
  EXPECT_NE(st.out.find(" hp=20/20"), std::string::npos) << st.out;
  EXPECT_NE(st.out.find(" hp=9/9"), std::string::npos) << st.out;
  const size_t books = st.out.find("\n      bookkeeping: ");
  ASSERT_NE(books, std::string::npos) << st.out;
  EXPECT_NE(st.out.find("turn_seq=", books), std::string::npos) << st.out;
  // No bookkeeping among the game values of a combatant's line.
  const size_t line = st.out.find("  aria (Aria)");
  const std::string aria = st.out.substr(line, st.out.find('\n', line) - line);
  EXPECT_EQ(aria.find("turn_seq"), std::string::npos) << aria;
  EXPECT_EQ(aria.find("sot_round"), std::string::npos) << aria;

  CliRun json = Combat({"state", "--db", db_, "--session", "s1", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"combatant_view\":[{\"id\":\"aria\",\"name\":\"Aria\""),
            std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("{\"key\":\"hp\",\"value\":20,\"max\":20}"), std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("\"bookkeeping\":[{\"key\":\"sot_round\""), std::string::npos)
      << json.out;
}

TEST_F(CliTest, UnknownActionIsBadInput) {
  ASSERT_EQ(Combat({"new", "--db", db_, "--session", "s1", "--roster",
                    Write("roster.json", kRoster), "--seed", kSeed})
                .code,
            0);
  CliRun r = Combat({"submit", "--db", db_, "--session", "s1", "--command",
                  Write("c.json", R"({"actor": "aria", "action": "teleport"})")});
  EXPECT_EQ(r.code, 2) << r.err;
}

// Who asks comes from the roster (kernel/authority.h): aria is ann's, grub
// is the GM's. A player may not command another's combatant; a command for
// a combatant the GM runs is the GM's; nothing is written on a refusal.
TEST_F(CliTest, TheRosterSaysWhoCommandsEachCombatant) {
  ASSERT_EQ(Combat({"new", "--db", db_, "--session", "s1", "--roster",
                    Write("roster.json", kRoster), "--seed", kSeed})
                .code,
            0);
  CliRun before = Combat({"head", "--db", db_, "--session", "s1"});
  CliRun denied = Combat({"submit", "--db", db_, "--session", "s1", "--command",
                          Write("c1.json", R"({"author": "ann", "actor": "grub",
                              "action": "end_turn"})")});
  EXPECT_EQ(denied.code, 1) << denied.err;
  EXPECT_NE(denied.err.find("grub is run by the GM (the roster names no player for "
                            "it), not ann; the GM commands it with role GM"),
            std::string::npos)
      << denied.err;
  EXPECT_EQ(Combat({"head", "--db", db_, "--session", "s1"}).out, before.out);

  CliRun gm = Combat({"submit", "--db", db_, "--session", "s1", "--command",
                      Write("c2.json", R"({"actor": "grub", "action": "end_turn"})")});
  ASSERT_EQ(gm.code, 0) << gm.err;
  EXPECT_NE(gm.out.find("grub: end_turn  (by gm, GM)"), std::string::npos) << gm.out;
  // The turn that starts is the system's.
  EXPECT_NE(gm.out.find("aria's turn"), std::string::npos) << gm.out;
  EXPECT_NE(gm.out.find("(by system, System)"), std::string::npos) << gm.out;

  CliRun ann = Combat({"submit", "--db", db_, "--session", "s1", "--command",
                       Write("c3.json", R"({"actor": "aria", "action": "end_turn"})")});
  ASSERT_EQ(ann.code, 0) << ann.err;
  EXPECT_NE(ann.out.find("aria: end_turn  (by ann, Player)"), std::string::npos) << ann.out;
}

TEST_F(CliTest, StatusNamesTheTurnTheVitalsAndTheLegalActs) {
  ASSERT_EQ(Combat({"new", "--db", db_, "--session", "s1", "--roster",
                    Write("roster.json", kRoster), "--seed", kSeed})
                .code,
            0);
  CliRun st = Combat({"status", "--db", db_, "--session", "s1"});
  ASSERT_EQ(st.code, 0) << st.err;
  const bool aria_first = st.out.find(", aria's turn") != std::string::npos;
  const std::string me = aria_first ? "aria" : "grub";
  const std::string foe = aria_first ? "grub" : "aria";
  EXPECT_NE(st.out.find(absl::StrCat(", ", me, "'s turn")), std::string::npos) << st.out;
  EXPECT_NE(st.out.find("  aria \"Aria\" [party] played by ann at (1,1)  hp 20/20"), std::string::npos)
      << st.out;
  EXPECT_NE(st.out.find("  left: actions=3 reactions=1"), std::string::npos) << st.out;
  CliRun mine = Combat({"status", "--db", db_, "--session", "s1", "--for", me});
  ASSERT_EQ(mine.code, 0) << mine.err;
  // The adjacent foe can be attacked; the command is ready to submit.
  const std::string attack = absl::StrCat("\n  attack -> ", foe);
  ASSERT_NE(mine.out.find(attack), std::string::npos) << mine.out;
  const size_t cmd = mine.out.find("{\"actor\": ", mine.out.find(attack));
  const std::string command = mine.out.substr(cmd, mine.out.find('\n', cmd) - cmd);
  CliRun done = Combat({"submit", "--db", db_, "--session", "s1", "--command",
                        Write("attack.json", command)});
  EXPECT_EQ(done.code, 0) << command << "\n" << done.err;
  // The other side: not its turn, and status says so.
  CliRun theirs = Combat({"status", "--db", db_, "--session", "s1", "--for", foe});
  ASSERT_EQ(theirs.code, 0) << theirs.err;
  EXPECT_NE(theirs.out.find("not now:\n"), std::string::npos) << theirs.out;
  EXPECT_NE(theirs.out.find(absl::StrCat("it is not ", foe, "'s turn")), std::string::npos)
      << theirs.out;
  // An act with a required free-text input (break's item) is not legal now
  // either: the missing item is not what stops it, the turn is.
  EXPECT_NE(theirs.out.find(absl::StrCat("\n  break: it is not ", foe, "'s turn")),
            std::string::npos)
      << theirs.out;
  EXPECT_EQ(theirs.out.find("needs: command 'break'"), std::string::npos) << theirs.out;
  // For the creature whose turn it is, break is legal and needs its item.
  EXPECT_NE(mine.out.find("needs: command 'break': field 'params.item'"), std::string::npos)
      << mine.out;
  CliRun unknown = Combat({"status", "--db", db_, "--session", "s1", "--for", "ariaa"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("did you mean 'aria'?"), std::string::npos) << unknown.err;
  CliRun json = Combat({"status", "--db", db_, "--session", "s1", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"vitals\":[{\"resource\":\"hp\",\"current\":"),
            std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find(",\"max\":20}]"), std::string::npos) << json.out;
}

// Issue 16: play checks the whole script's shape before writing anything.
TEST_F(CliTest, PlayRefusesAMalformedScriptBeforeWritingAnything) {
  const std::string script = absl::StrCat(
      "{\"roster\": ", kRoster, R"(, "commands": [
        {"id": "c1", "actor": "aria", "action": "end_turn"},
        {"id": "c2", "actor": "grub", "action": "end_turn",
         "params": [{"key": "edge", "value": 0}]}]})");
  CliRun r = Combat({"play", "--db", db_, "--script", Write("bad.json", script)});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("script command 2 (end_turn, id c2): command 'end_turn': field "
                       "'params.edge': unknown parameter"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("nothing was written"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db_)) << "no database was created";
}

TEST_F(CliTest, VerbsListsEachVerbsInput) {
  CliRun v = Combat({"verbs", "--ruleset", "d20_three_action"});
  ASSERT_EQ(v.code, 0) << v.err;
  EXPECT_NE(v.out.find("\nattack actor targets weapon [path]  an Attack"), std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("\n    params.stat: text: str | dex"), std::string::npos) << v.out;
  CliRun bad = Combat({"verbs", "--ruleset", "d20"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("the rulesets are: "), std::string::npos) << bad.err;
}

TEST_F(CliTest, PlaysTheBundledExamplesTwiceIdentically) {
  for (const char* name : {"d20_ambush", "energy_skirmish", "opposed_duel",
                           "ap_rp_ambush", "wound_slots_bell"}) {
    const std::string script = std::string("replay/examples/") + name + ".json";
    CliRun first = Combat({"play", "--db", db_, "--script", script});
    ASSERT_EQ(first.code, 0) << name << ": " << first.err;
    EXPECT_NE(first.out.find("== final state =="), std::string::npos);
    CliRun second = Combat({"play", "--db", db_, "--script", script});
    ASSERT_EQ(second.code, 0) << second.err;
    EXPECT_EQ(first.out, second.out) << "re-running a script must change nothing";
  }
}

// An act that answers a window is "not now" while none is open, with the
// reason (not a legal act that "needs" a window).
TEST_F(CliTest, StatusPutsWindowAnswersUnderNotNowWhenNoneIsOpen) {
  ASSERT_EQ(Combat({"play", "--db", db_, "--script", "replay/examples/opposed_duel.json",
                    "--session", "od"})
                .code,
            0);
  CliRun st = Combat({"status", "--db", db_, "--session", "od", "--for", "aria"});
  ASSERT_EQ(st.code, 0) << st.err;
  ASSERT_EQ(st.out.find("\nwindow #"), std::string::npos) << "no window is open: " << st.out;
  const size_t not_now = st.out.find("\nnot now:\n");
  ASSERT_NE(not_now, std::string::npos) << st.out;
  const size_t defend = st.out.find("\n  defend: command 'defend': field 'window'");
  EXPECT_NE(defend, std::string::npos) << st.out;
  EXPECT_GT(defend, not_now) << st.out;
}

}  // namespace
}  // namespace combat::replay
