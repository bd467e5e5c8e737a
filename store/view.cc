#include "store/view.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "store/keys.h"
#include "store/records.h"
#include "store/rocks_status.h"

namespace combat::store {
namespace {

absl::string_view Str(const flatbuffers::String* s) {
  return s == nullptr ? absl::string_view()
                      : absl::string_view(s->c_str(), s->size());
}

std::string BranchContext(absl::string_view session, absl::string_view branch) {
  return absl::StrCat("session ", session, " branch ", branch);
}

// A decoded branch record must describe the key it was stored under and
// have a parent exactly when it has a fork seq.
absl::Status CheckBranchMeta(const BranchMeta& meta, absl::string_view session,
                             absl::string_view branch,
                             absl::string_view context) {
  if (meta.session != session || meta.branch != branch) {
    return absl::DataLossError(
        absl::StrCat(context, ": branch record names session '", meta.session,
                     "' branch '", meta.branch, "'"));
  }
  bool has_parent = !meta.parent.empty();
  if (has_parent != (meta.fork_seq != 0) ||
      (has_parent && (!ValidId(meta.parent) || meta.parent == branch))) {
    return absl::DataLossError(
        absl::StrCat(context, ": branch record has parent '", meta.parent,
                     "' and fork seq ", meta.fork_seq));
  }
  return absl::OkStatus();
}

}  // namespace

View::View(rocksdb::DB* db, bool snapshot) : db_(db) {
  if (snapshot) snapshot_ = db_->GetSnapshot();
}

View::~View() {
  if (snapshot_ != nullptr) db_->ReleaseSnapshot(snapshot_);
}

rocksdb::ReadOptions View::MakeReadOptions() const {
  rocksdb::ReadOptions options;
  options.verify_checksums = true;
  options.snapshot = snapshot_;
  return options;
}

absl::StatusOr<std::optional<std::string>> View::Get(
    const std::string& key, absl::string_view context) const {
  std::string value;
  rocksdb::Status s = db_->Get(MakeReadOptions(), key, &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) return FromRocks(s, context);
  return std::optional<std::string>(std::move(value));
}

absl::StatusOr<SessionMeta> View::Session(const std::string& session) const {
  std::string context = absl::StrCat("session ", session);
  ASSIGN_OR_RETURN(std::optional<std::string> value,
                   Get(keys::Session(session), context));
  if (!value) return absl::NotFoundError(absl::StrCat(context, " not found"));
  ASSIGN_OR_RETURN(SessionMeta meta,
                   records::DecodeSessionMeta(*value, context));
  if (meta.session != session) {
    return absl::DataLossError(absl::StrCat(
        context, ": session record names session '", meta.session, "'"));
  }
  return meta;
}

absl::StatusOr<BranchMeta> View::Branch(const std::string& session,
                                        const std::string& branch) const {
  std::string context = BranchContext(session, branch);
  ASSIGN_OR_RETURN(std::optional<std::string> value,
                   Get(keys::Branch(session, branch), context));
  if (!value) {
    RETURN_IF_ERROR(Session(session).status());
    return absl::NotFoundError(absl::StrCat(context, " not found"));
  }
  ASSIGN_OR_RETURN(BranchMeta meta, records::DecodeBranchMeta(*value, context));
  RETURN_IF_ERROR(CheckBranchMeta(meta, session, branch, context));
  return meta;
}

absl::StatusOr<Head> View::HeadOf(const BranchMeta& meta) const {
  std::string context = BranchContext(meta.session, meta.branch);
  ASSIGN_OR_RETURN(std::optional<std::string> value,
                   Get(keys::Head(meta.session, meta.branch), context));
  if (!value) {
    return absl::DataLossError(absl::StrCat(context, ": head record missing"));
  }
  ASSIGN_OR_RETURN(Head head, records::DecodeHead(*value, context));
  if (head.seq < meta.fork_seq) {
    return absl::DataLossError(absl::StrCat(context, ": head seq ", head.seq,
                                            " is below the fork seq ",
                                            meta.fork_seq));
  }
  return head;
}

absl::StatusOr<BranchMeta> View::Parent(const BranchMeta& meta) const {
  absl::StatusOr<BranchMeta> parent = Branch(meta.session, meta.parent);
  if (absl::IsNotFound(parent.status())) {
    return absl::DataLossError(
        absl::StrCat(BranchContext(meta.session, meta.branch),
                     ": parent branch ", meta.parent, " is missing"));
  }
  return parent;
}

absl::StatusOr<std::optional<AppendResult>> View::Command(
    const BranchMeta& meta, const std::string& command_id) const {
  BranchMeta current = meta;
  uint64_t limit = UINT64_MAX;  // seqs of `current` visible from `meta`
  std::set<std::string> seen;
  while (true) {
    if (!seen.insert(current.branch).second) {
      return absl::DataLossError(absl::StrCat(
          BranchContext(meta.session, meta.branch),
          ": branch ancestry loops back to branch ", current.branch));
    }
    std::string context =
        absl::StrCat(BranchContext(current.session, current.branch),
                     " command ", command_id);
    ASSIGN_OR_RETURN(
        std::optional<std::string> value,
        Get(keys::Command(current.session, current.branch, command_id),
            context));
    if (value) {
      ASSIGN_OR_RETURN(AppendResult range,
                       records::DecodeCommandRange(*value, context));
      if (range.last_seq <= limit) return std::optional<AppendResult>(range);
    }
    if (current.parent.empty()) return std::optional<AppendResult>();
    limit = std::min(limit, current.fork_seq);
    ASSIGN_OR_RETURN(current, Parent(current));
  }
}

absl::StatusOr<std::vector<View::Segment>> View::Segments(
    const BranchMeta& meta, uint64_t to) const {
  std::vector<Segment> segments;
  std::set<std::string> seen;
  BranchMeta current = meta;
  uint64_t limit = to;
  while (limit > 0) {
    if (!seen.insert(current.branch).second) {
      return absl::DataLossError(absl::StrCat(
          BranchContext(meta.session, meta.branch),
          ": branch ancestry loops back to branch ", current.branch));
    }
    if (limit > current.fork_seq) {
      segments.push_back({current.branch, current.fork_seq + 1, limit});
    }
    if (current.parent.empty()) break;
    limit = std::min(limit, current.fork_seq);
    ASSIGN_OR_RETURN(current, Parent(current));
  }
  std::reverse(segments.begin(), segments.end());
  return segments;
}

absl::Status View::Scan(const std::string& session, const std::string& branch,
                        uint64_t from, uint64_t to,
                        const Visitor& visit, bool check_links) const {
  std::string context = BranchContext(session, branch);
  if (from == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(context, ": scan from seq 0 (seqs are 1-based)"));
  }
  ASSIGN_OR_RETURN(BranchMeta meta, Branch(session, branch));
  ASSIGN_OR_RETURN(Head head, HeadOf(meta));
  if (to == 0) to = head.seq;
  if (to > head.seq) {
    return absl::OutOfRangeError(absl::StrCat(context, ": cannot read to seq ",
                                              to, ", the branch is at seq ",
                                              head.seq));
  }
  if (from > to) return absl::OkStatus();
  ASSIGN_OR_RETURN(std::vector<Segment> segments, Segments(meta, to));
  std::optional<events::Digest> chain;
  if (from == 1 && check_links) chain = events::Digest{};  // from zeros
  uint64_t next = from;
  for (const Segment& segment : segments) {
    uint64_t lo = std::max(segment.lo, from);
    uint64_t hi = std::min(segment.hi, to);
    if (lo > hi) continue;
    if (lo != next) {  // the segments must tile 1..to
      return absl::DataLossError(
          absl::StrCat(context, ": branch ancestry does not cover seq ", next));
    }
    RETURN_IF_ERROR(ScanOwn(session, segment.branch, branch, lo, hi,
                            hi == head.seq ? &head.hash : nullptr,
                            check_links ? &chain : nullptr,
                            visit));
    next = hi + 1;
  }
  if (to == head.seq && head.seq > meta.fork_seq) {
    // A head record rolled back would otherwise hide the events above it.
    ASSIGN_OR_RETURN(std::optional<std::string> beyond,
                     Get(keys::Event(session, branch, head.seq + 1), context));
    if (beyond.has_value()) {
      return absl::DataLossError(absl::StrCat(
          context, " seq ", head.seq + 1,
          ": an event is stored beyond the head (seq ", head.seq,
          "): the head record is damaged"));
    }
  }
  if (next != to + 1) {
    return absl::DataLossError(
        absl::StrCat(context, ": branch ancestry does not cover seq ", next));
  }
  return absl::OkStatus();
}

