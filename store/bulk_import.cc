#include "store/bulk_import.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "rocksdb/env.h"
#include "rocksdb/sst_file_writer.h"
#include "store/keys.h"
#include "store/records.h"
#include "store/rocks_status.h"

namespace combat::store {
namespace {

absl::string_view Str(const flatbuffers::String* s) {
  return s == nullptr ? absl::string_view()
                      : absl::string_view(s->c_str(), s->size());
}

// One branch being imported, with what its children need from it.
struct Branch {
  const ImportBranch* in = nullptr;
  int parent = -1;  // index into the branch vector; -1 for main
  Head head;
  // Command id -> the range it produced among the branch's own events.
  std::unordered_map<std::string, AppendResult> commands;
};

// The event at `seq` in the history of branches[index] (REQUIRES: 1 <= seq
// <= its head).
const events::EventBuffer& EventAt(const std::vector<Branch>& branches,
                                   int index, uint64_t seq) {
  while (seq <= branches[index].in->meta.fork_seq) {
    index = branches[index].parent;
  }
  const ImportBranch& b = *branches[index].in;
  return (*b.own)[seq - b.meta.fork_seq - 1];
}

// True when `command_id` already produced events in the history of
// branches[index] below its own events: an ancestor's command that lies
// wholly within the shared prefix (View::Command's reading).
bool InAncestry(const std::vector<Branch>& branches, int index,
                const std::string& command_id) {
  uint64_t limit = branches[index].in->meta.fork_seq;
  for (int p = branches[index].parent; p >= 0; p = branches[p].parent) {
    auto it = branches[p].commands.find(command_id);
    if (it != branches[p].commands.end() && it->second.last_seq <= limit) {
      return true;
    }
    limit = std::min(limit, branches[p].in->meta.fork_seq);
  }
  return false;
}

// The checks Fork makes on a branch's metadata, against the branches
// before it.
absl::Status CheckBranchMeta(const SessionMeta& meta,
                             const std::vector<Branch>& done,
                             const ImportBranch& b, int* parent) {
  const std::string context =
      absl::StrCat("import session ", meta.session, " branch ", b.meta.branch);
  if (!ValidId(b.meta.branch)) {
    return absl::InvalidArgumentError(
        absl::StrCat(context, ": invalid branch id"));
  }
  if (b.meta.session != meta.session) {
    return absl::InvalidArgumentError(absl::StrCat(
        context, ": the branch record names session '", b.meta.session, "'"));
  }
  if (b.own == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(context, ": no events"));
  }
  *parent = -1;
  for (size_t i = 0; i < done.size(); ++i) {
    if (done[i].in->meta.branch == b.meta.branch) {
      return absl::InvalidArgumentError(
          absl::StrCat(context, ": the branch appears twice"));
    }
    if (done[i].in->meta.branch == b.meta.parent) *parent = static_cast<int>(i);
  }
  if (done.empty()) {
    if (b.meta.branch != "main" || !b.meta.parent.empty() ||
        b.meta.fork_seq != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          context, ": the first branch must be main, with no parent"));
    }
    return absl::OkStatus();
  }
  if (*parent < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        context, ": parent branch '", b.meta.parent,
        "' is not among the branches before it"));
  }
  const uint64_t parent_head = done[*parent].head.seq;
  if (b.meta.fork_seq == 0 || b.meta.fork_seq > parent_head) {
    return absl::OutOfRangeError(absl::StrCat(
        context, ": cannot fork branch ", b.meta.parent, " at seq ",
        b.meta.fork_seq, ": it is at seq ", parent_head));
  }
  return absl::OkStatus();
}

