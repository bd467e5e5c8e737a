#include "kernel/reducer.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/status_macros.h"

namespace combat::kernel {
namespace {

std::string Str(const flatbuffers::String* s) {
  return s == nullptr ? std::string() : s->str();
}

Pos ToPos(const fb::Pos* p) { return p == nullptr ? Pos{} : Pos{p->x(), p->y()}; }

Expiry ToExpiry(const fb::Expiry* e) {
  Expiry out;
  if (e == nullptr) return out;
  out.kind = e->kind();
  out.actor = Str(e->actor());
  out.round = e->round();
  return out;
}

Weapon ToWeapon(const fb::Weapon& w) {
  Weapon out;
  out.name = Str(w.name());
  out.damage = Str(w.damage());
  out.kind = Str(w.kind());
  out.category = Str(w.category());
  out.reach = w.reach();
  out.range_increment = w.range_increment();
  out.damage_type = Str(w.damage_type());
  if (w.numbers() != nullptr) {
    for (const fb::Number* n : *w.numbers()) out.numbers[Str(n->key())] = n->value();
  }
  return out;
}

class Applier {
 public:
  Applier(const fb::Event& event, State& state, Mode mode)
      : event_(event), s_(state), mode_(mode) {}

  absl::Status Run() {
    if (event_.seq() != s_.seq + 1) {
      return absl::DataLossError(absl::StrCat(
          "event seq ", event_.seq(), ": seq: expected ", s_.seq + 1));
    }
    if (mode_ == Mode::kVoided) {
      Consume();
      s_.seq = event_.seq();
      return absl::OkStatus();
    }
    if (event_.body_type() > fb::Body::MAX || (event_.body_type() != fb::Body::NONE &&
                                               event_.body() == nullptr)) {
      return Corrupt("body", "unknown type or missing value");
    }
    switch (event_.body_type()) {
      case fb::Body::NONE:
        return Corrupt("body", "missing");
      case fb::Body::Declaration:
        break;  // Recorded for audit and re-runs; it changes no state.
      case fb::Body::Interrupt:
        RETURN_IF_ERROR(ApplyInterrupt(*event_.body_as_Interrupt()));
        break;
      case fb::Body::Roll:
        RETURN_IF_ERROR(ApplyRoll(*event_.body_as_Roll()));
        break;
      case fb::Body::StateChange:
        RETURN_IF_ERROR(ApplyChange(*event_.body_as_StateChange()));
        break;
    }
    s_.seq = event_.seq();
    return absl::OkStatus();
  }

 private:
  // A check failed: the log is damaged (strict), or the event no longer
  // applies after a void (re-derivation).
  absl::Status Corrupt(absl::string_view field, absl::string_view why) const {
    const std::string msg =
        absl::StrCat("event seq ", event_.seq(), ": ", field, ": ", why);
    return mode_ == Mode::kStrict ? absl::DataLossError(msg)
                                  : absl::FailedPreconditionError(msg);
  }

  // Whether a numbering check (round, roll index, condition or window id)
  // is enforced: not while re-deriving, where voided events left gaps.
  bool Numbering() const { return mode_ == Mode::kStrict; }

  // The numbering a voided event consumed still counts.
  void Consume() {
    if (event_.body_type() == fb::Body::Roll) {
      const auto* dice = event_.body_as_Roll()->dice();
      if (dice != nullptr) {
        for (const fb::Die* d : *dice) {
          s_.next_roll_index = std::max(s_.next_roll_index, d->index() + 1);
        }
      }
    }
    if (event_.body_type() == fb::Body::StateChange) {
      const auto* sc = event_.body_as_StateChange();
      if (sc->change_type() == fb::Change::ConditionAdded) {
        s_.next_condition_id =
            std::max(s_.next_condition_id, sc->change_as_ConditionAdded()->id() + 1);
      }
      if (sc->change_type() == fb::Change::WindowOpened) {
        s_.next_window_id =
            std::max(s_.next_window_id, sc->change_as_WindowOpened()->id() + 1);
      }
    }
  }

  absl::StatusOr<Combatant*> Who(const flatbuffers::String* id,
                                 absl::string_view field) {
    Combatant* c = s_.FindMutable(Str(id));
    if (c == nullptr) {
      return Corrupt(field, absl::StrCat("no combatant '", Str(id), "'"));
    }
    return c;
  }

