// How the `combat` verbs open the database: read-only verbs never create
// or change anything; a missing or non-database directory (or one that
// lost its CURRENT file) is refused naming it; "in use" has exit code 3.
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "events/signature.h"
#include "replay/cli.h"
#include "replay/testing/cli_run.h"
#include "store/event_log.h"
#include "tests/testing/temp_dir.h"

namespace combat::replay {
namespace {

namespace fs = std::filesystem;


// Every file under `dir` with its size and modification time.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> Listing(
    const std::string& dir) {
  std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) {
      out[e.path().string()] = {e.file_size(), e.last_write_time()};
    }
  }
  return out;
}

const std::vector<std::vector<std::string>> kReadOnlyVerbs = {
    {"sessions"},
    {"log", "--session", "s1"},
    {"state", "--session", "s1"},
    {"jump", "--session", "s1", "--at", "1"},
    {"step", "--session", "s1", "--at", "1"},
    {"branches", "--session", "s1"},
    {"verify"},
    {"explain", "--session", "s1", "--event", "1"},
    {"stats", "--session", "s1"},
    {"transcript", "--session", "s1"},
    {"head", "--session", "s1"},
    {"head", "--session", "s1", "--json"},
};

class CliOpenTest : public ::testing::Test {
 protected:
  CliRun Combat(const std::string& db, std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--db", db});
    return RunCombat(args);
  }
  std::string Played() {
    const std::string db = dir_ + "/played";
    CliRun r = Combat(db, {"play", "--script", "replay/examples/d20_ambush.json",
                        "--session", "s1"});
    EXPECT_EQ(r.code, 0) << r.err;
    return db;
  }
  testing::TempDir tmp_{"cliopen"};
  const std::string dir_ = tmp_.path();
};

TEST_F(CliOpenTest, ReadOnlyVerbsOnAMissingDirectoryCreateNothing) {
  const std::string db = dir_ + "/absent";
  for (const auto& verb : kReadOnlyVerbs) {
    CliRun r = Combat(db, verb);
    EXPECT_EQ(r.code, 2) << verb[0];
    EXPECT_NE(r.err.find("database " + db + " does not exist"), std::string::npos)
        << verb[0] << ": " << r.err;
    EXPECT_FALSE(fs::exists(db)) << verb[0] << " created " << db;
  }
}

TEST_F(CliOpenTest, ADirectoryThatIsNotADatabaseIsRefusedAndLeftAlone) {
  const std::string db = dir_ + "/notes";
  fs::create_directory(db);
  std::ofstream(db + "/todo.txt") << "not a database";
  const auto before = Listing(db);
  for (const auto& verb : kReadOnlyVerbs) {
    CliRun r = Combat(db, verb);
    EXPECT_EQ(r.code, 2) << verb[0];
    EXPECT_NE(r.err.find("is not a database"), std::string::npos) << r.err;
  }
  // Not even the creating verbs build a database over other files.
  CliRun made = Combat(db, {"play", "--script", "replay/examples/d20_ambush.json"});
  EXPECT_EQ(made.code, 2);
  EXPECT_NE(made.err.find("directory " + db + " is not a database"),
            std::string::npos) << made.err;
  EXPECT_EQ(Listing(db), before);
}

TEST_F(CliOpenTest, ALostCurrentFileIsRefusedNeverRecreated) {
  const std::string db = Played();
  fs::remove(db + "/CURRENT");
  const auto before = Listing(db);
  for (const auto& verb : kReadOnlyVerbs) {
    CliRun r = Combat(db, verb);
    EXPECT_EQ(r.code, 2) << verb[0];
    EXPECT_NE(r.err.find("database " + db + " has lost its CURRENT file"),
              std::string::npos) << verb[0] << ": " << r.err;
  }
  CliRun again = Combat(db, {"play", "--script", "replay/examples/d20_ambush.json"});
  EXPECT_EQ(again.code, 2) << again.err;
  EXPECT_EQ(Listing(db), before) << "a verb changed the damaged database";
}

TEST_F(CliOpenTest, ReadOnlyVerbsChangeNoFile) {
  const std::string db = Played();
  const auto before = Listing(db);
  for (const auto& verb : kReadOnlyVerbs) {
    CliRun r = Combat(db, verb);
    EXPECT_EQ(r.code, 0) << verb[0] << ": " << r.err;
  }
  EXPECT_EQ(Listing(db), before);
}

