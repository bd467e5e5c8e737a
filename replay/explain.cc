#include "replay/explain.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/nearest.h"
#include "events/status_macros.h"
#include "kernel/fold.h"
#include "replay/explain_pending.h"
#include "replay/recorded.h"
#include "replay/render.h"
#include "replay/state_text.h"

namespace combat::replay {
namespace {

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

// The declaration (or interrupt, or ruling) an event resolves.
uint64_t CauseOf(const fb::Event& e) {
  if (e.body_type() == fb::Body::Declaration || e.body_type() == fb::Body::Interrupt) {
    return e.seq();
  }
  if (e.body_type() == fb::Body::StateChange && e.body_as_StateChange()->cause() != 0) {
    return e.body_as_StateChange()->cause();
  }
  return e.cause();
}

std::string Who(const fb::Event& e) {
  std::string author = S(e.author());
  return absl::StrCat(author.empty() ? "system" : author, " (",
                      fb::EnumNameRole(e.role()), ")");
}

class Explainer {
 public:
  Explainer(store::EventLog& log, const kernel::Ruleset* rules,
            const ExplainRequest& req, const kernel::State& at_state)
      : log_(log), rules_(rules), req_(req), state_(at_state) {}

  std::string RuleLine(const std::string& id) const {
    if (id.empty()) return "";
    if (rules_ != nullptr) {
      for (const kernel::RuleRef& r : rules_->Rules()) {
        if (r.id != id) continue;
        return absl::StrCat("rule ", id, ": ", r.seed.empty() ? "(no seed file)" : r.seed,
                            ", \"", r.section, "\"", r.line > 0 ? absl::StrCat(", line ", r.line) : "",
                            r.summary.empty() ? "" : absl::StrCat(": ", r.summary));
      }
    }
    return absl::StrCat("rule ", id, " (not in ",
                        rules_ == nullptr ? "a ruleset this build has" : "the ruleset's rule table",
                        ")");
  }

  std::string Status(const fb::Event& e) const {
    if (kernel::IsVoided(e, state_.voided)) return "  [VOIDED: no longer counts]";
    if (std::binary_search(state_.unapplied.begin(), state_.unapplied.end(), e.seq())) {
      return "  [no longer applies after a void]";
    }
    return "";
  }

  // One event in full: the line, who, the rule, the numbers.
  std::string Full(const fb::Event& e, const std::string& indent) const {
    std::string out = absl::StrCat(indent, RenderEvent(e), Status(e), "\n");
    absl::StrAppend(&out, indent, "    by ", Who(e), ", command ", S(e.command_id()), "\n");
    if (e.body_type() == fb::Body::StateChange) {
      const fb::StateChange* sc = e.body_as_StateChange();
      const std::string rule = RuleLine(S(sc->rule()));
      if (!rule.empty()) absl::StrAppend(&out, indent, "    ", rule, "\n");
      if (sc->numbers() != nullptr && sc->numbers()->size() > 0) {
        // Plain numbers on one line; a modifier with its source or rule
        // on a line of its own, with the rule's section and seed line.
        std::vector<std::string> nums;
        std::string sourced;
        for (const fb::Number* n : *sc->numbers()) {
          if (S(n->source()).empty() && S(n->rule()).empty()) {
            nums.push_back(RenderNumber(*n));
            continue;
          }
          absl::StrAppend(&sourced, indent, "    modifier ", RenderNumber(*n), "\n");
          const std::string line = RuleLine(S(n->rule()));
          if (!line.empty()) absl::StrAppend(&sourced, indent, "      ", line, "\n");
        }
        if (!nums.empty()) {
          absl::StrAppend(&out, indent, "    numbers used: ", absl::StrJoin(nums, ", "), "\n");
        }
        out += sourced;
      }
    }
    if (e.body_type() == fb::Body::Roll) absl::StrAppend(&out, Dice(e, indent + "    "));
    return out;
  }

