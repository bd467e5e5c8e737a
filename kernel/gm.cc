#include "kernel/gm.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "kernel/changes.h"
#include "kernel/command.h"
#include "kernel/refusal.h"

namespace combat::kernel {
namespace {

absl::StatusOr<std::string> RequiredText(const fb::CommandT& c,
                                         const std::string& key) {
  std::string v = ParamText(c, key);
  if (v.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command '", c.action, "': param '", key, "' (text) is required"));
  }
  return v;
}

absl::StatusOr<int64_t> Required(const fb::CommandT& c,
                                 const std::string& key) {
  auto v = Param(c, key);
  if (!v.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command '", c.action, "': param '", key, "' (value) is required"));
  }
  return *v;
}

template <typename T>
fb::ChangeUnion Union(T value) {
  fb::ChangeUnion u;
  u.Set(std::move(value));
  return u;
}

absl::Status Void(const fb::CommandT& c, const std::string& rule, Decision& d) {
  ASSIGN_OR_RETURN(const uint64_t target,
                   RequiredRefSeq(c, "subject", "the seq of the event to void"));
  const int64_t subject = static_cast<int64_t>(target);
  const State& s = d.state();
  if (subject < 1 || target > s.seq) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command 'gm_void': param 'subject': no event ", subject, " (head is ",
        s.seq, ")"));
  }
  for (uint64_t v : s.voided) {
    if (v == target) {
      return absl::FailedPreconditionError(
          absl::StrCat("event ", target, " is already voided"));
    }
  }
  std::string refusal;
  RETURN_IF_ERROR(d.Lookup(target, [&](const fb::Event& e) {
    if (e.body_type() == fb::Body::StateChange) {
      const auto t = e.body_as_StateChange()->change_type();
      if (t == fb::Change::SessionStarted) refusal = "the session's first event";
      if (t == fb::Change::Voided) refusal = "a void (void cannot be undone)";
      if (t == fb::Change::SeedRevealed) refusal = "a seed reveal";
    }
    return absl::OkStatus();
  }));
  if (!refusal.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("event ", target, " cannot be voided: it is ", refusal));
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(RecordRuling(d, "void", target, c.text, {decl, rule}));
  fb::VoidedT v;
  v.target = target;
  v.reason = c.text;
  return d.Change(decl, rule, {{"target", subject}}, Union(std::move(v)), c.text);
}

// Param `key` of gm_reveal as bytes: hex (events::FromHex), at least one byte.
absl::StatusOr<std::vector<uint8_t>> HexParam(const fb::CommandT& c, const char* key) {
  ASSIGN_OR_RETURN(std::string hex, RequiredText(c, key));
  std::optional<std::vector<uint8_t>> bytes = events::FromHex(hex);
  if (!bytes.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command 'gm_reveal': param '", key, "': hex bytes (two hex digits a byte)"));
  }
  return *std::move(bytes);
}

// gm_reveal: the secret of the commitment in force; before the session's
// end, with the commitment of a fresh secret for the rest of the session
// (events/FORMAT.md, "Dice").
absl::Status Reveal(const fb::CommandT& c, const std::string& rule, Decision& d) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> secret, HexParam(c, "secret"));
  const State& s = d.state();
  if (dice::SeededDice::Commitment(secret) != s.dice_commitment) {
    return absl::FailedPreconditionError(
        "gm_reveal: the secret does not match the session's dice commitment");
  }
  // Revealed already: the secret of the commitment in force is public (a
  // reveal with a next commitment moves the commitment on).
  if (!s.revealed_seed.empty() &&
      dice::SeededDice::Commitment(s.revealed_seed) == s.dice_commitment) {
    return absl::FailedPreconditionError("gm_reveal: already revealed");
  }
  fb::SeedRevealedT t;
  t.secret = secret;
  if (HasParam(c, "next_commitment")) {
    if (s.ended) {
      return absl::FailedPreconditionError(
          "command 'gm_reveal': param 'next_commitment': the session has ended; "
          "a reveal at the end commits no fresh secret (leave it out)");
    }
    ASSIGN_OR_RETURN(t.next_commitment, HexParam(c, "next_commitment"));
    if (t.next_commitment.size() != 32) {
      return absl::InvalidArgumentError(absl::StrCat(
          "command 'gm_reveal': param 'next_commitment': 32 bytes (64 hex digits), "
          "the SHA-256 of the fresh secret; got ", t.next_commitment.size()));
    }
    if (t.next_commitment == s.dice_commitment) {
      return absl::InvalidArgumentError(
          "command 'gm_reveal': param 'next_commitment': the commitment being "
          "revealed; a fresh secret's is needed");
    }
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return d.Change(decl, rule, {}, Union(std::move(t)), c.text);
}

}  // namespace

