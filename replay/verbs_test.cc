// The replay verbs of the `combat` tool end to end through RunCli, against
// a real RocksDB in a temp dir, over the toy ruleset (replay/testing/toy.h;
// this binary links its registry instead of the real rulesets).
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "gtest/gtest.h"
#include "replay/cli.h"
#include "rocksdb/db.h"

namespace combat::replay {
namespace {

struct Result {
  int code;
  std::string out;
  std::string err;
};

constexpr char kRoster[] = R"({
  "title": "toy duel", "ruleset": "toy",
  "combatants": [
    {"id": "a", "side": "x", "at": {"x": 0, "y": 0},
     "stats": [{"key": "hp", "value": 10}, {"key": "atk", "value": 2},
               {"key": "def", "value": 12}],
     "weapons": [{"name": "sword", "damage": "1d6"}]},
    {"id": "b", "side": "y", "at": {"x": 1, "y": 0},
     "stats": [{"key": "hp", "value": 10}, {"key": "atk", "value": 2},
               {"key": "def", "value": 12}],
     "weapons": [{"name": "sword", "damage": "1d6"}]}
  ]})";

constexpr char kSeed[] =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

class VerbsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = ::testing::TempDir() + "/verbs-XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    db_ = dir_ + "/db";
    Result made = Combat({"new", "--db", db_, "--session", "s1", "--roster",
                       Write("roster.json", kRoster), "--seed", kSeed, "--author", "dana"});
    ASSERT_EQ(made.code, 0) << made.err;
    Result st = Combat({"state", "--db", db_, "--session", "s1"});
    x_ = st.out.find("a's turn") != std::string::npos ? "a" : "b";
    y_ = x_ == "a" ? "b" : "a";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Result Combat(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int code = RunCli(args, out, err);
    return {code, out.str(), err.str()};
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  // Submits a command (JSON) and returns the output; fails on error.
  std::string Submit(const std::string& json, const std::string& branch = "main") {
    Result r = Combat({"submit", "--db", db_, "--session", "s1", "--branch", branch,
                    "--command", Write("cmd.json", json)});
    EXPECT_EQ(r.code, 0) << json << "\n" << r.err;
    return r.out;
  }
  std::string Attack(const std::string& id, const std::string& dice) {
    return Submit("{\"id\": \"" + id + "\", \"actor\": \"" + x_ + "\", \"author\": \"" +
                  x_ + "\", \"action\": \"attack\", \"targets\": [\"" + y_ +
                  "\"], \"dice\": [" + dice + "]}");
  }
  std::string Act(const std::string& id, const std::string& who,
                  const std::string& action, const std::string& target = "") {
    return Submit("{\"id\": \"" + id + "\", \"actor\": \"" + who + "\", \"author\": \"" +
                  who + "\", \"action\": \"" + action + "\"" +
                  (target.empty() ? "" : ", \"targets\": [\"" + target + "\"]") + "}");
  }
  // The seq of the first event of an output line starting "#N roll ..."
  // for `purpose`.
  static std::string SeqOf(const std::string& out, const std::string& what) {
    const size_t at = out.find(what);
    if (at == std::string::npos) return "";
    const size_t hash = out.rfind('#', at);
    return out.substr(hash + 1, out.find(' ', hash) - hash - 1);
  }

  // X hits Y twice (Y Down), ends the turn, finishes Y, ends the turn.
  std::string PlayFight() {
    Attack("c1", "15, 6");
    const std::string second = Attack("c2", "14, 5");
    Act("c3", x_, "end_turn");
    Act("c4", x_, "coup", y_);
    Act("c5", x_, "end_turn");
    return SeqOf(second, " attack 1d20+2");
  }

  std::string dir_, db_, x_, y_;
};

