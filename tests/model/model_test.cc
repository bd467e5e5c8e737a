// Model-based stress: random sequences of appends (fresh, stale, resent),
// forks (valid and not), reopens, and crashes (a simulated power loss, at a
// quiet moment or in the middle of an append), run against the store and
// against a plain in-memory model (std::map of branches, each a vector of
// events and its command ranges). After every operation the answers must
// agree, and every few operations the whole database is compared with the
// model: sessions, branches (parent, fork seq), heads, every event of every
// branch through the full verifier, and every command id through
// FindCommand (a branch sees its own commands and its ancestors' commands
// that lie entirely within the shared prefix).
//
// What-if runs and snapshots do not exist yet: they are not modelled.
// COMBAT_LONG=1 runs far more operations and seeds.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernel/session.h"
#include "store/event_log.h"
#include "tests/testing/budget.h"
#include "tests/testing/fault_fs.h"
#include "tests/testing/gen.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/verify.h"

namespace combat::testing {
namespace {

struct Range {
  uint64_t first = 0, last = 0;
  bool operator==(const Range& o) const { return first == o.first && last == o.last; }
};

struct MBranch {
  std::string parent;
  uint64_t fork_seq = 0;
  std::vector<events::EventBuffer> events;   // the whole history
  std::map<std::string, Range> own;          // commands appended here
  kernel::State state;                       // after events
  std::map<std::string, std::vector<events::EventBuffer>> sent;  // by id
};

struct MSession {
  std::map<std::string, MBranch> branches;
};

class Model {
 public:
  std::map<std::string, MSession> sessions;