  // Every die of a roll with its provenance, and the arithmetic.
  std::string Dice(const fb::Event& e, const std::string& indent) const {
    const fb::Roll* r = e.body_as_Roll();
    std::string out;
    std::vector<std::string> kept;
    if (r->dice() != nullptr) {
      for (const fb::Die* d : *r->dice()) {
        absl::StrAppend(&out, indent, "d", d->faces(), " = ", d->value(),
                        " (roll index ", d->index(), ", ",
                        ProvenanceLabel(d->provenance(), S(r->reason())), ")",
                        d->kept() ? "" : " dropped", d->exploded() ? " exploded" : "",
                        "\n");
        if (d->kept()) kept.push_back(absl::StrCat(d->value()));
      }
    }
    absl::StrAppend(&out, indent, "arithmetic: ", S(r->expression()), " = ",
                    kept.empty() ? "0" : absl::StrJoin(kept, " + "),
                    r->modifier() != 0 ? absl::StrCat(r->modifier() > 0 ? " + " : " - ",
                                                      std::abs(r->modifier()))
                                       : "",
                    " = ", r->total(),
                    r->successes() != 0 ? absl::StrCat(" (", r->successes(), " successes)") : "",
                    "\n");
    return out;
  }

  // The whole story of one event.
  absl::StatusOr<std::string> Event(uint64_t seq, uint64_t upto) {
    ASSIGN_OR_RETURN(auto evs, log_.Read(req_.session, req_.branch, seq, seq));
    const events::EventBuffer target = evs.front();
    const fb::Event& e = target.event();
    std::string out = absl::StrCat("event #", seq, ":\n", Full(e, "  "));
    if (ChangesPending(e)) {
      ASSIGN_OR_RETURN(std::string decl, PendingDeclaration(log_, req_.session, req_.branch,
                                                            PendingIdOf(e), upto));
      absl::StrAppend(&out, decl);
    }
    const uint64_t cause = CauseOf(e);
    if (cause == 0) {
      absl::StrAppend(&out, "  part of ", S(e.command_id()) == "setup"
                                              ? std::string("the session's set-up")
                                              : absl::StrCat("command ", S(e.command_id())),
                      " (no declaration caused it)\n");
    }
    // Everything on the way: the cause and what it caused, rulings and
    // voids naming any of them.
    std::vector<events::EventBuffer> caused, rulings, voids;
    std::optional<events::EventBuffer> decl;
    std::set<uint64_t> related = {seq};
    if (cause != 0) related.insert(cause);
    RETURN_IF_ERROR(log_.Scan(
        req_.session, req_.branch, cause == 0 ? seq : std::min(cause, seq), upto,
        [&](const events::EventBuffer& b) {
          const fb::Event& x = b.event();
          if (cause != 0 && x.seq() == cause) {
            decl = b;
          } else if (cause != 0 && CauseOf(x) == cause) {
            caused.push_back(b);
            related.insert(x.seq());
          }
          if (x.body_type() == fb::Body::StateChange) {
            const fb::StateChange* sc = x.body_as_StateChange();
            if (const auto* ru = sc->change_as_Ruling();
                ru != nullptr && ru->subject() != 0 && related.count(ru->subject()) != 0) {
              rulings.push_back(b);
            }
            if (const auto* v = sc->change_as_Voided();
                v != nullptr && related.count(v->target()) != 0) {
              voids.push_back(b);
            }
          }
          return absl::OkStatus();
        }));
    if (decl.has_value()) {
      const fb::Event& d = decl->event();
      absl::StrAppend(&out, "because of #", cause, ", ",
                      d.body_type() == fb::Body::Interrupt ? "an interrupt" : "a declaration",
                      " by ", Who(d), ":\n  ", RenderEvent(d), Status(d), "\n");
      if (d.body_type() == fb::Body::Interrupt) {
        ASSIGN_OR_RETURN(std::string window, Window(d.body_as_Interrupt()->window(), cause));
        absl::StrAppend(&out, window);
      }
      std::string dice;
      for (const auto& b : caused) {
        if (b.event().body_type() != fb::Body::Roll) continue;
        absl::StrAppend(&dice, "  ", RenderEvent(b.event()), Status(b.event()), "\n",
                        Dice(b.event(), "      "));
      }
      if (!dice.empty()) absl::StrAppend(&out, "  dice:\n", dice);
      std::string changes;
      std::set<std::string> rules_seen;
      for (const auto& b : caused) {
        if (b.event().body_type() != fb::Body::StateChange) continue;
        const fb::StateChange* sc = b.event().body_as_StateChange();
        absl::StrAppend(&changes, "    ", RenderEvent(b.event()), Status(b.event()),
                        b.event().seq() == seq ? "   <- this event" : "", "\n");
        rules_seen.insert(S(sc->rule()));
      }
      if (!changes.empty()) {
        absl::StrAppend(&out, "  what it caused (modifiers and results, with the rules applied):\n",
                        changes);
        for (const std::string& r : rules_seen) {
          if (!r.empty()) absl::StrAppend(&out, "      ", RuleLine(r), "\n");
        }
      }
    }
    if (!rulings.empty()) {
      absl::StrAppend(&out, "GM rulings on the way:\n");
      for (const auto& b : rulings) {
        absl::StrAppend(&out, "  ", RenderEvent(b.event()), "  (by ", Who(b.event()), ")\n");
      }
    }
    if (!voids.empty()) {
      absl::StrAppend(&out, "voids:\n");
      for (const auto& b : voids) {
        absl::StrAppend(&out, "  ", RenderEvent(b.event()), "  (by ", Who(b.event()), ")\n");
      }
    }
    const std::string st = Status(e);
    absl::StrAppend(&out, "as of #", upto, ": event #", seq,
                    st.empty() ? " counts" : st.substr(2), "\n");
    return out;
  }

