#include "store/view.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/perf_level.h"
#include "store/keys.h"
#include "store/records.h"
#include "store/rocks_status.h"

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

// Reads events lo..hi in seq order, each decoded (copied to aligned memory,
// Verifier) and checked against its key (seq, session, branch), and hands
// them to `sink` (returning false stops the read: OK). Errors: a missing
// seq, a malformed key or value, an event under the wrong key, and a failed
// iterator (checked after the loop: an iterator that hits corruption just
// stops, and a damaged log must not look shorter).
template <typename Sink>
absl::Status ReadEvents(rocksdb::Iterator* it, const EventRange& r,
                        Sink&& sink) {
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
    // An empty context: the messages start with ": ..." and get the real
    // context prepended only when there is an error.
    absl::StatusOr<events::EventBuffer> decoded =
        events::EventBuffer::FromBytes(value.data(), value.size(), "");
    if (!decoded.ok()) {
      return absl::Status(
          decoded.status().code(),
          absl::StrCat(r.Context(expect), decoded.status().message()));
    }
    const fb::Event& e = decoded->event();
    if (e.seq() != expect || Str(e.session()) != r.session ||
        Str(e.branch()) != r.branch) {
      return absl::DataLossError(absl::StrCat(
          r.Context(expect), ": the event stored here names session '",
          Str(e.session()), "' branch '", Str(e.branch()), "' seq ", e.seq()));
    }
    if (!sink(*std::move(decoded))) return absl::OkStatus();
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
          !std::equal((*chain_)->begin(), (*chain_)->end(), prev->begin())) {
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

// Batches of decoded events from a long scan's reading thread to the
// caller's, which checks and visits them. A thread that finds the queue
// empty (the caller) or full (the reader) sleeps until it is half full
// (half empty), not until the next single batch: on a busy machine each
// wake-up waits for the scheduler, so the two threads should trade places
// as rarely as possible. std::mutex and std::condition_variable rather
// than absl::Mutex: Debian's Abseil is not built for ThreadSanitizer, which
// then cannot see absl::Mutex's ordering (tests/sanitizers.sh runs this
// under TSan).
class BatchQueue {
 public:
  static constexpr size_t kBatch = 512;  // events per batch
  static constexpr size_t kDepth = 16;   // batches: ~4 MB of events

  // False once the consumer stopped (the reader should stop too).
  bool Push(std::vector<events::EventBuffer> batch) {
    std::unique_lock<std::mutex> lock(mu_);
    if (batches_.size() >= kDepth) {
      changed_.wait(lock, [this] {
        return stopped_ || batches_.size() <= kDepth / 2;
      });
    }
    if (stopped_) return false;
    batches_.push_back(std::move(batch));
    if (batches_.size() >= kDepth / 2) changed_.notify_all();
    return true;
  }
  // The reader is done; `end` is its status.
  void Finish(absl::Status end) {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = true;
    end_ = std::move(end);
    changed_.notify_all();
  }
  // The next batch; false when there is none left (`*end`: the reader's
  // status).
  bool Pop(std::vector<events::EventBuffer>* batch, absl::Status* end) {
    std::unique_lock<std::mutex> lock(mu_);
    if (batches_.empty()) {
      changed_.wait(lock, [this] {
        return finished_ || batches_.size() >= kDepth / 2;
      });
    }
    if (batches_.empty()) {
      *end = end_;
      return false;
    }
    *batch = std::move(batches_.front());
    batches_.pop_front();
    if (batches_.size() <= kDepth / 2) changed_.notify_all();
    return true;
  }
  // The consumer gives up (an error): the reader's next Push says so.
  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<std::vector<events::EventBuffer>> batches_;
  bool finished_ = false;
  bool stopped_ = false;
  absl::Status end_;
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

  if (!long_scan) {
    NoPerfCounters no_perf;
    absl::Status checked;
    absl::Status read = ReadEvents(
        it.get(), range, [&checker, &checked](events::EventBuffer event) {
          checked = checker.Check(event);
          return checked.ok();
        });
    return checked.ok() ? read : checked;
  }

  // A long scan runs in two threads: this one hashes, checks the chain and
  // visits; a reader thread iterates, decompresses, copies and verifies the
  // next batches meanwhile. The order of events, and of errors, is the
  // sequential one: the checker sees every event the reader produced before
  // the reader's own error, and stops the reader at its first error.
  BatchQueue queue;
  std::thread reader([&queue, &range, &it] {
    NoPerfCounters no_perf;
    std::vector<events::EventBuffer> batch;
    batch.reserve(BatchQueue::kBatch);
    absl::Status end =
        ReadEvents(it.get(), range, [&queue, &batch](events::EventBuffer event) {
          batch.push_back(std::move(event));
          if (batch.size() < BatchQueue::kBatch) return true;
          const bool more = queue.Push(std::move(batch));
          batch = std::vector<events::EventBuffer>();
          batch.reserve(BatchQueue::kBatch);
          return more;
        });
    if (!batch.empty()) (void)queue.Push(std::move(batch));
    queue.Finish(std::move(end));
  });
  absl::Status checked;
  absl::Status read;
  std::vector<events::EventBuffer> batch;
  while (checked.ok() && queue.Pop(&batch, &read)) {
    for (events::EventBuffer& event : batch) {
      checked = checker.Check(event);
      if (!checked.ok()) break;
    }
  }
  if (!checked.ok()) queue.Stop();
  reader.join();
  return checked.ok() ? read : checked;
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