  // The command `id` as `branch` of `s` sees it, or nullopt.
  std::optional<Range> Command(const std::string& s, const std::string& branch,
                               const std::string& id) const {
    const MSession& ms = sessions.at(s);
    std::string b = branch;
    uint64_t limit = UINT64_MAX;
    while (true) {
      const MBranch& mb = ms.branches.at(b);
      auto it = mb.own.find(id);
      if (it != mb.own.end() && it->second.last <= limit) return it->second;
      if (mb.parent.empty()) return std::nullopt;
      limit = std::min(limit, mb.fork_seq);
      b = mb.parent;
    }
  }
};

class ModelTest : public ::testing::TestWithParam<uint64_t> {
 protected:
  void Open() {
    auto log = store::EventLog::Open(dir_.db(), options_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
  }

  // Every answer of the store against the model.
  void CheckAll() {
    auto sessions = log_->ListSessions();
    ASSERT_TRUE(sessions.ok()) << sessions.status();
    std::vector<std::string> want;
    for (const auto& [s, ms] : model_.sessions) want.push_back(s);
    ASSERT_EQ(*sessions, want);
    for (const auto& [s, ms] : model_.sessions) {
      auto branches = log_->ListBranches(s);
      ASSERT_TRUE(branches.ok()) << branches.status();
      ASSERT_EQ(branches->size(), ms.branches.size());
      for (const store::BranchMeta& meta : *branches) {
        auto it = ms.branches.find(meta.branch);
        ASSERT_NE(it, ms.branches.end()) << meta.branch;
        EXPECT_EQ(meta.parent, it->second.parent);
        EXPECT_EQ(meta.fork_seq, it->second.fork_seq);
      }
      for (const auto& [b, mb] : ms.branches) {
        Layer layer = Layer::kNone;
        auto v = VerifyBranch(*log_, s, b, &layer);
        ASSERT_TRUE(v.ok()) << s << "/" << b << " " << LayerName(layer) << ": " << v.status();
        ASSERT_EQ(v->events.size(), mb.events.size()) << s << "/" << b;
        for (size_t i = 0; i < mb.events.size(); ++i) {
          ASSERT_EQ(v->events[i].bytes(), mb.events[i].bytes()) << s << "/" << b << " seq " << i + 1;
        }
        // Every command id known anywhere in the session.
        for (const auto& [b2, mb2] : ms.branches) {
          for (const auto& [id, range] : mb2.own) {
            auto found = log_->FindCommand(s, b, id);
            ASSERT_TRUE(found.ok()) << found.status();
            std::optional<Range> expect = model_.Command(s, b, id);
            ASSERT_EQ(found->has_value(), expect.has_value()) << s << "/" << b << " " << id;
            if (expect) {
              EXPECT_EQ((*found)->first_seq, expect->first);
              EXPECT_EQ((*found)->last_seq, expect->last);
            }
          }
        }
        ++full_checks_;
      }
    }
  }

  TempDir dir_{"model"};
  std::shared_ptr<FaultFs> fs_ = FaultFs::Create(GetParam());
  std::unique_ptr<rocksdb::Env> env_ = NewEnv(fs_);
  store::Options options_;
  std::unique_ptr<store::EventLog> log_;
  Model model_;
  int full_checks_ = 0;
};

TEST_P(ModelTest, StoreAgreesWithTheModel) {
  options_.env = env_.get();
  options_.sync = true;
  Rng rng(GetParam());
  const int ops = Budget(300, 20000);
  std::map<std::string, int> counts;
  Open();
  int next_branch = 0;

  for (int op = 0; op < ops; ++op) {
    SCOPED_TRACE(absl::StrCat("op ", op));
    const uint64_t dice = rng.Below(100);
    // A session, now and then (two at most).
    if (model_.sessions.empty() || (dice < 2 && model_.sessions.size() < 2)) {
      const std::string s = model_.sessions.empty() ? "s1" : "s2";
      CommandGen gen(s, GetParam());
      ASSERT_TRUE(log_->CreateSession(gen.Meta(), gen.Secret()).ok());
      EXPECT_TRUE(absl::IsAlreadyExists(log_->CreateSession(gen.Meta(), gen.Secret())));
      model_.sessions[s].branches["main"] = MBranch{};
      ++counts["create session"];
      continue;
    }
    // Pick a session and a branch.
    auto sit = model_.sessions.begin();
    std::advance(sit, rng.Below(model_.sessions.size()));
    const std::string s = sit->first;
    MSession& ms = sit->second;
    auto bit = ms.branches.begin();
    std::advance(bit, rng.Below(ms.branches.size()));
    const std::string b = bit->first;
    MBranch& mb = bit->second;
    CommandGen gen(s, GetParam());

    if (dice < 55) {
      // A fresh command at the head.
      const std::string id = absl::StrCat(b, "-", mb.events.size() + 1);
      events::Digest prev = mb.events.empty() ? events::Digest{} : mb.events.back().hash();
      auto evs = gen.Next(mb.state, b, prev, id);
      ASSERT_TRUE(evs.ok()) << evs.status();
      const bool crash = rng.OneIn(12);
      if (crash) fs_->CrashAfterOps(static_cast<int64_t>(rng.Below(3)));
      auto r = log_->Append(s, b, mb.state.seq, id, *evs);
      if (crash) {
        // The power goes during (or right after) the append.
        fs_->CrashNow();
        log_.reset();
        fs_->PowerLossAndRestart(PowerLoss::kKeepRandomPrefix, rng.OneIn(2));
        Open();
        ++counts["crash during append"];
        auto found = log_->FindCommand(s, b, id);
        ASSERT_TRUE(found.ok()) << found.status();
        if (r.ok()) {
          ASSERT_TRUE(found->has_value()) << "acknowledged " << id << " lost";
        }
        if (!found->has_value()) {
          // Not applied: nothing else changed either.
          auto head = log_->GetHead(s, b);
          ASSERT_TRUE(head.ok());
          ASSERT_EQ(head->seq, mb.events.size());
          continue;
        }
      } else {
        ASSERT_TRUE(r.ok()) << r.status();
        ASSERT_FALSE(r->duplicate);
        ASSERT_EQ(r->first_seq, mb.state.seq + 1);
      }
      mb.own[id] = {mb.state.seq + 1, mb.state.seq + evs->size()};
      for (const auto& e : *evs) {
        ASSERT_TRUE(kernel::FoldOne(e, mb.state, kernel::CheckHashes::kYes).ok());
        mb.events.push_back(e);
      }
      mb.sent[id] = *evs;
      ++counts["append"];
    } else if (dice < 62) {
      // A stale writer: Aborted, nothing written.
      if (mb.events.empty()) continue;
      const uint64_t stale = rng.Below(mb.events.size());
      const std::string id = absl::StrCat(b, "-stale-", op);
      auto r = log_->Append(s, b, stale, id, {mb.events[stale]});
      ASSERT_TRUE(absl::IsAborted(r.status())) << r.status();
      ++counts["stale append (Aborted)"];
    } else if (dice < 70) {
      // A resent command (its original events and expected seq).
      if (mb.sent.empty()) continue;
      auto it = mb.sent.begin();
      std::advance(it, rng.Below(mb.sent.size()));
      const Range range = mb.own.at(it->first);
      auto r = log_->Append(s, b, range.first - 1, it->first, it->second);
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_TRUE(r->duplicate);
      EXPECT_EQ(r->first_seq, range.first);
      EXPECT_EQ(r->last_seq, range.last);
      ++counts["resent command (duplicate)"];
    } else if (dice < 80) {
      // A fork (sometimes an invalid one).
      const uint64_t head = mb.events.size();
      const int kind = static_cast<int>(rng.Below(10));
      if (kind == 0) {
        EXPECT_TRUE(absl::IsOutOfRange(log_->Fork(s, b, head + 1, "nope", "gm", "")));
        EXPECT_TRUE(absl::IsOutOfRange(log_->Fork(s, b, 0, "nope", "gm", "")));
        ++counts["invalid fork"];
        continue;
      }
      if (kind == 1 && ms.branches.size() > 1) {
        EXPECT_TRUE(absl::IsAlreadyExists(log_->Fork(s, b, 1, "main", "gm", "")) ||
                    head == 0);
        ++counts["invalid fork"];
        continue;
      }
      if (head == 0) continue;
      const uint64_t at = 1 + rng.Below(head);
      const std::string name = absl::StrCat("b", ++next_branch);
      ASSERT_TRUE(log_->Fork(s, b, at, name, "gm", "what if").ok());
      MBranch nb;
      nb.parent = b;
      nb.fork_seq = at;
      for (uint64_t i = 0; i < at; ++i) {
        ASSERT_TRUE(kernel::FoldOne(mb.events[i], nb.state, kernel::CheckHashes::kYes).ok());
        nb.events.push_back(mb.events[i]);
      }
      ms.branches[name] = std::move(nb);
      ++counts["fork"];
    } else if (dice < 90) {
      log_.reset();
      Open();
      ++counts["reopen"];
    } else if (dice < 97) {
      // Power loss at a quiet moment: everything acknowledged (synced)
      // must be there.
      fs_->CrashNow();
      log_.reset();
      fs_->PowerLossAndRestart(rng.OneIn(2) ? PowerLoss::kDropUnsynced
                                            : PowerLoss::kKeepRandomPrefix,
                               rng.OneIn(2));
      Open();
      ++counts["power loss"];
    } else {
      CheckAll();
      continue;
    }
    // After every operation: the touched branch's head.
    auto head = log_->GetHead(s, b);
    ASSERT_TRUE(head.ok()) << head.status();
    ASSERT_EQ(head->seq, mb.events.size());
    if (!mb.events.empty()) {
      ASSERT_EQ(head->hash, mb.events.back().hash());
    }
  }
  CheckAll();
  std::string line = absl::StrCat("model [seed ", GetParam(), "]: ", ops, " operations:");
  for (const auto& [what, n] : counts) absl::StrAppend(&line, " ", n, " ", what, ";");
  uint64_t events = 0, branches = 0;
  for (const auto& [s, ms] : model_.sessions) {
    branches += ms.branches.size();
    for (const auto& [b, mb] : ms.branches) events += mb.events.size() - mb.fork_seq;
  }
  absl::StrAppend(&line, " ", full_checks_, " full branch comparisons; final: ",
                  model_.sessions.size(), " sessions, ", branches, " branches, ", events,
                  " stored events");
  std::printf("%s\n", line.c_str());
  RecordProperty("summary", line);
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelTest, ::testing::Values(1, 2, 3));

}  // namespace
}  // namespace combat::testing