TEST_F(CliOpenTest, WritingVerbsOtherThanCreatorsNeedAnExistingDatabase) {
  const std::string db = dir_ + "/absent";
  CliRun r = Combat(db, {"fork", "--session", "s1", "--name", "alt", "--author",
                      "a", "--reason", "r"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(db));
}

TEST_F(CliOpenTest, InUseHasItsOwnExitCode) {
  const std::string db = Played();
  auto held = store::EventLog::Open(db);  // holds RocksDB's LOCK
  ASSERT_TRUE(held.ok()) << held.status();
  CliRun r = Combat(db, {"fork", "--session", "s1", "--name", "alt", "--author",
                      "a", "--reason", "r"});
  EXPECT_EQ(r.code, kExitInUse) << r.err;
  EXPECT_EQ(kExitInUse, 3);
  EXPECT_NE(r.err.find("combat fork: in use: database " + db + " is in use"),
            std::string::npos) << r.err;
  // Reading needs no lock.
  CliRun read = Combat(db, {"sessions"});
  EXPECT_EQ(read.code, 0) << read.err;
}

// combat head prints signed heads; verify --against accepts them and names
// a head the log does not extend.
TEST_F(CliOpenTest, VerifyAgainstAPublishedHead) {
  const std::string db = Played();
  CliRun head = Combat(db, {"head", "--session", "s1"});
  ASSERT_EQ(head.code, 0) << head.err;
  ASSERT_EQ(head.out.rfind("head s1 main ", 0), 0u) << head.out;
  const std::string kept = dir_ + "/heads.txt";
  std::ofstream(kept) << head.out;
  CliRun ok = Combat(db, {"verify", "--session", "s1", "--against", kept});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  // Another hash for the same seq: the log does not extend it, and its
  // signature no longer matches.
  std::string other = head.out;
  const size_t hash_at = other.find(' ', other.find(' ', other.find(' ', 5) + 1) + 1) + 1;
  other[hash_at] = other[hash_at] == '0' ? '1' : '0';
  std::ofstream(kept) << other;
  CliRun bad = Combat(db, {"verify", "--session", "s1", "--against", kept});
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("anchor"), std::string::npos) << bad.out;
}

// The GM's own key signs the heads: SessionStarted chains its public key,
// and verify --against checks the heads it signed. A malformed key file is
// refused naming the flag, with nothing created.
TEST_F(CliOpenTest, ASessionSignedWithTheGmsOwnKey) {
  const std::string key_file = dir_ + "/gm.key";
  const std::string hex(64, 'a');
  std::ofstream(key_file) << hex << "\n";
  const std::string bad_file = dir_ + "/bad.key";
  std::ofstream(bad_file) << "not a key\n";
  const std::string none = dir_ + "/none";
  CliRun bad = Combat(none, {"play", "--script", "replay/examples/d20_ambush.json",
                             "--session", "s1", "--signing-key", bad_file});
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("--signing-key"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(none));

  const std::string db = dir_ + "/signed";
  CliRun played = Combat(db, {"play", "--script", "replay/examples/d20_ambush.json",
                              "--session", "s1", "--signing-key", key_file});
  ASSERT_EQ(played.code, 0) << played.err;
  {
    store::Options ro;
    ro.access = store::Options::Access::kReadOnly;
    auto log = store::EventLog::Open(db, ro);
    ASSERT_TRUE(log.ok()) << log.status();
    auto first = (*log)->Read("s1", "main", 1, 1);
    ASSERT_TRUE(first.ok() && first->size() == 1u);
    const auto* started =
        first->front().event().body_as_StateChange()->change_as_SessionStarted();
    ASSERT_NE(started, nullptr);
    auto want = events::PublicKeyOf(std::vector<uint8_t>(32, 0xaa));
    ASSERT_TRUE(want.ok());
    ASSERT_NE(started->signing_key(), nullptr);
    EXPECT_EQ(std::vector<uint8_t>(started->signing_key()->begin(),
                                   started->signing_key()->end()),
              *want);
  }
  CliRun head = Combat(db, {"head", "--session", "s1"});
  ASSERT_EQ(head.code, 0) << head.err;
  const std::string kept = dir_ + "/signed_heads.txt";
  std::ofstream(kept) << head.out;
  CliRun ok = Combat(db, {"verify", "--session", "s1", "--against", kept});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;

  // Exported (the key never is) and imported elsewhere: with the key, heads
  // published there are signed too; another key is refused, nothing written.
  const std::string bundle = dir_ + "/s1.cmbb";
  CliRun exported = Combat(db, {"export", "--session", "s1", "--out", bundle});
  ASSERT_EQ(exported.code, 0) << exported.err;
  const std::string other_key = dir_ + "/other.key";
  std::ofstream(other_key) << std::string(64, 'b') << "\n";
  const std::string wrong = dir_ + "/wrong";
  CliRun refused = Combat(wrong, {"import", "--bundle", bundle, "--signing-key", other_key});
  EXPECT_EQ(refused.code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("signing key is not the session's"), std::string::npos)
      << refused.err;
  CliRun none_there = Combat(wrong, {"sessions"});
  EXPECT_EQ(none_there.out.find("s1"), std::string::npos) << none_there.out;
  const std::string elsewhere = dir_ + "/elsewhere";
  CliRun imported = Combat(elsewhere, {"import", "--bundle", bundle, "--signing-key", key_file});
  ASSERT_EQ(imported.code, 0) << imported.out << imported.err;
  CliRun there = Combat(elsewhere, {"head", "--session", "s1"});
  ASSERT_EQ(there.code, 0) << there.err;
  EXPECT_EQ(there.out, head.out) << "the same heads, signed with the same key";
}

}  // namespace
}  // namespace combat::replay