  // The window an interrupt answered, and what opened it.
  absl::StatusOr<std::string> Window(uint32_t id, uint64_t before) {
    std::string out;
    uint64_t trigger = 0;
    RETURN_IF_ERROR(log_.Scan(req_.session, req_.branch, 1, before,
                              [&](const events::EventBuffer& b) {
                                const fb::Event& x = b.event();
                                if (x.body_type() != fb::Body::StateChange) return absl::OkStatus();
                                const auto* w = x.body_as_StateChange()->change_as_WindowOpened();
                                if (w != nullptr && w->id() == id) {
                                  absl::StrAppend(&out, "  into ", RenderEvent(x), "\n");
                                  trigger = w->trigger();
                                }
                                return absl::OkStatus();
                              }));
    if (trigger != 0) {
      ASSIGN_OR_RETURN(auto t, log_.Read(req_.session, req_.branch, trigger, trigger));
      absl::StrAppend(&out, "  which interrupts ", RenderEvent(t.front().event()), "  (by ",
                      Who(t.front().event()), ")\n");
    }
    return out;
  }

 private:
  store::EventLog& log_;
  const kernel::Ruleset* rules_;
  const ExplainRequest& req_;
  const kernel::State& state_;
};

// True when `e` changes the value the request asks about.
bool Touches(const fb::Event& e, const ExplainRequest& req) {
  if (e.body_type() != fb::Body::StateChange) return false;
  if (req.pending != 0) return PendingIdOf(e) == req.pending;
  const fb::StateChange* sc = e.body_as_StateChange();
  const std::string& who = req.combatant;
  if (!req.resource.empty()) {
    if (const auto* r = sc->change_as_ResourceSet()) {
      return S(r->actor()) == who && S(r->name()) == req.resource;
    }
    if (const auto* r = sc->change_as_ResourceChanged()) {
      return S(r->actor()) == who && S(r->name()) == req.resource;
    }
    return false;
  }
  if (!req.condition.empty()) {
    if (const auto* c = sc->change_as_ConditionAdded()) {
      return S(c->actor()) == who && S(c->name()) == req.condition;
    }
    if (const auto* c = sc->change_as_ConditionRemoved()) {
      return S(c->actor()) == who && S(c->name()) == req.condition;
    }
    return false;
  }
  if (const auto* m = sc->change_as_Moved()) return S(m->actor()) == who;
  if (const auto* j = sc->change_as_CombatantJoined()) {
    return j->spec() != nullptr && S(j->spec()->id()) == who;
  }
  return false;
}

// What a combatant's value is at `upto`, in one line.
absl::StatusOr<std::string> ValueNow(const ExplainRequest& req, const kernel::State& state,
                                     uint64_t upto) {
  if (req.combatant.empty() ||
      (req.resource.empty() && req.condition.empty() && !req.position)) {
    return absl::InvalidArgumentError(
        "explain: give an event, a pending act, or a combatant with a resource, "
        "a condition or the position");
  }
  const kernel::Combatant* c = state.Find(req.combatant);
  if (c == nullptr) {
    std::vector<std::string> ids;
    for (const auto& [id, unused] : state.combatants) ids.push_back(id);
    return absl::NotFoundError(absl::StrCat(
        events::NoSuchName("combatant", "combatants", req.combatant, ids), " at #", upto));
  }
  if (!req.resource.empty()) {
    auto it = c->resources.find(req.resource);
    if (it != c->resources.end()) {
      return absl::StrCat(req.combatant, " ", req.resource, " = ", it->second);
    }
    std::vector<std::string> names;
    for (const auto& [name, unused] : c->resources) names.push_back(name);
    return absl::StrCat(req.combatant, " ", req.resource, " = (not set; ",
                        events::NoSuchName("resource", "resources", req.resource, names),
                        ")");
  }
  if (!req.condition.empty()) {
    return absl::StrCat(req.combatant, c->Has(req.condition) ? " has " : " does not have ",
                        req.condition);
  }
  return absl::StrCat(req.combatant, " is at (", c->at.x, ",", c->at.y, ")");
}

}  // namespace

std::string ProvenanceLabel(fb::Provenance p, const std::string& reason) {
  switch (p) {
    case fb::Provenance::Seeded:
      return "seeded: from the session's committed seed";
    case fb::Provenance::Manual:
      return "manual: physical dice entered at the table";
    case fb::Provenance::GmOverride:
      return absl::StrCat("GM override", reason.empty() ? "" : absl::StrCat(": ", reason));
  }
  return "?";
}

absl::StatusOr<std::string> Explain(store::EventLog& log, const kernel::Ruleset* rules,
                                    const ExplainRequest& req, const SeekOptions& seek) {
  ASSIGN_OR_RETURN(store::Head head, log.GetHead(req.session, req.branch));
  const uint64_t upto = req.at == 0 ? head.seq : req.at;
  if (upto > head.seq) {
    return absl::OutOfRangeError(absl::StrCat("branch ", req.branch, " has ", head.seq,
                                              " events; no event ", upto));
  }
  ASSIGN_OR_RETURN(kernel::State state, Seek(log, req.session, req.branch, upto, seek));
  Explainer x(log, rules, req, state);
  std::string out = absl::StrCat("explain ", req.session, "/", req.branch, " as of #", upto,
                                 "\n");
  if (req.event != 0) {
    if (req.event > upto) {
      return absl::NotFoundError(absl::StrCat("no event ", req.event, " at or before #", upto));
    }
    ASSIGN_OR_RETURN(std::string text, x.Event(req.event, upto));
    return out + text;
  }
  std::string what;
  if (req.pending != 0) {
    const kernel::PendingAct* p = state.FindPending(req.pending);
    what = p == nullptr
               ? absl::StrCat("pending #", req.pending, " is not open")
               : absl::StrCat("pending #", req.pending, " is open: ",
                              JoinFields(PendingFields(
                                  *p, rules != nullptr ? rules->display() : kernel::Display())));
  } else {
    ASSIGN_OR_RETURN(what, ValueNow(req, state, upto));
  }
  absl::StrAppend(&out, what, "\nhistory:\n");
  std::vector<events::EventBuffer> history;
  RETURN_IF_ERROR(log.Scan(req.session, req.branch, 1, upto, [&](const events::EventBuffer& b) {
    if (Touches(b.event(), req)) history.push_back(b);
    return absl::OkStatus();
  }));
  if (history.empty()) absl::StrAppend(&out, "  (no event changed it)\n");
  uint64_t last = 0;
  for (const auto& b : history) {
    const fb::Event& e = b.event();
    const uint64_t cause = CauseOf(e);
    std::string because = "set-up";
    if (cause != 0) {
      ASSIGN_OR_RETURN(auto d, log.Read(req.session, req.branch, cause, cause));
      because = absl::StrCat("because of ", RenderEvent(d.front().event()));
    }
    absl::StrAppend(&out, "  ", RenderEvent(e), x.Status(e), "\n      ", because, "\n");
    if (x.Status(e).empty()) last = e.seq();
  }
  // A condition in force: the change that counts is the addition of the
  // instance in force (the latest, when several are), not the last event
  // naming it, which may be the removal of another instance of it.
  if (const kernel::Combatant* c = state.Find(req.combatant);
      c != nullptr && !req.condition.empty()) {
    uint64_t added = 0;
    for (const auto& [id, cond] : c->conditions) {
      if (cond.name == req.condition) added = std::max(added, cond.added_at);
    }
    if (added != 0) last = added;
  }
  if (last != 0) {
    ASSIGN_OR_RETURN(std::string text, x.Event(last, upto));
    absl::StrAppend(&out, "the last change that counts, explained:\n", text);
  }
  return out;
}

}  // namespace combat::replay