TEST_F(VerbsTest, JumpStepAndWalk) {
  PlayFight();
  Result j = Combat({"jump", "--db", db_, "--session", "s1", "--at", "20"});
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("after event #20"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("(event #20 of main: "), std::string::npos) << j.out;
  Result json = Combat({"jump", "--db", db_, "--session", "s1", "--at", "20", "--json"});
  ASSERT_EQ(json.code, 0);
  EXPECT_NE(json.out.find("\"seq\":20,"), std::string::npos);
  EXPECT_EQ(json.out.find("\n"), json.out.size() - 1) << "one line";
  EXPECT_EQ(json.out.find("snapshot"), std::string::npos) << "JSON stays JSON";
  EXPECT_EQ(Combat({"jump", "--db", db_, "--session", "s1", "--at", "9999"}).code, 2);

  Result s = Combat({"step", "--db", db_, "--session", "s1", "--round", "2", "--count", "3"});
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("round 2 begins"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("round: 1 -> 2"), std::string::npos) << s.out;
  Result back = Combat({"step", "--db", db_, "--session", "s1", "--at", "5", "--count", "-2"});
  ASSERT_EQ(back.code, 0) << back.err;
  EXPECT_LT(back.out.find("#5 "), back.out.find("#4 ")) << back.out;
  Result turn = Combat({"step", "--db", db_, "--session", "s1", "--round", "1", "--actor", x_});
  ASSERT_EQ(turn.code, 0) << turn.err;
  EXPECT_NE(turn.out.find(x_ + "'s turn begins"), std::string::npos) << turn.out;
}

TEST_F(VerbsTest, ForkBranchesAndDiff) {
  PlayFight();
  Result f = Combat({"fork", "--db", db_, "--session", "s1", "--at", "16", "--name", "alt",
                  "--author", "dana", "--reason", "rewind"});
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_NE(f.out.find("forked from main at #16"), std::string::npos) << f.out;
  Act("a1", x_, "end_turn", "");
  Result again = Combat({"fork", "--db", db_, "--session", "s1", "--at", "16", "--name", "alt",
                      "--author", "dana", "--reason", "rewind"});
  EXPECT_EQ(again.code, 1) << "an existing branch is AlreadyExists";
  Result noreason = Combat({"fork", "--db", db_, "--session", "s1", "--name", "alt2",
                         "--author", "dana"});
  EXPECT_EQ(noreason.code, 2);
  EXPECT_NE(noreason.err.find("--reason"), std::string::npos);
  Submit("{\"id\": \"a1\", \"actor\": \"" + x_ + "\", \"author\": \"" + x_ +
             "\", \"action\": \"end_turn\"}",
         "alt");
  Result b = Combat({"branches", "--db", db_, "--session", "s1"});
  ASSERT_EQ(b.code, 0);
  EXPECT_NE(b.out.find("  alt  forked from main at #16 by dana: \"rewind\""),
            std::string::npos) << b.out;
  Result d = Combat({"diff", "--db", db_, "--session", "s1", "--a", "main", "--b", "alt"});
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.out.find("shared prefix: events 1..16"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("first divergent event: main#17 | alt#18"), std::string::npos)
      << d.out << "alt's #17 is its fork record";
  Result log = Combat({"log", "--db", db_, "--session", "s1", "--branch", "alt"});
  ASSERT_EQ(log.code, 0) << log.err;
  EXPECT_NE(log.out.find("#17 change   branch alt forked from main at #16 by dana: "
                         "\"rewind\""),
            std::string::npos)
      << log.out;
  EXPECT_NE(d.out.find(y_), std::string::npos) << d.out;
  Result two = Combat({"diff", "--db", db_, "--session", "s1", "--a", "@10", "--b", "@20"});
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_NE(two.out.find("state at main#10 | main#20"), std::string::npos) << two.out;
}

