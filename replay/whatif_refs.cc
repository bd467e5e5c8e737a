#include "replay/whatif_refs.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace combat::replay {
namespace {

// The ids of the windows (or pending acts) `events` open, in order.
std::vector<uint32_t> WindowsOpened(const std::vector<events::EventBuffer>& events) {
  std::vector<uint32_t> ids;
  for (const events::EventBuffer& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr) continue;
    if (const auto* w = sc->change_as_WindowOpened(); w != nullptr) ids.push_back(w->id());
  }
  return ids;
}

std::vector<uint32_t> PendingOpened(const std::vector<events::EventBuffer>& events) {
  std::vector<uint32_t> ids;
  for (const events::EventBuffer& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr) continue;
    if (const auto* p = sc->change_as_PendingOpened(); p != nullptr) ids.push_back(p->id());
  }
  return ids;
}

// The k-th id `now` opens for the k-th `was` opened.
void Zip(const std::vector<uint32_t>& was, const std::vector<uint32_t>& now,
         std::map<uint32_t, uint32_t>& moved) {
  for (size_t i = 0; i < was.size() && i < now.size(); ++i) moved[was[i]] = now[i];
}

// Whether a legacy command param names a window (the interrupt's own
// `window` field aside): "window", "also_window", ...
bool NamesWindow(const std::string& key) { return absl::EndsWith(key, "window"); }

}  // namespace

RefFollower::RefFollower(std::string parent, uint64_t fork_seq,
                         const kernel::State& at_fork,
                         const std::vector<RecordedCommand>& later)
    : parent_(std::move(parent)),
      fork_seq_(fork_seq),
      first_new_window_(at_fork.next_window_id),
      last_pending_at_fork_(at_fork.last_pending_id) {
  for (const RecordedCommand& c : later) {
    for (uint32_t id : WindowsOpened(c.events)) window_opened_by_[id] = c.first;
    for (uint32_t id : PendingOpened(c.events)) pending_opened_by_[id] = c.first;
  }
}

void RefFollower::Rerun(const RecordedCommand& parent_cmd,
                        const std::vector<events::EventBuffer>& decided,
                        uint64_t first_seq) {
  Zip(WindowsOpened(parent_cmd.events), WindowsOpened(decided), windows_moved_);
  Zip(PendingOpened(parent_cmd.events), PendingOpened(decided), pending_moved_);
  if (decided.size() == parent_cmd.events.size()) {
    for (size_t i = 0; i < decided.size(); ++i) moved_[parent_cmd.first + i] = first_seq + i;
  } else if (parent_cmd.declared_at != 0) {
    moved_[parent_cmd.declared_at] = first_seq;
  }
}

std::optional<std::string> RefFollower::FollowSeq(uint64_t& seq,
                                                  const std::string& what) const {
  if (seq == 0 || seq <= fork_seq_) return std::nullopt;
  auto it = moved_.find(seq);
  if (it == moved_.end()) {
    return absl::StrCat(what, ", event ", parent_, "#", seq, ", was not re-run on this branch");
  }
  seq = it->second;
  return std::nullopt;
}

std::optional<std::string> RefFollower::FollowWindow(uint32_t& window,
                                                     const std::string& what) const {
  return FollowOpened(window, window < first_new_window_, windows_moved_,
                      window_opened_by_, what + " ");
}

std::optional<std::string> RefFollower::FollowPending(uint32_t& pending,
                                                      const std::string& what) const {
  return FollowOpened(pending, pending <= last_pending_at_fork_, pending_moved_,
                      pending_opened_by_, what + " #");
}

std::optional<std::string> RefFollower::FollowOpened(
    uint32_t& id, bool open_at_fork, const std::map<uint32_t, uint32_t>& moved,
    const std::map<uint32_t, uint64_t>& opened_by, const std::string& what) const {
  if (id == 0 || open_at_fork) return std::nullopt;
  if (auto it = moved.find(id); it != moved.end()) {
    id = it->second;
    return std::nullopt;
  }
  auto by = opened_by.find(id);
  return absl::StrCat(what, id,
                      by == opened_by.end()
                          ? std::string(" was not opened by a re-run command")
                          : absl::StrCat(", opened by ", parent_, "#", by->second,
                                         ", was not opened again on this branch"));
}

std::optional<std::string> RefFollower::Follow(fb::CommandT& cmd) const {
  if (auto why = FollowWindow(cmd.window, "its window"); why.has_value()) return why;
  if (cmd.refs.empty()) return FollowLegacyParams(cmd);
  for (auto& ref : cmd.refs) {
    if (!ref) continue;
    const std::string field = absl::StrCat("refs[key=", ref->key, "]: ");
    if (auto why = FollowSeq(ref->seq, field + "its seq"); why.has_value()) return why;
    if (auto why = FollowWindow(ref->window, field + "its window"); why.has_value()) return why;
    if (auto why = FollowPending(ref->pending, field + "its pending act"); why.has_value()) {
      return why;
    }
  }
  return std::nullopt;
}

std::optional<std::string> RefFollower::FollowLegacyParams(fb::CommandT& cmd) const {
  const bool gm = absl::StartsWith(cmd.action, "gm_");
  for (auto& p : cmd.params) {
    if (!p || p->value <= 0) continue;
    if (gm && p->key == "subject") {
      uint64_t seq = static_cast<uint64_t>(p->value);
      if (auto why = FollowSeq(seq, "its subject"); why.has_value()) return why;
      p->value = static_cast<int64_t>(seq);
    } else if (NamesWindow(p->key) && p->value <= UINT32_MAX) {
      uint32_t window = static_cast<uint32_t>(p->value);
      if (auto why = FollowWindow(window, "its " + p->key); why.has_value()) return why;
      p->value = window;
    }
  }
  return std::nullopt;
}

}  // namespace combat::replay