  // An interrupt (or a pass) answers its window.
  absl::Status ApplyInterrupt(const fb::Interrupt& in) {
    auto it = s_.windows.find(in.window());
    if (it == s_.windows.end()) {
      return Corrupt("interrupt.window",
                     absl::StrCat("window ", in.window(), " is not open"));
    }
    const std::string actor =
        in.command() == nullptr ? std::string() : Str(in.command()->actor());
    it->second.answered.push_back(actor);
    return absl::OkStatus();
  }

  absl::Status ApplyRoll(const fb::Roll& roll) {
    if (roll.dice() == nullptr) return absl::OkStatus();
    int64_t next = s_.next_roll_index;
    for (const fb::Die* d : *roll.dice()) {
      if (d->provenance() == fb::Provenance::GmOverride &&
          Str(roll.reason()).empty()) {
        return Corrupt("roll.reason", "a GM override needs a reason");
      }
      if (!Numbering() && d->index() >= next) next = d->index();
      if (d->index() != next) {
        return Corrupt("roll.dice.index",
                       absl::StrCat("expected ", next, ", got ", d->index()));
      }
      if (d->faces() < 1 || d->value() < 1 || d->value() > d->faces()) {
        return Corrupt("roll.dice.value",
                       absl::StrCat(d->value(), " on a d", d->faces()));
      }
      ++next;
    }
    s_.next_roll_index = next;
    return absl::OkStatus();
  }