bool IsGmVerb(const std::string& action) {
  return action == "gm_adjust" || action == "gm_set" ||
         action == "gm_condition" || action == "gm_move" ||
         action == "gm_end" || action == "gm_note" || action == "gm_void" ||
         action == "gm_reveal" || action == "gm_order";
}

namespace {

// gm_order: the new turn order, `targets` in order (see gm.h).
absl::Status Order(const fb::CommandT& c, const std::string& rule, Decision& d) {
  const State& s = d.state();
  if (c.targets.empty()) {
    return absl::InvalidArgumentError(
        "command 'gm_order': field 'targets': the new turn order, first to act first");
  }
  std::vector<OrderEntry> order;
  for (size_t i = 0; i < c.targets.size(); ++i) {
    const std::string& id = c.targets[i];
    if (s.Find(id) == nullptr) {
      return absl::NotFoundError(absl::StrCat("command 'gm_order': field 'targets[", i,
                                              "]': no combatant '", id, "'"));
    }
    for (const OrderEntry& e : order) {
      if (e.actor == id) {
        return absl::InvalidArgumentError(absl::StrCat(
            "command 'gm_order': field 'targets[", i, "]': '", id, "' is listed twice"));
      }
    }
    OrderEntry entry{id, 0, false, {}};
    for (const OrderEntry& e : s.order) {
      if (e.actor == id) entry = e;
    }
    if (auto init = Param(c, id); init.has_value()) entry.initiative = *init;
    order.push_back(std::move(entry));
  }
  for (const OrderEntry& e : s.order) {
    bool kept = false;
    for (const OrderEntry& n : order) kept = kept || n.actor == e.actor;
    if (!kept) {
      return absl::InvalidArgumentError(absl::StrCat(
          "command 'gm_order': field 'targets': '", e.actor,
          "' is in the turn order and missing from the new one"));
    }
  }
  for (const auto& p : c.params) {
    if (p && s.Find(p->key) == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "command 'gm_order': param '", p->key, "': not a combatant (params set initiatives by id)"));
    }
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(RecordRuling(d, "order", 0, c.text, {decl, rule}));
  return SetOrder(d, order, {decl, rule, {}, c.text});
}

