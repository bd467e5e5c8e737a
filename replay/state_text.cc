#include "replay/state_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "replay/render.h"

namespace combat::replay {
namespace {

std::string Id(uint32_t id) { return id == 0 ? "none" : absl::StrCat("#", id); }
std::string Seq(uint64_t seq) { return seq == 0 ? "none" : absl::StrCat("#", seq); }

}  // namespace

std::string ListText(const std::vector<std::string>& v) {
  return v.empty() ? "none" : absl::StrJoin(v, ", ");
}

std::string SeqsText(const std::vector<uint64_t>& v) {
  if (v.empty()) return "none";
  std::vector<std::string> s;
  for (uint64_t x : v) s.push_back(absl::StrCat("#", x));
  return absl::StrJoin(s, " ");
}

std::string ExpiryText(const kernel::Expiry& e) {
  if (e.kind == fb::ExpiryKind::Never) return "never";
  return absl::StrCat(fb::EnumNameExpiryKind(e.kind),
                      e.actor.empty() ? "" : absl::StrCat(" of ", e.actor), " round ",
                      e.round);
}

std::string TriggerText(const kernel::Trigger& t) {
  if (t.kind == fb::TriggerKind::None) return "none";
  std::string out = fb::EnumNameTriggerKind(t.kind);
  if (!t.name.empty()) absl::StrAppend(&out, " ", t.name);
  if (!t.by.empty()) absl::StrAppend(&out, " by ", t.by);
  if (!t.against.empty()) absl::StrAppend(&out, " against ", t.against);
  if (t.hostile_only) absl::StrAppend(&out, " (hostile only)");
  if (t.square.has_value()) {
    absl::StrAppend(&out, " at (", t.square->x, ",", t.square->y, ")");
  }
  if (t.reach != 0) absl::StrAppend(&out, ", reach ", t.reach);
  return out;
}

std::string OrderText(const std::vector<kernel::OrderEntry>& order) {
  if (order.empty()) return "none";
  std::vector<std::string> e;
  for (const kernel::OrderEntry& o : order) {
    e.push_back(absl::StrCat(
        o.actor, "(", o.initiative,
        o.members.empty() ? "" : absl::StrCat(", with ", absl::StrJoin(o.members, ", ")),
        o.delayed ? ", delayed" : "", ")"));
  }
  return absl::StrJoin(e, " > ");
}

Fields PendingFields(const kernel::PendingAct& p, const kernel::Display& display) {
  std::vector<std::string> reacted;
  for (const std::string& r : p.reacted) reacted.push_back(kernel::ReactedText(display, r));
  return {
      {"kind", p.kind},
      {"actor", p.actor},
      {"decl", Seq(p.decl)},
      {"command", RenderCommand(p.command)},
      {"cost", absl::StrCat("paid ", p.cost_paid, " of ", p.cost_due,
                            p.budget.empty() ? "" : absl::StrCat(" ", p.budget))},
      {"progress", absl::StrCat(p.progress)},
      {"span", fb::EnumNameSpan(p.span)},
      {"trigger", TriggerText(p.trigger)},
      {"expiry", ExpiryText(p.expiry)},
      {"reacted", ListText(reacted)},
      {"opened at", Seq(p.opened_at)},
  };
}

Fields WindowFields(const kernel::Window& w) {
  return {
      {"kind", w.kind},
      {"trigger", Seq(w.trigger)},
      {"eligible", ListText(w.eligible)},
      {"answered", ListText(w.answered)},
      {"answer seqs", SeqsText(w.answer_seqs)},
      {"policy", fb::EnumNameAnswerPolicy(w.policy)},
      {"pay", fb::EnumNamePayWhen(w.pay)},
      {"parent", w.parent == 0 ? "none" : absl::StrCat("window ", w.parent)},
      {"pending", Id(w.pending)},
      {"opened at", Seq(w.opened_at)},
  };
}

std::string PoolText(const std::map<std::string, int64_t>& counters) {
  std::vector<std::string> out;
  for (const auto& [name, value] : counters) out.push_back(absl::StrCat(name, "=", value));
  return ListText(out);
}

std::string JoinFields(const Fields& fields) {
  std::vector<std::string> out;
  for (const auto& [k, v] : fields) out.push_back(absl::StrCat(k, ": ", v));
  return absl::StrJoin(out, "; ");
}

}  // namespace combat::replay
