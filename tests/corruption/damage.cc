#include "tests/corruption/damage.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/session.h"
#include "rocksdb/db.h"
#include "store/event_log.h"

namespace combat::testing {
namespace {

std::string Be64(uint64_t v) {
  std::string out;
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((v >> shift) & 0xff));
  }
  return out;
}

std::string Key(char kind, std::initializer_list<std::string> parts) {
  std::string key(1, kind);
  for (const std::string& p : parts) {
    key.push_back('\0');
    key += p;
  }
  return key;
}

absl::StatusOr<std::unique_ptr<rocksdb::DB>> RawOpen(const std::string& db) {
  rocksdb::Options options;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, db, &raw);
  if (!s.ok()) return absl::InternalError(s.ToString());
  return std::unique_ptr<rocksdb::DB>(raw);
}

// Appends `n` commands to `branch` (from its head), recording them.
absl::Status AppendCommands(store::EventLog& log, const CommandGen& gen,
                            const std::string& branch, int n,
                            Original* orig) {
  Layer layer;
  ASSIGN_OR_RETURN(Verified v, VerifyBranch(log, "s1", branch, &layer));
  kernel::State state = std::move(v.state);
  events::Digest prev = v.events.empty() ? events::Digest{} : v.events.back().hash();
  for (int i = 0; i < n; ++i) {
    const std::string id = absl::StrCat(branch == "main" ? "m" : "a", state.seq + 1);
    ASSIGN_OR_RETURN(std::vector<events::EventBuffer> evs,
                     gen.Next(state, branch, prev, id));
    ASSIGN_OR_RETURN(store::AppendResult r,
                     log.Append("s1", branch, state.seq, id, evs));
    orig->commands[branch].push_back({id, {r.first_seq, r.last_seq}});
    for (const auto& e : evs) {
      RETURN_IF_ERROR(kernel::FoldOne(e, state, kernel::CheckHashes::kYes));
      prev = e.hash();
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Original> BuildBase(const std::string& db, int commands,
                                   bool flush) {
  Original orig;
  CommandGen gen("s1", 4242);
  orig.secret = gen.Secret();
  {
    ASSIGN_OR_RETURN(std::unique_ptr<store::EventLog> log,
                     store::EventLog::Open(db));
    RETURN_IF_ERROR(log->CreateSession(gen.Meta(), gen.Secret()));
    RETURN_IF_ERROR(AppendCommands(*log, gen, "main", commands / 2, &orig));
    ASSIGN_OR_RETURN(store::Head head, log->GetHead("s1", "main"));
    orig.fork_seq = head.seq;
    RETURN_IF_ERROR(log->Fork("s1", "main", head.seq, "alt", "gm", "what if"));
    RETURN_IF_ERROR(AppendCommands(*log, gen, "alt", 3, &orig));
    // Main's commands after the fork point are not in alt's history.
    RETURN_IF_ERROR(AppendCommands(*log, gen, "main", commands - commands / 2, &orig));
    for (const std::string branch : {"main", "alt"}) {
      ASSIGN_OR_RETURN(std::vector<events::EventBuffer> evs, log->Read("s1", branch));
      for (const auto& e : evs) orig.events[branch].push_back(e.bytes());
    }
  }
  if (flush) {
    ASSIGN_OR_RETURN(std::unique_ptr<store::EventLog> log,
                     store::EventLog::Open(db));
  }
  return orig;
}

void CopyDir(const std::string& from, const std::string& to) {
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
}

std::vector<std::string> FilesEndingWith(const std::string& db,
                                         const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(db)) {
    const std::string p = entry.path().string();
    if (absl::EndsWith(p, suffix)) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

std::vector<std::pair<size_t, size_t>> WalRecords(const std::string& wal) {
  constexpr size_t kBlock = 32768;
  constexpr size_t kHeader = 7;
  std::vector<std::pair<size_t, size_t>> records;
  size_t pos = 0;
  size_t start = 0;
  while (pos < wal.size()) {
    const size_t left_in_block = kBlock - pos % kBlock;
    if (left_in_block < kHeader) {
      pos += left_in_block;  // trailer padding
      continue;
    }
    if (pos + kHeader > wal.size()) break;
    const auto* h = reinterpret_cast<const unsigned char*>(wal.data() + pos);
    const size_t length = h[4] | (static_cast<size_t>(h[5]) << 8);
    const int type = h[6];
    if (type == 0 && length == 0) break;  // zeroes: the end
    const size_t end = pos + kHeader + length;
    if (type == 1 || type == 2) start = pos;
    if (type == 1 || type == 4) records.push_back({start, std::min(end, wal.size())});
    pos = end;
  }
  return records;
}

std::string EventKey(const std::string& session, const std::string& branch,
                     uint64_t seq) {
  return Key('e', {session, branch, Be64(seq)});
}

std::string CommandKey(const std::string& session, const std::string& branch,
                       const std::string& command) {
  return Key('c', {session, branch, command});
}

std::string HeadKey(const std::string& session, const std::string& branch) {
  return Key('h', {session, branch});
}

absl::Status RawPut(const std::string& db, const std::string& key,
                    const std::string& value) {
  ASSIGN_OR_RETURN(std::unique_ptr<rocksdb::DB> raw, RawOpen(db));
  rocksdb::Status s = raw->Put(rocksdb::WriteOptions(), key, value);
  if (!s.ok()) return absl::InternalError(s.ToString());
  s = raw->Close();
  return s.ok() ? absl::OkStatus() : absl::InternalError(s.ToString());
}

absl::Status RawDelete(const std::string& db, const std::string& key) {
  ASSIGN_OR_RETURN(std::unique_ptr<rocksdb::DB> raw, RawOpen(db));
  rocksdb::Status s = raw->Delete(rocksdb::WriteOptions(), key);
  if (!s.ok()) return absl::InternalError(s.ToString());
  s = raw->Close();
  return s.ok() ? absl::OkStatus() : absl::InternalError(s.ToString());
}

absl::StatusOr<std::string> RawGet(const std::string& db, const std::string& key) {
  ASSIGN_OR_RETURN(std::unique_ptr<rocksdb::DB> raw, RawOpen(db));
  std::string value;
  rocksdb::Status s = raw->Get(rocksdb::ReadOptions(), key, &value);
  if (!s.ok()) return absl::InternalError(s.ToString());
  return value;
}

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kRefused: return "refused to open";
    case Outcome::kDetected: return "detected on read";
    case Outcome::kIntact: return "intact";
    case Outcome::kPrefix: return "whole-command prefix";
    case Outcome::kSilent: return "SILENT";
  }
  return "?";
}

Inspection Inspect(const std::string& db, const Original& orig,
                   Access access) {
  Inspection out;
  auto detected = [&out](const absl::Status& s, Layer layer) {
    out.outcome = Outcome::kDetected;
    out.layer = layer;
    out.message = s.ToString();
    out.names_seq = absl::StrContains(s.message(), "seq ");
    return out;
  };
  store::Options options;
  if (access == Access::kReadOnly) {
    options.access = store::Options::Access::kReadOnly;
  }
  auto log = store::EventLog::Open(db, options);
  if (!log.ok()) {
    out.outcome = Outcome::kRefused;
    out.layer = Layer::kOpen;
    out.message = log.status().ToString();
    return out;
  }
  auto sessions = (*log)->ListSessions();
  if (!sessions.ok()) return detected(sessions.status(), Layer::kStore);
  auto meta = (*log)->GetSession("s1");
  if (!meta.ok()) {
    if (absl::IsNotFound(meta.status())) {
      // Nothing left: the shortest prefix.
      out.outcome = Outcome::kPrefix;
      out.message = "session s1 is gone";
      for (const auto& [branch, want] : orig.events) out.lengths[branch] = 0;
      return out;
    }
    return detected(meta.status(), Layer::kStore);
  }
  auto secret = (*log)->GetSecret("s1");
  if (!secret.ok()) return detected(secret.status(), Layer::kStore);
  auto branches = (*log)->ListBranches("s1");
  if (!branches.ok()) return detected(branches.status(), Layer::kStore);
  bool shorter = false;
  std::set<std::string> missing;  // branches that are not there
  std::vector<std::string> diffs;
  if (*secret != orig.secret) diffs.push_back("the secret differs");
  if (branches->size() > orig.events.size()) diffs.push_back("the branch list differs");
  for (const auto& [branch, want] : orig.events) {
    Layer layer = Layer::kNone;
    auto v = VerifyBranch(**log, "s1", branch, &layer);
    if (absl::IsNotFound(v.status()) && branch != "main" &&
        branches->size() < orig.events.size()) {
      out.lengths[branch] = 0;  // forked after the point the log ends at
      missing.insert(branch);
      shorter = true;
      continue;
    }
    if (!v.ok()) return detected(v.status(), layer);
    out.lengths[branch] = v->events.size();
    size_t common = std::min(v->events.size(), want.size());
    for (size_t i = 0; i < common; ++i) {
      if (v->events[i].bytes() != want[i]) {
        diffs.push_back(absl::StrCat("branch ", branch, " seq ", i + 1, " differs"));
        break;
      }
    }
    if (v->events.size() > want.size()) {
      diffs.push_back(absl::StrCat("branch ", branch, " is longer"));
    }
    if (v->events.size() < want.size()) {
      // Shorter: acceptable only as a whole-command prefix (a torn tail).
      const uint64_t len = v->events.size();
      bool boundary = len == 0;
      for (const auto& [id, range] : orig.commands.at(branch)) {
        boundary = boundary || range.second == len;
      }
      if (branch != "main") {
        boundary = boundary || len == orig.fork_seq;
        for (const auto& [id, range] : orig.commands.at("main")) {
          boundary = boundary || (range.second == len && len <= orig.fork_seq);
        }
      }
      if (!boundary) {
        diffs.push_back(absl::StrCat("branch ", branch, " ends inside a command (seq ", len, ")"));
      }
      shorter = true;
    }
  }
  // Command markers: present exactly for the commands whose events are.
  for (const auto& [branch, cmds] : orig.commands) {
    if (missing.count(branch) != 0) continue;
    for (const auto& [id, range] : cmds) {
      auto found = (*log)->FindCommand("s1", branch, id);
      if (!found.ok()) return detected(found.status(), Layer::kStore);
      const bool should = range.second <= out.lengths[branch];
      if (found->has_value() != should ||
          (should && ((*found)->first_seq != range.first ||
                      (*found)->last_seq != range.second))) {
        diffs.push_back(absl::StrCat("command ", id, " on ", branch, ": marker ",
                                     found->has_value() ? "differs" : "missing"));
      }
    }
  }
  if (!diffs.empty()) {
    out.outcome = Outcome::kSilent;
    out.message = diffs.front();
    return out;
  }
  out.outcome = shorter ? Outcome::kPrefix : Outcome::kIntact;
  return out;
}

}  // namespace combat::testing