absl::Status DecideVerb(const fb::CommandT& c, const GmRules& rules, Decision& d) {
  const std::string& rule = rules.rule;
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError(
        absl::StrCat("command '", c.action, "': only the GM may rule (role is ",
                     fb::EnumNameRole(c.role), ")"));
  }
  if (c.text.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command '", c.action, "': field 'text' (the reason) is required"));
  }
  if (HasParam(c, "subject")) {
    return Malformed(c, "params.subject",
                     "name the event in refs: [{\"key\": \"subject\", \"seq\": N}]");
  }
  const State& s = d.state();
  if (c.action == "gm_end") {
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    RETURN_IF_ERROR(RecordRuling(d, "end", 0, c.text, {decl, rule}));
    return EndSession(d, c.text, {decl, rule});
  }
  if (c.action == "gm_note") {
    ASSIGN_OR_RETURN(std::string kind, RequiredText(c, "kind"));
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    return RecordRuling(d, kind, RefSeq(c, "subject").value_or(0),
                        c.text, {decl, rule});
  }
  if (c.action == "gm_void") return Void(c, rule, d);
  if (c.action == "gm_reveal") return Reveal(c, rule, d);
  if (c.action == "gm_order") return Order(c, rule, d);
  ASSIGN_OR_RETURN(const Combatant* who, Actor(s, c));
  const std::string actor = who->id;
  if (c.action == "gm_adjust" || c.action == "gm_set") {
    ASSIGN_OR_RETURN(std::string resource, RequiredText(c, "resource"));
    const bool set = c.action == "gm_set";
    ASSIGN_OR_RETURN(int64_t amount, Required(c, set ? "value" : "delta"));
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    RETURN_IF_ERROR(RecordRuling(d, set ? "set" : "adjust", 0, c.text, {decl, rule}));
    const Why why{decl, rule, {{set ? "value" : "delta", amount}}, c.text};
    if (set) return SetResource(d, actor, resource, amount, why);
    return AddResource(d, actor, resource, amount, why).status();
  }
  if (c.action == "gm_condition") {
    ASSIGN_OR_RETURN(std::string name, RequiredText(c, "name"));
    ASSIGN_OR_RETURN(std::string op, RequiredText(c, "op"));
    if (op != "add" && op != "remove") {
      return absl::InvalidArgumentError(
          "command 'gm_condition': param 'op' must be \"add\" or \"remove\"");
    }
    if (op == "remove" && !who->Has(name)) {
      return absl::FailedPreconditionError(
          absl::StrCat(actor, " has no condition ", name));
    }
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    RETURN_IF_ERROR(RecordRuling(d, "condition " + op, 0, c.text, {decl, rule}));
    const Why why{decl, rule, {}, c.text};
    if (op == "remove") return RemoveConditionsNamed(d, actor, name, why);
    NewCondition nc;
    nc.actor = actor;
    nc.name = name;
    nc.source = ParamText(c, "source").empty() ? "gm" : ParamText(c, "source");
    nc.level = ParamOr(c, "level", 0);
    nc.relative_to = ParamText(c, "relative_to");
    nc.note = ParamText(c, "note");
    if (!nc.relative_to.empty() && s.Find(nc.relative_to) == nullptr) {
      return absl::NotFoundError(absl::StrCat(
          "command 'gm_condition': param 'relative_to': no combatant '",
          nc.relative_to, "'"));
    }
    if (auto rounds = Param(c, "rounds"); rounds.has_value()) {
      std::string expires = ParamText(c, "expires");
      if (expires.empty() && rules.rounds_expiry) {
        nc.expiry = rules.rounds_expiry(s, actor, *rounds);  // the text's count
      } else {
        if (expires.empty()) expires = s.active.empty() ? "round_start" : "turn_start";
        if (expires == "turn_start") {
          nc.expiry = {fb::ExpiryKind::TurnStart, actor, s.round + *rounds};
        } else if (expires == "round_start") {
          nc.expiry = {fb::ExpiryKind::RoundStart, "", s.round + *rounds};
        } else if (expires == "round_end") {
          nc.expiry = {fb::ExpiryKind::RoundEnd, "", s.round + *rounds};
        } else {
          return absl::InvalidArgumentError(
              "command 'gm_condition': param 'expires' must be \"turn_start\", "
              "\"round_start\" or \"round_end\"");
        }
      }
    }
    if (rules.add_condition) return rules.add_condition(d, nc, why);
    return AddCondition(d, nc, why).status();
  }
  if (c.action == "gm_move") {
    std::vector<Pos> path = PathOf(c);
    if (path.empty()) {
      return absl::InvalidArgumentError("command 'gm_move': field 'path' is empty");
    }
    for (Pos p : path) {
      if (s.TerrainAt(p) == "offmap") {
        return absl::InvalidArgumentError(absl::StrCat(
            "command 'gm_move': path square (", p.x, ",", p.y, ") is off the map"));
      }
    }
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    RETURN_IF_ERROR(RecordRuling(d, "move", 0, c.text, {decl, rule}));
    return Move(d, actor, path, 0, /*forced=*/true, {decl, rule, {}, c.text});
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown GM verb '", c.action, "'"));
}

}  // namespace

absl::Status DecideGm(const fb::CommandT& c, const GmRules& rules, Decision& d) {
  RETURN_IF_ERROR(DecideVerb(c, rules, d));
  if (!rules.after) return absl::OkStatus();
  // The Ruling is the event after the declaration (every verb records one
  // first, gm_void and gm_reveal aside).
  uint64_t ruling = 0;
  for (const events::EventBuffer& e : d.events()) {
    if (e.event().body_type() == fb::Body::StateChange &&
        e.event().body_as_StateChange()->change_type() == fb::Change::Ruling) {
      ruling = e.event().seq();
      break;
    }
  }
  return rules.after(d, c, ruling);
}

}  // namespace combat::kernel
