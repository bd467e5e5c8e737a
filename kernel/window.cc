#include "kernel/window.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/internal/emit.h"

namespace combat::kernel {
namespace {

bool Answered(const Window& w, const std::string& who) {
  return std::find(w.answered.begin(), w.answered.end(), who) != w.answered.end();
}

std::string OpenIds(const State& s) {
  if (s.windows.empty()) return "no window is open";
  std::vector<std::string> ids;
  for (const auto& [id, w] : s.windows) ids.push_back(absl::StrCat(id));
  return absl::StrCat("open: ", absl::StrJoin(ids, ", "));
}

}  // namespace

absl::StatusOr<uint32_t> OpenWindow(Decision& d, const WindowSpec& spec,
                                    const Why& why) {
  fb::WindowOpenedT t;
  t.id = d.state().next_window_id;
  t.trigger = spec.trigger;
  t.kind = spec.kind;
  t.eligible = spec.eligible;
  t.policy = spec.policy;
  t.pay = spec.pay;
  t.parent = spec.parent != 0 ? spec.parent : d.answering();
  if (t.parent != 0 && d.state().windows.count(t.parent) == 0) t.parent = 0;
  t.pending = spec.pending;
  const uint32_t id = t.id;
  RETURN_IF_ERROR(internal::Emit(d, why, internal::Union(std::move(t))));
  return id;
}

std::vector<std::string> MayAnswer(const Window& w) {
  std::vector<std::string> out;
  for (const std::string& e : w.eligible) {
    if (Answered(w, e)) continue;
    out.push_back(e);
    if (w.policy == fb::AnswerPolicy::InOrder) break;
  }
  return out;
}

bool AllAnswered(const Window& w) {
  for (const std::string& e : w.eligible) {
    if (!Answered(w, e)) return false;
  }
  return true;
}

uint32_t WindowFor(const State& s, uint64_t trigger) {
  for (const auto& [id, w] : s.windows) {
    if (w.trigger == trigger) return id;
  }
  return 0;
}

const Window* InnermostWindow(const State& s) {
  return s.windows.empty() ? nullptr : &s.windows.rbegin()->second;
}

absl::Status CheckAnswer(const State& s, const fb::CommandT& c,
                         const std::string& cite) {
  auto it = s.windows.find(c.window);
  if (c.window == 0 || it == s.windows.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("command '", c.action, "': field 'window': window ", c.window,
                     " is not open (", OpenIds(s), ")"));
  }
  const Window& w = it->second;
  if (std::find(w.eligible.begin(), w.eligible.end(), c.actor) == w.eligible.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat(c.actor, " may not answer window ", w.id, " (eligible: ",
                     absl::StrJoin(w.eligible, ", "), ") (", cite, ")"));
  }
  if (Answered(w, c.actor)) {
    return absl::FailedPreconditionError(absl::StrCat(
        c.actor, " has already answered window ", w.id, " (", cite, ")"));
  }
  const std::vector<std::string> may = MayAnswer(w);
  if (std::find(may.begin(), may.end(), c.actor) == may.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("window ", w.id, ": it is ", may.empty() ? "nobody" : may.front(),
                     "'s answer (", cite, ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Answer(Decision& d, const fb::CommandT& c) {
  return d.Interrupt(c, c.window);
}

absl::StatusOr<std::optional<PendingAct>> CloseWindow(Decision& d, uint32_t id,
                                                      const std::string& outcome,
                                                      const Why& why) {
  auto it = d.state().windows.find(id);
  if (it == d.state().windows.end()) {
    return absl::NotFoundError(absl::StrCat("window ", id, " is not open"));
  }
  std::optional<PendingAct> held;
  if (const PendingAct* p = d.state().FindPending(it->second.pending)) held = *p;
  fb::WindowClosedT t;
  t.id = id;
  t.outcome = outcome;
  RETURN_IF_ERROR(internal::Emit(d, why, internal::Union(std::move(t))));
  return held;
}

absl::StatusOr<std::vector<WindowAnswer>> AnswersOf(const Decision& d, uint32_t id) {
  auto it = d.state().windows.find(id);
  if (it == d.state().windows.end()) {
    return absl::NotFoundError(absl::StrCat("window ", id, " is not open"));
  }
  std::vector<WindowAnswer> out;
  for (uint64_t seq : it->second.answer_seqs) {
    WindowAnswer a;
    a.seq = seq;
    RETURN_IF_ERROR(d.Lookup(seq, [&](const fb::Event& e) {
      if (e.body_type() != fb::Body::Interrupt ||
          e.body_as_Interrupt()->command() == nullptr) {
        return absl::DataLossError(absl::StrCat("event ", seq, " is not an answer"));
      }
      e.body_as_Interrupt()->command()->UnPackTo(&a.command);
      return absl::OkStatus();
    }));
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace combat::kernel
