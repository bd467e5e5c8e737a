#include "replay/render.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/hash.h"
#include "kernel/fold.h"
#include "kernel/window.h"
#include "replay/state_text.h"
#include "replay/state_view.h"

namespace combat::replay {
namespace {

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

// Whose counter a resource change is: its pool owner ("session",
// "side:party") when it names one (schema v5), else its combatant.
template <typename R>
std::string Owner(const R& r) {
  return r.pool() != nullptr && r.pool()->size() > 0 ? S(r.pool()) : S(r.actor());
}

std::string P(const fb::Pos* p) {
  return p ? absl::StrCat("(", p->x(), ",", p->y(), ")") : "(?)";
}

std::string Provenance(fb::Provenance p) {
  switch (p) {
    case fb::Provenance::Seeded:
      return "seeded";
    case fb::Provenance::Manual:
      return "manual";
    case fb::Provenance::GmOverride:
      return "GM override";
  }
  return "?";
}

std::string RenderCommand(const fb::Command* c) {
  if (c == nullptr) return "(no command)";
  std::string out = absl::StrCat(S(c->actor()).empty() ? "GM" : S(c->actor()),
                                  ": ", S(c->action()));
  if (c->targets() != nullptr && c->targets()->size() > 0) {
    std::vector<std::string> t;
    for (const auto* s : *c->targets()) t.push_back(s->str());
    absl::StrAppend(&out, " ", absl::StrJoin(t, ", "));
  }
  if (!S(c->weapon()).empty()) absl::StrAppend(&out, " with ", S(c->weapon()));
  if (c->path() != nullptr && c->path()->size() > 0) {
    std::vector<std::string> p;
    for (const fb::Pos* pos : *c->path()) p.push_back(P(pos));
    absl::StrAppend(&out, " via ", absl::StrJoin(p, " "));
  }
  if (c->params() != nullptr) {
    for (const fb::Param* prm : *c->params()) {
      absl::StrAppend(&out, " ", S(prm->key()), "=",
                      S(prm->text()).empty() ? absl::StrCat(prm->value())
                                             : S(prm->text()));
    }
  }
  if (c->refs() != nullptr) {
    for (const fb::Ref* r : *c->refs()) {
      std::vector<std::string> to;
      if (r->seq() != 0) to.push_back(absl::StrCat("#", r->seq()));
      if (r->window() != 0) to.push_back(absl::StrCat("window ", r->window()));
      if (r->pending() != 0) to.push_back(absl::StrCat("pending #", r->pending()));
      absl::StrAppend(&out, " ", S(r->key()), "->", to.empty() ? "none" : absl::StrJoin(to, "/"));
    }
  }
  if (!S(c->text()).empty()) absl::StrAppend(&out, " \"", S(c->text()), "\"");
  // A command recorded without an author (one a ruleset prepared, such as
  // a pending act's) says so rather than "(by , Player)".
  absl::StrAppend(&out, "  (",
                  S(c->author()).empty() ? "no author" : "by " + S(c->author()),
                  ", ", fb::EnumNameRole(c->role()), ")");
  return out;
}

std::string RenderChange(const fb::StateChange& sc) {
  switch (sc.change_type()) {
    case fb::Change::NONE:
      return "(empty)";
    case fb::Change::SessionStarted: {
      const auto* s = sc.change_as_SessionStarted();
      return absl::StrCat("session ", S(s->session()), " started: ",
                          S(s->ruleset()), " v", s->ruleset_version(),
                          ", schema v", s->schema_version(), ", \"",
                          S(s->title()), "\"");
    }
    case fb::Change::CombatantJoined: {
      const auto* spec = sc.change_as_CombatantJoined()->spec();
      // The roster name beside the id, and the controller when one is named.
      const std::string name = S(spec->name());
      return absl::StrCat(S(spec->id()),
                          name.empty() || name == S(spec->id()) ? "" : " \"" + name + "\"",
                          " joins (", S(spec->side()),
                          S(spec->controller()).empty()
                              ? ""
                              : absl::StrCat(", controlled by ", S(spec->controller())),
                          S(spec->player()).empty()
                              ? ""
                              : absl::StrCat(", played by ", S(spec->player())),
                          ") at ", P(spec->at()));
    }
    case fb::Change::RoundStarted:
      return absl::StrCat("round ", sc.change_as_RoundStarted()->round(),
                          " begins");
    case fb::Change::RoundEnded:
      return absl::StrCat("round ", sc.change_as_RoundEnded()->round(), " ends");
    case fb::Change::TurnStarted:
      return absl::StrCat(S(sc.change_as_TurnStarted()->actor()),
                          "'s turn begins");
    case fb::Change::TurnEnded:
      return absl::StrCat(S(sc.change_as_TurnEnded()->actor()),
                          "'s turn ends");
    case fb::Change::OrderSet: {
      std::vector<std::string> e;
      const auto* entries = sc.change_as_OrderSet()->entries();
      if (entries != nullptr) {
        for (const fb::OrderEntry* o : *entries) {
          e.push_back(absl::StrCat(S(o->actor()), "(", o->initiative(),
                                   o->delayed() ? ", delayed" : "", ")"));
        }
      }
      return absl::StrCat("order: ", absl::StrJoin(e, " > "));
    }
    case fb::Change::ResourceSet: {
      const auto* r = sc.change_as_ResourceSet();
      return absl::StrCat(Owner(*r), " ", S(r->name()), " = ", r->value());
    }
    case fb::Change::ResourceChanged: {
      const auto* r = sc.change_as_ResourceChanged();
      return absl::StrCat(Owner(*r), " ", S(r->name()), " ",
                          r->delta() >= 0 ? "+" : "", r->delta(), " -> ",
                          r->value());
    }
    case fb::Change::ConditionAdded: {
      const auto* c = sc.change_as_ConditionAdded();
      std::string out = absl::StrCat(S(c->actor()), " gains ", S(c->name()),
                                     " #", c->id());
      if (!S(c->relative_to()).empty()) {
        absl::StrAppend(&out, " (against ", S(c->relative_to()), ")");
      }
      if (c->level() != 0) absl::StrAppend(&out, " level ", c->level());
      if (c->expiry() != nullptr && c->expiry()->kind() != fb::ExpiryKind::Never) {
        absl::StrAppend(&out, ", until ",
                        fb::EnumNameExpiryKind(c->expiry()->kind()),
                        S(c->expiry()->actor()).empty() ? "" : " of ",
                        S(c->expiry()->actor()), " round ",
                        c->expiry()->round());
      }
      if (c->parent() != 0) absl::StrAppend(&out, ", daughter of #", c->parent());
      return out;
    }
    case fb::Change::ConditionRemoved: {
      const auto* c = sc.change_as_ConditionRemoved();
      return absl::StrCat(S(c->actor()), " loses ", S(c->name()), " #", c->id());
    }
    case fb::Change::Moved: {
      const auto* m = sc.change_as_Moved();
      return absl::StrCat(S(m->actor()), m->forced() ? " is moved " : " moves ",
                          P(m->from()), " -> ", P(m->to()), " (cost ",
                          m->cost(), ")");
    }
    case fb::Change::WindowOpened: {
      const auto* w = sc.change_as_WindowOpened();
      std::vector<std::string> e;
      if (w->eligible() != nullptr) {
        for (const auto* s : *w->eligible()) e.push_back(s->str());
      }
      return absl::StrCat("window ", w->id(), " (", S(w->kind()), ") opens on #",
                          w->trigger(), " for ",
                          e.empty() ? "nobody" : absl::StrJoin(e, ", "));
    }
    case fb::Change::WindowClosed: {
      const auto* w = sc.change_as_WindowClosed();
      return absl::StrCat("window ", w->id(), " closes: ", S(w->outcome()));
    }
    case fb::Change::Ruling: {
      const auto* r = sc.change_as_Ruling();
      return absl::StrCat("GM ruling (", S(r->kind()), ")",
                          r->subject() ? absl::StrCat(" on #", r->subject()) : "",
                          ": ", S(r->reason()));
    }
    case fb::Change::SessionEnded:
      return absl::StrCat("session ends: ", S(sc.change_as_SessionEnded()->reason()));
    case fb::Change::Voided: {
      const auto* v = sc.change_as_Voided();
      return absl::StrCat("VOID #", v->target(), " and what it caused: ",
                          S(v->reason()));
    }
    case fb::Change::SeedRevealed: {
      const auto* r = sc.change_as_SeedRevealed();
      if (r->next_commitment() != nullptr && r->next_commitment()->size() != 0) {
        return absl::StrCat(
            "dice seed revealed (seeded rolls can now be verified); a fresh secret is "
            "committed for the rest of the session: ",
            events::Hex(r->next_commitment()->data(), r->next_commitment()->size()));
      }
      return "dice seed revealed (seeded rolls can now be verified)";
    }
    case fb::Change::Outcome: {
      const std::string actor = S(sc.change_as_Outcome()->actor());
      return absl::StrCat(actor.empty() ? "" : actor + ": ", "outcome");
    }
    case fb::Change::PendingOpened: {
      const auto* p = sc.change_as_PendingOpened();
      std::string out = absl::StrCat("pending #", p->id(), " (", S(p->kind()), ") of ",
                                     S(p->actor()), " for #", p->decl(), ": ",
                                     RenderCommand(p->command()));
      if (p->cost_due() != 0) {
        absl::StrAppend(&out, "; paid ", p->cost_paid(), " of ", p->cost_due(), " ",
                        S(p->budget()));
      }
      if (p->progress() != 0) absl::StrAppend(&out, "; progress ", p->progress());
      if (p->trigger() != nullptr) {
        absl::StrAppend(&out, "; fires on ", fb::EnumNameTriggerKind(p->trigger()->kind()),
                        S(p->trigger()->by()).empty() ? "" : " by ",
                        S(p->trigger()->by()));
      }
      return out;
    }
    case fb::Change::PendingUpdated: {
      const auto* p = sc.change_as_PendingUpdated();
      std::string out = absl::StrCat("pending #", p->id(), ": progress ", p->progress());
      if (p->paid() != 0) absl::StrAppend(&out, ", paid ", p->paid(), " (", p->cost_paid(), " in all)");
      if (p->command() != nullptr) absl::StrAppend(&out, "; now ", RenderCommand(p->command()));
      return out;
    }
    case fb::Change::PendingClosed: {
      const auto* p = sc.change_as_PendingClosed();
      return absl::StrCat("pending #", p->id(), " ends: ", S(p->outcome()));
    }
    case fb::Change::BranchForked: {
      const auto* f = sc.change_as_BranchForked();
      return absl::StrCat("branch ", S(f->branch()), " forked from ", S(f->parent()),
                          " at #", f->fork_seq(), " by ", S(f->author()), ": \"",
                          S(f->reason()), "\"");
    }
  }
  return "(unknown change)";
}

}  // namespace

std::string RenderCommand(const fb::CommandT& command) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Command::Pack(fbb, &command));
  return RenderCommand(flatbuffers::GetRoot<fb::Command>(fbb.GetBufferPointer()));
}