  absl::Status ApplyChange(const fb::StateChange& sc) {
    if (sc.change_type() > fb::Change::MAX ||
        (sc.change_type() != fb::Change::NONE && sc.change() == nullptr)) {
      return Corrupt("change", "unknown type or missing value");
    }
    if (s_.session.empty() &&
        sc.change_type() != fb::Change::SessionStarted) {
      return Corrupt("change", "the first state change must be SessionStarted");
    }
    switch (sc.change_type()) {
      case fb::Change::NONE:
        return Corrupt("change", "missing");
      case fb::Change::SessionStarted:
        return SessionStarted(*sc.change_as_SessionStarted());
      case fb::Change::CombatantJoined:
        return CombatantJoined(*sc.change_as_CombatantJoined());
      case fb::Change::RoundStarted: {
        const auto& r = *sc.change_as_RoundStarted();
        if (r.round() != s_.round + 1 && (Numbering() || r.round() <= s_.round)) {
          return Corrupt("round", absl::StrCat("expected ", s_.round + 1));
        }
        s_.round = r.round();
        s_.acted.clear();
        return absl::OkStatus();
      }
      case fb::Change::RoundEnded: {
        const auto& r = *sc.change_as_RoundEnded();
        if (r.round() != s_.round) return Corrupt("round", "not the current round");
        if (!s_.active.empty()) return Corrupt("round", "a turn is still running");
        return absl::OkStatus();
      }
      case fb::Change::TurnStarted: {
        const auto& t = *sc.change_as_TurnStarted();
        if (!s_.active.empty()) {
          return Corrupt("actor", absl::StrCat("turn of '", s_.active,
                                               "' has not ended"));
        }
        ASSIGN_OR_RETURN(Combatant * c, Who(t.actor(), "actor"));
        s_.active = c->id;
        return absl::OkStatus();
      }
      case fb::Change::TurnEnded: {
        const auto& t = *sc.change_as_TurnEnded();
        if (s_.active != Str(t.actor())) {
          return Corrupt("actor", absl::StrCat("'", Str(t.actor()),
                                               "' is not the active combatant"));
        }
        s_.acted.push_back(s_.active);
        s_.active.clear();
        return absl::OkStatus();
      }
      case fb::Change::OrderSet: {
        std::vector<OrderEntry> order;
        const auto* entries = sc.change_as_OrderSet()->entries();
        if (entries != nullptr) {
          for (const fb::OrderEntry* e : *entries) {
            ASSIGN_OR_RETURN(Combatant * c, Who(e->actor(), "order.actor"));
            order.push_back({c->id, e->initiative(), e->delayed()});
          }
        }
        s_.order = std::move(order);
        return absl::OkStatus();
      }
      case fb::Change::ResourceSet: {
        const auto& r = *sc.change_as_ResourceSet();
        ASSIGN_OR_RETURN(Combatant * c, Who(r.actor(), "actor"));
        c->resources[Str(r.name())] = r.value();
        return absl::OkStatus();
      }
      case fb::Change::ResourceChanged: {
        const auto& r = *sc.change_as_ResourceChanged();
        ASSIGN_OR_RETURN(Combatant * c, Who(r.actor(), "actor"));
        const std::string name = Str(r.name());
        const int64_t v = c->Resource(name);
        if (mode_ == Mode::kStrict && v + r.delta() != r.value()) {
          return Corrupt(absl::StrCat("resource ", name),
                         absl::StrCat(v, " + ", r.delta(), " is not ", r.value()));
        }
        c->resources[name] = v + r.delta();
        return absl::OkStatus();
      }
      case fb::Change::ConditionAdded:
        return ConditionAdded(*sc.change_as_ConditionAdded());
      case fb::Change::ConditionRemoved: {
        const auto& r = *sc.change_as_ConditionRemoved();
        ASSIGN_OR_RETURN(Combatant * c, Who(r.actor(), "actor"));
        auto it = c->conditions.find(r.id());
        if (it == c->conditions.end() || it->second.name != Str(r.name())) {
          return Corrupt("condition", absl::StrCat("'", c->id, "' has no ",
                                                   Str(r.name()), " #", r.id()));
        }
        for (const auto& [id, other] : c->conditions) {
          if (other.parent == r.id()) {
            return Corrupt("condition",
                           absl::StrCat(Str(r.name()), " #", r.id(),
                                        " still has daughter ", other.name,
                                        " #", id));
          }
        }
        c->conditions.erase(it);
        return absl::OkStatus();
      }
      case fb::Change::Moved: {
        const auto& m = *sc.change_as_Moved();
        ASSIGN_OR_RETURN(Combatant * c, Who(m.actor(), "actor"));
        if (c->at != ToPos(m.from())) return Corrupt("from", "not where it stood");
        c->at = ToPos(m.to());
        return absl::OkStatus();
      }
      case fb::Change::WindowOpened: {
        const auto& w = *sc.change_as_WindowOpened();
        if (w.id() != s_.next_window_id &&
            (Numbering() || w.id() < s_.next_window_id)) {
          return Corrupt("window.id", absl::StrCat("expected ", s_.next_window_id));
        }
        Window win;
        win.id = w.id();
        win.trigger = w.trigger();
        win.kind = Str(w.kind());
        if (w.eligible() != nullptr) {
          for (const auto* e : *w.eligible()) win.eligible.push_back(e->str());
        }
        win.opened_at = event_.seq();
        s_.next_window_id = win.id + 1;
        s_.windows[win.id] = std::move(win);
        return absl::OkStatus();
      }
      case fb::Change::WindowClosed: {
        const auto& w = *sc.change_as_WindowClosed();
        if (s_.windows.erase(w.id()) == 0) {
          return Corrupt("window.id", absl::StrCat("window ", w.id(), " is not open"));
        }
        return absl::OkStatus();
      }
      case fb::Change::Ruling:
        return absl::OkStatus();  // Its effects follow as their own events.
      case fb::Change::SessionEnded:
        s_.ended = true;
        s_.end_reason = Str(sc.change_as_SessionEnded()->reason());
        return absl::OkStatus();
      case fb::Change::Voided: {
        const uint64_t target = sc.change_as_Voided()->target();
        if (target == 0 || target >= event_.seq()) {
          return Corrupt("voided.target", absl::StrCat("no earlier event ", target));
        }
        auto at = std::lower_bound(s_.voided.begin(), s_.voided.end(), target);
        if (at != s_.voided.end() && *at == target) {
          return Corrupt("voided.target", absl::StrCat(target, " is already voided"));
        }
        s_.voided.insert(at, target);
        return absl::OkStatus();
      }
      case fb::Change::Outcome: {
        const auto* actor = sc.change_as_Outcome()->actor();
        if (actor != nullptr && actor->size() > 0) {
          RETURN_IF_ERROR(Who(actor, "actor").status());
        }
        return absl::OkStatus();
      }
      case fb::Change::SeedRevealed: {
        const auto* secret = sc.change_as_SeedRevealed()->secret();
        if (secret == nullptr || secret->size() == 0) {
          return Corrupt("seed_revealed.secret", "empty");
        }
        s_.revealed_seed.assign(secret->begin(), secret->end());
        s_.session_digest_valid = false;
        return absl::OkStatus();
      }
    }
    return Corrupt("change", "unknown type");
  }