absl::Status View::ScanOwn(const std::string& session,
                           const std::string& segment_branch,
                           const std::string& read_branch, uint64_t lo,
                           uint64_t hi, const events::Digest* last_hash,
                           std::optional<events::Digest>* chain,
                           const Visitor& visit) const {
  const std::string where = BranchContext(session, segment_branch);
  const std::string via =
      segment_branch == read_branch
          ? std::string()
          : absl::StrCat(" (shared prefix of branch ", read_branch, ")");
  const std::string prefix = keys::EventPrefix(session, segment_branch);
  // Keys under `prefix` are all prefix + 8 bytes: key(hi) + '\0' bounds
  // them at hi without overflowing at UINT64_MAX.
  std::string upper = keys::Event(session, segment_branch, hi);
  upper.push_back('\0');
  rocksdb::Slice upper_slice(upper);
  rocksdb::ReadOptions options = MakeReadOptions();
  options.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options));

  // "session s branch b seq <n> (shared prefix of branch c)", rebuilt in
  // place for each event so a long scan does not allocate it every time.
  std::string context = absl::StrCat(where, " seq ");
  const size_t context_base = context.size();
  uint64_t expect = lo;
  for (it->Seek(keys::Event(session, segment_branch, lo));
       it->Valid() && expect <= hi; it->Next(), ++expect) {
    context.resize(context_base);
    absl::StrAppend(&context, expect, via);
    uint64_t seq = 0;
    rocksdb::Slice key = it->key();
    if (!keys::ParseEventKey(absl::string_view(key.data(), key.size()), prefix,
                             &seq)) {
      return absl::DataLossError(absl::StrCat(
          context, ": malformed event key (", key.size(), " bytes)"));
    }
    if (seq != expect) {
      return absl::DataLossError(absl::StrCat(
          context, ": event missing (the next stored event is seq ", seq, ")"));
    }
    rocksdb::Slice value = it->value();
    ASSIGN_OR_RETURN(
        events::EventBuffer event,
        events::EventBuffer::FromBytes(value.data(), value.size(), context));
    const fb::Event& e = event.event();
    if (e.seq() != expect || Str(e.session()) != session ||
        Str(e.branch()) != segment_branch) {
      return absl::DataLossError(absl::StrCat(
          context, ": the event stored here names session '", Str(e.session()),
          "' branch '", Str(e.branch()), "' seq ", e.seq()));
    }
    const events::Digest hash = event.hash();
    if (chain != nullptr && chain->has_value()) {
      const auto* prev = e.prev_hash();
      if (prev == nullptr || prev->size() != (*chain)->size() ||
          !std::equal((*chain)->begin(), (*chain)->end(), prev->begin())) {
        return absl::DataLossError(absl::StrCat(
            context, ": prev_hash does not match the event before it (",
            events::Hex(**chain), "): the chain is broken here"));
      }
    }
    if (chain != nullptr) *chain = hash;
    if (expect == hi && last_hash != nullptr && hash != *last_hash) {
      return absl::DataLossError(absl::StrCat(
          context, ": the event hashes to ", events::Hex(hash),
          " but the head records ", events::Hex(*last_hash)));
    }
    RETURN_IF_ERROR(visit(event));
  }
  // An iterator that hits corruption just stops: without this check a
  // damaged log would look shorter.
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat(where, " reading seq ", expect, via));
  }
  if (expect <= hi) {
    return absl::DataLossError(
        absl::StrCat(where, " seq ", expect, via,
                     ": event missing (nothing is stored from here to seq ", hi,
                     ", which the head covers)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> View::ListSessions() const {
  const std::string prefix = keys::SessionPrefix();
  const std::string end = keys::PrefixEnd(prefix);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options = MakeReadOptions();
  options.iterate_upper_bound = &end_slice;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options));
  std::vector<std::string> sessions;
  for (it->Seek(prefix); it->Valid(); it->Next()) {
    std::string id = it->key().ToString().substr(prefix.size());
    if (!ValidId(id)) {
      return absl::DataLossError(
          absl::StrCat("session list: malformed session key (",
                       it->key().size(), " bytes)"));
    }
    sessions.push_back(std::move(id));
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(), "listing sessions");
  }
  return sessions;
}

absl::StatusOr<std::vector<BranchMeta>> View::ListBranches(
    const std::string& session) const {
  RETURN_IF_ERROR(Session(session).status());
  const std::string prefix = keys::BranchPrefix(session);
  const std::string end = keys::PrefixEnd(prefix);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options = MakeReadOptions();
  options.iterate_upper_bound = &end_slice;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options));
  std::vector<BranchMeta> branches;
  for (it->Seek(prefix); it->Valid(); it->Next()) {
    std::string id = it->key().ToString().substr(prefix.size());
    std::string context = BranchContext(session, id);
    if (!ValidId(id)) {
      return absl::DataLossError(absl::StrCat("session ", session,
                                              ": malformed branch key (",
                                              it->key().size(), " bytes)"));
    }
    rocksdb::Slice value = it->value();
    ASSIGN_OR_RETURN(
        BranchMeta meta,
        records::DecodeBranchMeta(absl::string_view(value.data(), value.size()),
                                  context));
    RETURN_IF_ERROR(CheckBranchMeta(meta, session, id, context));
    branches.push_back(std::move(meta));
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("session ", session, ": listing branches"));
  }
  return branches;
}

}  // namespace combat::store