std::string RenderEvent(const fb::Event& e) {
  std::string head = absl::StrCat("#", e.seq(), " ");
  switch (e.body_type()) {
    case fb::Body::NONE:
      return head + "(empty)";
    case fb::Body::Declaration:
      return absl::StrCat(head, "declare  ",
                          RenderCommand(e.body_as_Declaration()->command()));
    case fb::Body::Interrupt: {
      const auto* in = e.body_as_Interrupt();
      return absl::StrCat(head, "interrupt [window ", in->window(), "] ",
                          RenderCommand(in->command()));
    }
    case fb::Body::Roll: {
      const auto* r = e.body_as_Roll();
      std::vector<std::string> dice;
      std::string prov;
      if (r->dice() != nullptr) {
        for (const fb::Die* d : *r->dice()) {
          std::string s = absl::StrCat(d->value());
          if (!d->kept()) absl::StrAppend(&s, "(dropped)");
          if (d->exploded()) absl::StrAppend(&s, "!");
          dice.push_back(s);
          const std::string p = Provenance(d->provenance());
          if (prov.find(p) == std::string::npos) {
            absl::StrAppend(&prov, prov.empty() ? "" : "+", p);
          }
        }
      }
      std::string out = absl::StrCat(head, "roll     ", S(r->roller()), " ",
                                     S(r->purpose()), " ", S(r->expression()),
                                     ": [", absl::StrJoin(dice, " "), "]");
      if (r->modifier() != 0) {
        absl::StrAppend(&out, r->modifier() > 0 ? " +" : " ", r->modifier());
      }
      absl::StrAppend(&out, " = ", r->total());
      if (r->successes() != 0) absl::StrAppend(&out, " (", r->successes(), " successes)");
      absl::StrAppend(&out, " (", prov, ")");
      if (!S(r->reason()).empty()) absl::StrAppend(&out, " \"", S(r->reason()), "\"");
      return out;
    }
    case fb::Body::StateChange: {
      const auto* sc = e.body_as_StateChange();
      std::string out = absl::StrCat(head, "change   ", RenderChange(*sc), "  [",
                                     S(sc->rule()));
      if (sc->cause() != 0) absl::StrAppend(&out, "; cause #", sc->cause());
      absl::StrAppend(&out, "]");
      if (sc->numbers() != nullptr) {
        for (const fb::Number* n : *sc->numbers()) {
          absl::StrAppend(&out, " ", RenderNumber(*n));
        }
      }
      if (!S(sc->note()).empty()) absl::StrAppend(&out, " -- ", S(sc->note()));
      return out;
    }
  }
  return head + "(unknown)";
}