  absl::Status SessionStarted(const fb::SessionStarted& s) {
    if (!s_.session.empty()) return Corrupt("session", "already started");
    if (Str(s.session()).empty()) return Corrupt("session", "empty id");
    if (s.schema_version() > events::kSchemaVersion) {
      return Corrupt("schema_version",
                     absl::StrCat(s.schema_version(), " is newer than this build's ",
                                  events::kSchemaVersion));
    }
    s_.session_digest_valid = false;
    s_.session = Str(s.session());
    s_.title = Str(s.title());
    s_.ruleset = Str(s.ruleset());
    s_.ruleset_version = s.ruleset_version();
    s_.schema_version = s.schema_version();
    if (s.dice_commitment() != nullptr) {
      s_.dice_commitment.assign(s.dice_commitment()->begin(),
                                s.dice_commitment()->end());
    }
    if (s.map() != nullptr) {
      s_.map.width = s.map()->width();
      s_.map.height = s.map()->height();
      if (s.map()->cells() != nullptr) {
        for (const fb::Cell* cell : *s.map()->cells()) {
          s_.map.terrain[ToPos(cell->at())] = Str(cell->terrain());
        }
      }
    }
    return absl::OkStatus();
  }

  absl::Status CombatantJoined(const fb::CombatantJoined& j) {
    const fb::CombatantSpec* spec = j.spec();
    if (spec == nullptr || Str(spec->id()).empty()) {
      return Corrupt("spec.id", "missing");
    }
    Combatant c;
    c.id = Str(spec->id());
    if (s_.combatants.count(c.id) != 0) {
      return Corrupt("spec.id", absl::StrCat("'", c.id, "' already joined"));
    }
    c.name = Str(spec->name());
    c.side = Str(spec->side());
    c.size = spec->size();
    c.at = ToPos(spec->at());
    c.controller = Str(spec->controller());
    if (spec->tags() != nullptr) {
      for (const auto* t : *spec->tags()) c.tags.push_back(t->str());
    }
    if (spec->stats() != nullptr) {
      for (const fb::Number* n : *spec->stats()) c.stats[Str(n->key())] = n->value();
    }
    if (spec->weapons() != nullptr) {
      for (const fb::Weapon* w : *spec->weapons()) c.weapons.push_back(ToWeapon(*w));
    }
    s_.combatants[c.id] = std::move(c);
    return absl::OkStatus();
  }

  absl::Status ConditionAdded(const fb::ConditionAdded& a) {
    if (a.id() != s_.next_condition_id &&
        (Numbering() || a.id() < s_.next_condition_id)) {
      return Corrupt("condition.id", absl::StrCat("expected ", s_.next_condition_id));
    }
    ASSIGN_OR_RETURN(Combatant * c, Who(a.actor(), "actor"));
    if (a.parent() != 0) {
      bool found = false;
      for (const auto& [id, other] : s_.combatants) {
        if (other.conditions.count(a.parent()) != 0) found = true;
      }
      if (!found) {
        return Corrupt("condition.parent",
                       absl::StrCat("no condition #", a.parent()));
      }
    }
    Condition cond;
    cond.id = a.id();
    cond.name = Str(a.name());
    cond.source = Str(a.source());
    cond.relative_to = Str(a.relative_to());
    cond.level = a.level();
    cond.expiry = ToExpiry(a.expiry());
    cond.parent = a.parent();
    cond.ref = a.ref();
    cond.note = Str(a.note());
    cond.added_at = event_.seq();
    s_.next_condition_id = cond.id + 1;
    c->conditions[cond.id] = std::move(cond);
    return absl::OkStatus();
  }

  const fb::Event& event_;
  State& s_;
  const Mode mode_;
};

}  // namespace

absl::Status Apply(const fb::Event& event, State& state, Mode mode) {
  // Every case checks before it mutates, so a refused event leaves `state`
  // unchanged without the cost of a copy.
  return Applier(event, state, mode).Run();
}

}  // namespace combat::kernel