// Append's checks over a branch's own events, command by command (a
// command is a run of consecutive events with one command id). Fills in
// the branch's head and commands.
absl::Status CheckEvents(const SessionMeta& meta, std::vector<Branch>& branches,
                         int index, bool check_canonical) {
  Branch& br = branches[index];
  const BranchMeta& bm = br.in->meta;
  const std::vector<events::EventBuffer>& own = *br.in->own;
  events::Digest prev{};
  if (bm.fork_seq > 0) prev = EventAt(branches, br.parent, bm.fork_seq).hash();
  std::string run_id;
  AppendResult* run = nullptr;  // the current command's range
  for (size_t i = 0; i < own.size(); ++i) {
    const uint64_t want = bm.fork_seq + 1 + i;
    const fb::Event& e = own[i].event();
    const auto context = [&] {
      return absl::StrCat("import session ", meta.session, " branch ",
                          bm.branch, " seq ", want);
    };
    if (e.seq() != want) {
      return absl::InvalidArgumentError(
          absl::StrCat(context(), ": the event has seq ", e.seq(),
                       "; seqs must run contiguously from the fork seq (",
                       bm.fork_seq, ") + 1"));
    }
    if (Str(e.session()) != meta.session || Str(e.branch()) != bm.branch) {
      return absl::InvalidArgumentError(absl::StrCat(
          context(), ": the event names session '", Str(e.session()),
          "' branch '", Str(e.branch()), "'"));
    }
    const flatbuffers::Vector<uint8_t>* prev_hash = e.prev_hash();
    if (prev_hash == nullptr || prev_hash->size() != prev.size() ||
        !std::equal(prev.begin(), prev.end(), prev_hash->begin())) {
      return absl::InvalidArgumentError(
          absl::StrCat(context(), ": prev_hash does not match seq ", want - 1,
                       " (", events::Hex(prev), ")"));
    }
    if (check_canonical) {
      absl::Status canonical = own[i].CheckCanonical(context());
      if (!canonical.ok()) {
        return absl::InvalidArgumentError(canonical.message());
      }
    }
    prev = own[i].hash();
    const absl::string_view id = Str(e.command_id());
    if (run == nullptr || id != run_id) {
      run_id.assign(id.data(), id.size());
      if (!ValidId(run_id)) {
        return absl::InvalidArgumentError(absl::StrCat(
            context(), ": invalid command id '", run_id.substr(0, 80), "'"));
      }
      if (InAncestry(branches, index, run_id)) {
        return absl::InvalidArgumentError(
            absl::StrCat(context(), ": command id ", run_id,
                         " is already in the branch's history"));
      }
      auto [it, inserted] =
          br.commands.emplace(run_id, AppendResult{want, want, false});
      if (!inserted) {
        return absl::InvalidArgumentError(
            absl::StrCat(context(), ": command id ", run_id,
                         " is already in the branch's history"));
      }
      run = &it->second;
    }
    run->last_seq = want;
  }
  br.head.seq = bm.fork_seq + own.size();
  br.head.hash = prev;
  return absl::OkStatus();
}

struct Record {
  std::string key;
  std::string value;
};

}  // namespace