std::string RenderNumber(const fb::Number& n) {
  std::string out = absl::StrCat(S(n.key()), "=", n.value());
  const std::string source = S(n.source());
  const std::string rule = S(n.rule());
  if (source.empty() && rule.empty()) return out;
  absl::StrAppend(&out, " (", source.empty() ? "" : "from " + source,
                  !source.empty() && !rule.empty() ? ", " : "", rule, ")");
  return out;
}

std::string RenderAuthor(const fb::Event& e) {
  const fb::Command* c = nullptr;
  if (e.body_type() == fb::Body::Declaration) c = e.body_as_Declaration()->command();
  if (e.body_type() == fb::Body::Interrupt) c = e.body_as_Interrupt()->command();
  if (c != nullptr && S(c->author()) == S(e.author()) && c->role() == e.role()) {
    return "";
  }
  return absl::StrCat("  (by ", S(e.author()), ", ", fb::EnumNameRole(e.role()), ")");
}

std::string RenderAuthorChange(const fb::Event& e, std::string* last) {
  const std::string who =
      absl::StrCat("  (by ", S(e.author()), ", ", fb::EnumNameRole(e.role()), ")");
  const bool named = e.body_type() == fb::Body::Declaration ||
                     e.body_type() == fb::Body::Interrupt;
  const bool changed = who != *last;
  *last = who;
  return named || !changed ? "" : who;
}