TEST_F(VerbsTest, WhatIfReportsTheDeclarationsThatNoLongerApply) {
  const std::string roll = PlayFight();
  ASSERT_FALSE(roll.empty());
  Result w = Combat({"whatif", "--db", db_, "--session", "s1", "--name", "miss",
                  "--author", "dana", "--reason", "the dice fell off the table",
                  "--die", roll + "=1"});
  ASSERT_EQ(w.code, 0) << w.err;
  EXPECT_NE(w.out.find("2 later declarations no longer apply:"), std::string::npos) << w.out;
  EXPECT_NE(w.out.find(x_ + ": coup " + y_), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("not " + x_ + "'s turn"), std::string::npos) << w.out;
  Result v = Combat({"verify", "--db", db_, "--session", "s1"});
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  Result bad = Combat({"whatif", "--db", db_, "--session", "s1", "--name", "x", "--author",
                    "dana", "--reason", "r", "--die", roll + "=99"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("does not fit"), std::string::npos) << bad.err;
}

// Issue 16: `combat reveal` mid-session commits a fresh secret (the event
// names it); a branch forked before says its dice are predictable (status,
// submit) until `combat reveal --branch` there; at the end the fresh secret
// is revealed in its turn and verify checks every die.
TEST_F(VerbsTest, RevealMidSessionCommitsAFreshSecretAndWarnsOldBranches) {
  PlayFight();
  Result f = Combat({"fork", "--db", db_, "--session", "s1", "--at", "16", "--name", "alt",
                     "--author", "dana", "--reason", "before the reveal"});
  ASSERT_EQ(f.code, 0) << f.err;
  Result mid = Combat({"reveal", "--db", db_, "--session", "s1", "--author", "dana"});
  ASSERT_EQ(mid.code, 0) << mid.err;
  EXPECT_NE(mid.out.find("a fresh secret is committed for the rest of the session: "),
            std::string::npos) << mid.out;
  EXPECT_NE(mid.out.find("reveal again at the end"), std::string::npos) << mid.out;
  const std::string at = SeqOf(mid.out, " dice seed revealed");
  Result main_status = Combat({"status", "--db", db_, "--session", "s1"});
  ASSERT_EQ(main_status.code, 0) << main_status.err;
  EXPECT_EQ(main_status.out.find("warning:"), std::string::npos) << main_status.out;
  const std::string warning =
      "warning: the dice secret of this branch was revealed on main at #" + at +
      "; its seeded dice are predictable: reveal on this branch to commit a fresh one";
  Result alt_status = Combat({"status", "--db", db_, "--session", "s1", "--branch", "alt"});
  ASSERT_EQ(alt_status.code, 0) << alt_status.err;
  EXPECT_NE(alt_status.out.find(warning), std::string::npos) << alt_status.out;
  const std::string alt_turn =
      alt_status.out.find("a's turn") != std::string::npos ? "a" : "b";
  const std::string acted = Submit("{\"id\": \"alt-1\", \"actor\": \"" + alt_turn +
                                       "\", \"author\": \"" + alt_turn +
                                       "\", \"action\": \"end_turn\"}",
                                   "alt");
  EXPECT_NE(acted.find(warning), std::string::npos) << acted;
  Result own = Combat({"reveal", "--db", db_, "--session", "s1", "--branch", "alt",
                       "--author", "dana"});
  ASSERT_EQ(own.code, 0) << own.err;
  Result alt_after = Combat({"status", "--db", db_, "--session", "s1", "--branch", "alt"});
  EXPECT_EQ(alt_after.out.find("warning:"), std::string::npos) << alt_after.out;
  // End, reveal the fresh secret: verify checks every die.
  Submit(R"({"id": "end", "role": "GM", "author": "dana", "action": "gm_end",
             "text": "the fight is over"})");
  Result end = Combat({"reveal", "--db", db_, "--session", "s1", "--author", "dana"});
  ASSERT_EQ(end.code, 0) << end.err;
  EXPECT_EQ(end.out.find("a fresh secret is committed"), std::string::npos) << end.out;
  Result again = Combat({"reveal", "--db", db_, "--session", "s1", "--author", "dana"});
  EXPECT_EQ(again.code, 0) << "a retry of the end reveal is the same command: " << again.err;
  EXPECT_NE(again.out.find("already revealed"), std::string::npos) << again.out;
  Result checked = Combat({"verify", "--db", db_, "--session", "s1"});
  ASSERT_EQ(checked.code, 0) << checked.out;
  EXPECT_NE(checked.out.find("seeded dice checked against the revealed seed"),
            std::string::npos) << checked.out;
}

TEST_F(VerbsTest, VerifyRevealAndAHandEditedByte) {
  PlayFight();
  Result ok = Combat({"verify", "--db", db_});
  ASSERT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("verify s1: OK"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("seeded dice not checked"), std::string::npos) << ok.out;
  Result reveal = Combat({"reveal", "--db", db_, "--session", "s1", "--author", "dana"});
  ASSERT_EQ(reveal.code, 0) << reveal.err;
  EXPECT_NE(reveal.out.find("dice seed revealed"), std::string::npos) << reveal.out;
  Result checked = Combat({"verify", "--db", db_, "--session", "s1"});
  ASSERT_EQ(checked.code, 0) << checked.out;
  EXPECT_NE(checked.out.find("seeded dice checked against the revealed seed"),
            std::string::npos) << checked.out;

  // Hand-edit one byte of event 20's stored value: a letter of its
  // author's name, so the bytes stay well formed.
  {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), db_, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    std::string key = std::string("e\0s1\0main\0", 10);
    for (int shift = 56; shift >= 0; shift -= 8) {
      key.push_back(static_cast<char>((20ull >> shift) & 0xff));
    }
    std::string value;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key, &value).ok());
    const size_t at = value.find("toy");  // the ruleset name in the envelope
    ASSERT_NE(at, std::string::npos);
    value[at] = 'j';
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
  }
  Result bad = Combat({"verify", "--db", db_, "--session", "s1"});
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("MISMATCH"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("at event #20"), std::string::npos) << bad.out;
  EXPECT_NE(bad.err.find("event #20"), std::string::npos) << bad.err;
}

