#include "store/view.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/perf_level.h"
#include "store/keys.h"
#include "store/records.h"
#include "store/rocks_status.h"
#include "store/scan_pipeline.h"

namespace combat::store {
namespace {

// A scan of at least this many events of one branch segment is "long".
constexpr uint64_t kLongScan = 4096;
constexpr size_t kLongScanReadahead = 2 << 20;

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

absl::StatusOr<std::vector<std::pair<std::string, std::string>>> View::List(
    const std::string& prefix, absl::string_view context) const {
  const std::string end = keys::PrefixEnd(prefix);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options = MakeReadOptions();
  options.iterate_upper_bound = &end_slice;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options));
  std::vector<std::pair<std::string, std::string>> out;
  for (it->Seek(prefix); it->Valid(); it->Next()) {
    out.emplace_back(it->key().ToString(), it->value().ToString());
  }
  if (!it->status().ok()) return FromRocks(it->status(), context);
  return out;
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
                        const Visitor& visit, ScanReporter* reporter) const {
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
  if (from == 1) chain = events::Digest{};  // from zeros
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
                            &chain, reporter, visit));
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

namespace {

// One branch's own event keys lo..hi, as ScanOwn reads them.
struct EventRange {
  const std::string& session;
  const std::string& branch;  // the branch whose keys hold the events
  std::string prefix;         // keys::EventPrefix(session, branch)
  std::string where;          // "session s branch b"
  std::string via;            // "" or " (shared prefix of branch c)"
  uint64_t lo = 0;
  uint64_t hi = 0;

  // "session s branch b seq <n> (shared prefix of branch c)": built only
  // for an error, so a long scan does not format it for every event.
  std::string Context(uint64_t seq) const {
    return absl::StrCat(where, " seq ", seq, via);
  }
};

// Reads events lo..hi in seq order, each checked against its key (the seq
// expected next), copies each one's bytes into the vector `storage()`
// returns (empty, or the storage of an event already visited: its capacity
// is reused) and hands them to `emit(seq, bytes)` (returning false stops
// the read: OK). DecodeEvent checks the bytes themselves. Errors: a missing
// seq, a malformed key, and a failed iterator (checked after the loop: an
// iterator that hits corruption just stops, and a damaged log must not
// look shorter).
template <typename Storage, typename Emit>
absl::Status ReadEvents(rocksdb::Iterator* it, const EventRange& r,
                        Storage&& storage, Emit&& emit) {
  uint64_t expect = r.lo;
  for (it->Seek(keys::Event(r.session, r.branch, r.lo));
       it->Valid() && expect <= r.hi; it->Next(), ++expect) {
    uint64_t seq = 0;
    rocksdb::Slice key = it->key();
    if (!keys::ParseEventKey(absl::string_view(key.data(), key.size()),
                             r.prefix, &seq)) {
      return absl::DataLossError(absl::StrCat(
          r.Context(expect), ": malformed event key (", key.size(), " bytes)"));
    }
    if (seq != expect) {
      return absl::DataLossError(
          absl::StrCat(r.Context(expect),
                       ": event missing (the next stored event is seq ", seq,
                       ")"));
    }
    rocksdb::Slice value = it->value();
    std::vector<uint8_t> bytes = storage();
    const auto* first = reinterpret_cast<const uint8_t*>(value.data());
    bytes.assign(first, first + value.size());
    if (!emit(seq, std::move(bytes))) return absl::OkStatus();
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat(r.where, " reading seq ", expect, r.via));
  }
  if (expect <= r.hi) {
    return absl::DataLossError(
        absl::StrCat(r.where, " seq ", expect, r.via,
                     ": event missing (nothing is stored from here to seq ",
                     r.hi, ", which the head covers)"));
  }
  return absl::OkStatus();
}

// The event stored under `seq`: copied to aligned memory (`bytes`), run
// through the Verifier, and naming the place it is stored at (seq, session,
// branch).
absl::StatusOr<events::EventBuffer> DecodeEvent(const EventRange& r,
                                                uint64_t seq,
                                                std::vector<uint8_t> bytes) {
  // An empty context: the messages start with ": ..." and get the real
  // context prepended only when there is an error.
  absl::StatusOr<events::EventBuffer> decoded =
      events::EventBuffer::FromOwned(std::move(bytes), "");
  if (!decoded.ok()) {
    return absl::Status(decoded.status().code(),
                        absl::StrCat(r.Context(seq), decoded.status().message()));
  }
  const fb::Event& e = decoded->event();
  if (e.seq() != seq || Str(e.session()) != r.session ||
      Str(e.branch()) != r.branch) {
    return absl::DataLossError(absl::StrCat(
        r.Context(seq), ": the event stored here names session '",
        Str(e.session()), "' branch '", Str(e.branch()), "' seq ", e.seq()));
  }
  return decoded;
}