std::string RenderEventAt(const fb::Event& event, const kernel::State& head) {
  std::string out = RenderEvent(event);
  if (kernel::IsVoided(event, head.voided)) {
    absl::StrAppend(&out, "  [VOIDED]");
  } else if (std::binary_search(head.unapplied.begin(), head.unapplied.end(),
                                event.seq())) {
    absl::StrAppend(&out, "  [no longer applies after a void]");
  }
  return out;
}

std::string RenderState(const kernel::State& s, const kernel::Display& display) {
  std::string out = absl::StrCat("session ", s.session, " (", s.ruleset, " v",
                                 s.ruleset_version, ") after event #", s.seq,
                                 "\n");
  if (s.ended) absl::StrAppend(&out, "ENDED: ", s.end_reason, "\n");
  absl::StrAppend(&out, "round ", s.round,
                  s.active.empty() ? "" : absl::StrCat(", ", s.active, "'s turn"),
                  s.active_members.empty()
                      ? ""
                      : absl::StrCat(" (shared with ", ListText(s.active_members), ")"),
                  "\n");
  if (!s.order.empty()) absl::StrAppend(&out, "order: ", OrderText(s.order), "\n");
  for (const auto& [id, c] : s.combatants) {
    // Id, roster name, side (and controller), position, game values with
    // their maxima; bookkeeping on a line of its own (state_view.h).
    absl::StrAppend(&out, "  ", id,
                    c.name.empty() || c.name == id ? "" : absl::StrCat(" (", c.name, ")"),
                    " [", c.side,
                    c.controller.empty() ? "" : absl::StrCat(", controlled by ", c.controller),
                    c.player.empty() ? "" : absl::StrCat(", played by ", c.player),
                    "] at (", c.at.x, ",", c.at.y, ")");
    const ResourceView view = ViewResources(c, display);
    for (const std::string& r : view.game) absl::StrAppend(&out, " ", r);
    if (!c.conditions.empty()) {
      std::vector<std::string> conds;
      for (const auto& [cid, cond] : c.conditions) {
        std::string t = cond.name;
        if (!cond.relative_to.empty()) absl::StrAppend(&t, "/vs ", cond.relative_to);
        if (cond.level != 0) absl::StrAppend(&t, ":", cond.level);
        conds.push_back(t);
      }
      absl::StrAppend(&out, " {", absl::StrJoin(conds, ", "), "}");
    }
    absl::StrAppend(&out, "\n");
    if (!view.bookkeeping.empty()) {
      absl::StrAppend(&out, "      bookkeeping: ", absl::StrJoin(view.bookkeeping, " "), "\n");
    }
  }
  if (!s.voided.empty()) {
    std::vector<std::string> v;
    for (uint64_t seq : s.voided) v.push_back(absl::StrCat("#", seq));
    absl::StrAppend(&out, "voided: ", absl::StrJoin(v, " "), "\n");
  }
  if (!s.unapplied.empty()) {
    std::vector<std::string> v;
    for (uint64_t seq : s.unapplied) v.push_back(absl::StrCat("#", seq));
    absl::StrAppend(&out, "no longer applied after a void: ", absl::StrJoin(v, " "), "\n");
  }
  for (const auto& [owner, counters] : s.pools) {
    absl::StrAppend(&out, "  pool ", owner, ": ", PoolText(counters), "\n");
  }
  for (const auto& [id, w] : s.windows) {
    // Who may answer now (kernel::MayAnswer: the policy's next in order, or
    // every eligible creature that has not answered), then the record.
    const std::vector<std::string> may = kernel::MayAnswer(w);
    absl::StrAppend(&out, "  window ", id, ": may answer now: ",
                    may.empty() ? "nobody" : absl::StrJoin(may, ", "), "; ",
                    JoinFields(WindowFields(w)), "\n");
  }
  for (const auto& [id, p] : s.pending) {
    Fields fields = PendingFields(p, display);
    std::string command;
    for (auto it = fields.begin(); it != fields.end(); ++it) {
      if (it->first != "command") continue;
      command = it->second;
      fields.erase(it);
      break;
    }
    absl::StrAppend(&out, "  pending #", id, ": ", JoinFields(fields), "\n      command: ",
                    command, "\n");
  }
  return out;
}

}  // namespace combat::replay