TEST_F(VerbsTest, ExplainStatsAndVoidsStopCounting) {
  Attack("c1", "15, 6");
  const std::string second = Attack("c2", "16, 3");
  const std::string decl = SeqOf(second, "declare");
  Result e = Combat({"explain", "--db", db_, "--session", "s1", "--combatant", y_,
                  "--resource", "hp"});
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find(y_ + " hp = 1"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("toy_seed.txt, \"Attack\", line 14"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("manual: physical dice entered at the table"), std::string::npos);
  // The GM voids the second attack: it stops counting everywhere.
  Submit("{\"id\": \"v1\", \"author\": \"dana\", \"role\": \"GM\", \"action\": \"gm_void\", "
         "\"text\": \"wrong target\", \"refs\": [{\"key\": \"subject\", \"seq\": " +
         decl + "}]}");
  Result st = Combat({"state", "--db", db_, "--session", "s1"});
  EXPECT_NE(st.out.find("hp=4"), std::string::npos) << st.out;
  EXPECT_NE(st.out.find("voided: #" + decl), std::string::npos) << st.out;
  Result after = Combat({"explain", "--db", db_, "--session", "s1", "--combatant", y_,
                      "--resource", "hp"});
  EXPECT_NE(after.out.find(y_ + " hp = 4"), std::string::npos) << after.out;
  EXPECT_NE(after.out.find("[VOIDED: no longer counts]"), std::string::npos) << after.out;
  Result ev = Combat({"explain", "--db", db_, "--session", "s1", "--event", decl});
  EXPECT_NE(ev.out.find("voids:"), std::string::npos) << ev.out;
  EXPECT_NE(ev.out.find("wrong target"), std::string::npos) << ev.out;
  Result stats = Combat({"stats", "--db", db_, "--session", "s1"});
  ASSERT_EQ(stats.code, 0) << stats.err;
  EXPECT_NE(stats.out.find("2 voided rolls left out"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("by " + x_), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("manual (physical dice)"), std::string::npos) << stats.out;
  Result t = Combat({"transcript", "--db", db_, "--session", "s1"});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("[VOIDED]"), std::string::npos) << t.out;
  Result log = Combat({"log", "--db", db_, "--session", "s1"});
  ASSERT_EQ(log.code, 0) << log.err;
  EXPECT_NE(log.out.find("#" + decl + " declare  " + x_ + ": attack " + y_), std::string::npos)
      << log.out;
  EXPECT_NE(log.out.find("[VOIDED]"), std::string::npos) << log.out;
  EXPECT_NE(log.out.find("VOID #" + decl + " and what it caused: wrong target"),
            std::string::npos) << log.out;
  Result v = Combat({"verify", "--db", db_, "--session", "s1"});
  EXPECT_EQ(v.code, 0) << v.out;
}

TEST_F(VerbsTest, ExportImportAndAHandEditedExport) {
  PlayFight();
  const std::string bundle = dir_ + "/s1.cmbb";
  Result ex = Combat({"export", "--db", db_, "--session", "s1", "--out", bundle,
                   "--transcript", dir_ + "/s1.txt"});
  ASSERT_EQ(ex.code, 0) << ex.err;
  EXPECT_NE(ex.out.find("exported session s1"), std::string::npos) << ex.out;
  const std::string other = dir_ + "/other";
  Result im = Combat({"import", "--db", other, "--bundle", bundle});
  ASSERT_EQ(im.code, 0) << im.out << im.err;
  EXPECT_NE(im.out.find("imported session s1"), std::string::npos) << im.out;
  Result a = Combat({"state", "--db", db_, "--session", "s1", "--json"});
  Result b = Combat({"state", "--db", other, "--session", "s1", "--json"});
  EXPECT_EQ(a.out, b.out);
  Result twice = Combat({"import", "--db", other, "--bundle", bundle});
  EXPECT_EQ(twice.code, 1) << "the session exists";
  Result t = Combat({"transcript", "--bundle", bundle});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("Transcript of session s1 \"toy duel\""), std::string::npos);

  // Hand-edit an event inside the export: the coup's target name.
  std::string bytes;
  {
    std::ifstream in(bundle, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t at = bytes.find("coup");
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 'k';
  const std::string edited = dir_ + "/edited.cmbb";
  std::ofstream(edited, std::ios::binary) << bytes;
  const std::string third = dir_ + "/third";
  Result refused = Combat({"import", "--db", third, "--bundle", edited});
  EXPECT_EQ(refused.code, 2) << refused.out;
  EXPECT_NE(refused.out.find("MISMATCH"), std::string::npos) << refused.out;
  EXPECT_NE(refused.err.find("import refused: event #"), std::string::npos) << refused.err;
  Result none = Combat({"sessions", "--db", third});
  EXPECT_EQ(none.out, "") << "nothing was written";
}

// Errors name the verb once, the names that exist and the valid values.
TEST_F(VerbsTest, ErrorsNameWhatWouldBeRight) {
  Result missing = Combat({"state", "--db", db_});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "combat state: error: flag --session is required\n");

  // The library's own "explain: " / "what-if: " context is not repeated.
  Result lib = Combat({"explain", "--db", db_, "--session", "s1"});
  EXPECT_EQ(lib.code, 2);
  EXPECT_EQ(lib.err.rfind("combat explain: error: give an event", 0), 0u) << lib.err;
  Result wi = Combat({"whatif", "--db", db_, "--session", "s1", "--name", "w", "--author",
                      "dana", "--reason", "r", "--drop", "9999"});
  EXPECT_EQ(wi.code, 2);
  EXPECT_EQ(wi.err.rfind("combat whatif: error: event 9999 is not on branch main", 0), 0u)
      << wi.err;

  Result verb = Combat({"stat", "--db", db_});
  EXPECT_EQ(verb.code, 2);
  EXPECT_EQ(verb.err.rfind("combat: unknown verb 'stat'; did you mean 'state'?\n", 0), 0u)
      << verb.err;
  size_t usages = 0;
  for (size_t at = verb.err.find("usage:"); at != std::string::npos;
       at = verb.err.find("usage:", at + 1)) {
    ++usages;
  }
  EXPECT_EQ(usages, 1u) << verb.err;

  Combat({"fork", "--db", db_, "--session", "s1", "--name", "bravo", "--author", "dana",
          "--reason", "try"});
  Combat({"new", "--db", db_, "--session", "ambush", "--roster",
          Write("roster2.json", kRoster), "--seed", kSeed});
  Result session = Combat({"state", "--db", db_, "--session", "amush"});
  EXPECT_EQ(session.code, 2);
  EXPECT_EQ(session.err,
            "combat state: error: no session 'amush'; did you mean 'ambush'? "
            "sessions: ambush, s1\n");
  Result branch = Combat({"log", "--db", db_, "--session", "s1", "--branch", "brave"});
  EXPECT_EQ(branch.code, 2);
  EXPECT_EQ(branch.err,
            "combat log: error: flag --branch: no branch 'brave'; did you mean "
            "'bravo'? branches: bravo, main (in session 's1')\n");

  Result who = Combat({"explain", "--db", db_, "--session", "s1", "--combatant", "A",
                       "--resource", "hp"});
  EXPECT_EQ(who.code, 2);
  EXPECT_NE(who.err.find("no combatant 'A'; did you mean 'a'? combatants: a, b"),
            std::string::npos)
      << who.err;
  Result what = Combat({"explain", "--db", db_, "--session", "s1", "--combatant", "a",
                        "--resource", "hpp"});
  EXPECT_EQ(what.code, 0) << what.err;
  EXPECT_NE(what.out.find("a hpp = (not set; no resource 'hpp'; did you mean 'hp'?"),
            std::string::npos)
      << what.out;

  Result point = Combat({"diff", "--db", db_, "--session", "s1", "--a", "main", "--b",
                         "BRAVO@3"});
  EXPECT_EQ(point.code, 2);
  EXPECT_NE(point.err.find("flag --b: no branch 'BRAVO'; did you mean 'bravo'?"),
            std::string::npos)
      << point.err;

  Result role = Combat({"submit", "--db", db_, "--session", "s1", "--command",
                        Write("bad.json", R"({"id": "r", "role": "gm", "action": "x"})")});
  EXPECT_EQ(role.code, 2);
  EXPECT_NE(role.err.find("unknown enum value: gm; field 'role' takes one of "
                          "System, GM, Player; did you mean 'GM'?"),
            std::string::npos)
      << role.err;
}

}  // namespace
}  // namespace combat::replay