// The checks that need each event's SHA-256, then the visitor: the event's
// prev_hash against the hash of the event before (when known: `chain`; a
// broken link goes to the reporter, if any), and the event at hi against
// the head's hash. The hash stays with the buffer (RememberHash) for the
// visitor.
class ChainChecker {
 public:
  ChainChecker(const EventRange& r, const events::Digest* last_hash,
               std::optional<events::Digest>* chain, ScanReporter* reporter,
               const Visitor& visit)
      : r_(r),
        last_hash_(last_hash),
        chain_(chain),
        reporter_(reporter),
        visit_(visit) {}

  absl::Status Check(events::EventBuffer& event) {
    const fb::Event& e = event.event();
    const uint64_t seq = e.seq();
    const events::Digest hash = event.RememberHash();
    if (chain_->has_value()) {
      const auto* prev = e.prev_hash();
      if (prev == nullptr || prev->size() != (*chain_)->size() ||
          std::memcmp((*chain_)->data(), prev->data(), prev->size()) != 0) {
        BrokenLink link;
        link.seq = seq;
        link.expected = **chain_;
        link.refusal = absl::DataLossError(absl::StrCat(
            r_.Context(seq), ": prev_hash does not match the event before it (",
            events::Hex(**chain_), "): the chain is broken here"));
        if (reporter_ == nullptr) return link.refusal;
        absl::Status reported = reporter_->Report(link, event);
        if (!reported.ok()) return reported;
      }
    }
    *chain_ = hash;
    if (seq == r_.hi && last_hash_ != nullptr && hash != *last_hash_) {
      return absl::DataLossError(absl::StrCat(
          r_.Context(seq), ": the event hashes to ", events::Hex(hash),
          " but the head records ", events::Hex(*last_hash_)));
    }
    return visit_(event);
  }

 private:
  const EventRange& r_;
  const events::Digest* last_hash_;
  std::optional<events::Digest>* chain_;
  ScanReporter* reporter_;
  const Visitor& visit_;
};

// Turns RocksDB's per-thread perf counters off for the current thread (a
// TLS lookup per iterator step; nothing here reads them).
class NoPerfCounters {
 public:
  NoPerfCounters() : level_(rocksdb::GetPerfLevel()) {
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  }
  ~NoPerfCounters() { rocksdb::SetPerfLevel(level_); }

 private:
  rocksdb::PerfLevel level_;
};

}  // namespace

absl::Status View::ScanOwn(const std::string& session,
                           const std::string& segment_branch,
                           const std::string& read_branch, uint64_t lo,
                           uint64_t hi, const events::Digest* last_hash,
                           std::optional<events::Digest>* chain,
                           ScanReporter* reporter,
                           const Visitor& visit) const {
  EventRange range{session, segment_branch,
                   keys::EventPrefix(session, segment_branch),
                   BranchContext(session, segment_branch),
                   segment_branch == read_branch
                       ? std::string()
                       : absl::StrCat(" (shared prefix of branch ",
                                      read_branch, ")"),
                   lo, hi};
  // Keys under the prefix are all prefix + 8 bytes: key(hi) + '\0' bounds
  // them at hi without overflowing at UINT64_MAX.
  std::string upper = keys::Event(session, segment_branch, hi);
  upper.push_back('\0');
  rocksdb::Slice upper_slice(upper);
  rocksdb::ReadOptions options = MakeReadOptions();
  options.iterate_upper_bound = &upper_slice;
  const bool long_scan = hi - lo >= kLongScan;
  if (long_scan) {
    // A long scan reads each block once: read ahead, and do not push the
    // blocks other readers use out of the block cache.
    options.fill_cache = false;
    options.readahead_size = kLongScanReadahead;
  }
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options));
  ChainChecker checker(range, last_hash, chain, reporter, visit);

  auto decode = [&range](uint64_t seq, std::vector<uint8_t> bytes) {
    return DecodeEvent(range, seq, std::move(bytes));
  };
  if (!long_scan) {
    NoPerfCounters no_perf;
    absl::Status checked;
    absl::Status read = ReadEvents(
        it.get(), range, [] { return std::vector<uint8_t>(); },
        [&decode, &checker, &checked](uint64_t seq, std::vector<uint8_t> bytes) {
          absl::StatusOr<events::EventBuffer> event = decode(seq, std::move(bytes));
          checked = event.ok() ? checker.Check(*event) : event.status();
          return checked.ok();
        });
    return checked.ok() ? read : checked;
  }
  // A long scan runs in two threads (store/scan_pipeline.h).
  return RunScanPipeline(
      [&it, &range](const auto& storage, const auto& emit) {
        NoPerfCounters no_perf;
        return ReadEvents(it.get(), range, storage, emit);
      },
      decode, [&checker](events::EventBuffer& event) { return checker.Check(event); });
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