absl::StatusOr<uint64_t> BulkImport(rocksdb::DB* db,
                                    const rocksdb::Options& options,
                                    const std::string& path,
                                    const SessionMeta& meta,
                                    const std::vector<uint8_t>& secret,
                                    const std::vector<ImportBranch>& branches,
                                    bool check_canonical,
                                    const std::vector<uint8_t>& signing_key,
                                    const std::vector<std::vector<uint8_t>>& later_secrets) {
  const std::string context = absl::StrCat("import session ", meta.session);
  if (branches.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(context, ": no branches"));
  }
  // ---- Every check, in memory, before anything is written.
  std::vector<Branch> state;
  // Pointers into `state` stay valid: no reallocation.
  state.reserve(branches.size());
  uint64_t total = 0;
  for (const ImportBranch& b : branches) {
    int parent = -1;
    RETURN_IF_ERROR(CheckBranchMeta(meta, state, b, &parent));
    state.push_back(Branch{&b, parent, Head{}, {}});
    RETURN_IF_ERROR(CheckEvents(meta, state, static_cast<int>(state.size()) - 1,
                                check_canonical));
    total += b.own->size();
  }

  // ---- The records other than events, sorted by key.
  std::vector<Record> records;
  records.push_back({keys::Session(meta.session),
                     records::EncodeSessionMeta(meta)});
  records.push_back({keys::Secret(meta.session),
                     std::string(secret.begin(), secret.end())});
  if (!signing_key.empty()) {
    records.push_back({keys::SigningKey(meta.session),
                       std::string(signing_key.begin(), signing_key.end())});
  }
  // Later secrets and reveal markers: one record per key (a map), the
  // first reveal of a commitment in import order (main first) kept.
  std::map<std::string, std::string> reveal_records;
  for (const std::vector<uint8_t>& later : later_secrets) {
    const events::Digest c = events::Sha256(later);
    reveal_records.emplace(
        keys::EpochSecret(meta.session, std::vector<uint8_t>(c.begin(), c.end())),
        std::string(later.begin(), later.end()));
  }
  for (const Branch& br : state) {
    uint64_t seq = br.in->meta.fork_seq;
    for (const events::EventBuffer& e : *br.in->own) {
      ++seq;
      const fb::StateChange* sc = e.event().body_as_StateChange();
      const fb::SeedRevealed* r =
          sc != nullptr ? sc->change_as_SeedRevealed() : nullptr;
      if (r == nullptr || r->secret() == nullptr) continue;
      const events::Digest c = events::Sha256(r->secret()->data(), r->secret()->size());
      std::string where = br.in->meta.branch;
      where.push_back('\0');
      keys::AppendBe64(seq, &where);
      reveal_records.emplace(
          keys::Revealed(meta.session, std::vector<uint8_t>(c.begin(), c.end())),
          std::move(where));
    }
  }
  for (auto& [key, value] : reveal_records) records.push_back({key, std::move(value)});
  for (const Branch& br : state) {
    const BranchMeta& bm = br.in->meta;
    records.push_back({keys::Branch(meta.session, bm.branch),
                       records::EncodeBranchMeta(bm)});
    records.push_back({keys::Head(meta.session, bm.branch),
                       records::EncodeHead(br.head)});
    const std::vector<events::EventBuffer>& own = *br.in->own;
    for (const auto& [id, range] : br.commands) {
      // Bound to its content as Append binds it (events::MarkerContent).
      const events::Digest content = events::MarkerContent(absl::MakeConstSpan(
          own.data() + (range.first_seq - bm.fork_seq - 1),
          range.last_seq - range.first_seq + 1));
      records.push_back({keys::Command(meta.session, bm.branch, id),
                         records::EncodeCommandRange(range.first_seq,
                                                     range.last_seq, content)});
    }
  }
  std::sort(records.begin(), records.end(),
            [](const Record& a, const Record& b) { return a.key < b.key; });
  // Branches in key order for the event keys ('e' sorts between the
  // command records 'c' and the heads 'h').
  std::vector<const Branch*> by_name;
  for (const Branch& br : state) by_name.push_back(&br);
  std::sort(by_name.begin(), by_name.end(), [](const Branch* a, const Branch* b) {
    return a->in->meta.branch < b->in->meta.branch;
  });

  // ---- One table file, in key order, synced by Finish.
  const std::string file = path + "/bulk-import.sst.tmp";
  rocksdb::Env* env = db->GetEnv();
  // The page cache keeps the file: it is read back by the ingestion's
  // checksum pass, and usually soon after by a replay.
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(options), options,
                                /*column_family=*/nullptr,
                                /*invalidate_page_cache=*/false);
  absl::Status written = [&]() -> absl::Status {
    RETURN_IF_ERROR(FromRocks(writer.Open(file),
                              absl::StrCat(context, ": creating ", file)));
    const auto put = [&](const rocksdb::Slice& key,
                         const rocksdb::Slice& value) {
      return FromRocks(writer.Put(key, value),
                       absl::StrCat(context, ": writing ", file));
    };
    size_t r = 0;
    for (; r < records.size() && records[r].key[0] < 'e'; ++r) {
      RETURN_IF_ERROR(put(records[r].key, records[r].value));
    }
    std::string key;
    for (const Branch* br : by_name) {
      const BranchMeta& bm = br->in->meta;
      const std::string prefix = keys::EventPrefix(meta.session, bm.branch);
      uint64_t seq = bm.fork_seq;
      for (const events::EventBuffer& e : *br->in->own) {
        key = prefix;
        keys::AppendBe64(++seq, &key);
        const std::vector<uint8_t>& bytes = e.bytes();
        RETURN_IF_ERROR(put(key, rocksdb::Slice(reinterpret_cast<const char*>(
                                                    bytes.data()),
                                                bytes.size())));
      }
    }
    for (; r < records.size(); ++r) {
      RETURN_IF_ERROR(put(records[r].key, records[r].value));
    }
    return FromRocks(writer.Finish(),
                     absl::StrCat(context, ": finishing ", file));
  }();
  if (!written.ok()) {
    (void)env->DeleteFile(file);
    return written;
  }

  // ---- Visible and durable at once.
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = true;  // hard link (or copy), then unlink the original
  ingest.verify_checksums_before_ingest = true;
  rocksdb::Status s = db->IngestExternalFile({file}, ingest);
  if (!s.ok()) {
    (void)env->DeleteFile(file);
    return FromRocks(s, absl::StrCat(context, ": ingesting ", file));
  }
  // The link to the new table file: make the directory entry durable too.
  std::unique_ptr<rocksdb::Directory> dir;
  s = env->NewDirectory(path, &dir);
  if (s.ok()) s = dir->Fsync();
  if (!s.ok()) {
    return FromRocks(s, absl::StrCat(context, ": syncing directory ", path));
  }
  return total;
}

}  // namespace combat::store
