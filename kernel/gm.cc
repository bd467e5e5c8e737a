#include "kernel/gm.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/changes.h"
#include "kernel/command.h"

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
  ASSIGN_OR_RETURN(int64_t subject, Required(c, "subject"));
  const uint64_t target = static_cast<uint64_t>(subject);
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

absl::Status Reveal(const fb::CommandT& c, const std::string& rule, Decision& d) {
  ASSIGN_OR_RETURN(std::string hex, RequiredText(c, "secret"));
  std::vector<uint8_t> secret;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      const char ch = hex[i + k];
      const int digit = (ch >= '0' && ch <= '9')   ? ch - '0'
                        : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10
                                                   : -1;
      if (digit < 0) {
        return absl::InvalidArgumentError(
            "command 'gm_reveal': param 'secret': lower-case hex");
      }
      v = v * 16 + digit;
    }
    secret.push_back(static_cast<uint8_t>(v));
  }
  if (hex.size() % 2 != 0 || secret.empty()) {
    return absl::InvalidArgumentError("command 'gm_reveal': param 'secret': hex bytes");
  }
  if (dice::SeededDice::Commitment(secret) != d.state().dice_commitment) {
    return absl::FailedPreconditionError(
        "gm_reveal: the secret does not match the session's dice commitment");
  }
  if (!d.state().revealed_seed.empty()) {
    return absl::FailedPreconditionError("gm_reveal: already revealed");
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  fb::SeedRevealedT t;
  t.secret = secret;
  return d.Change(decl, rule, {}, Union(std::move(t)), c.text);
}

}  // namespace

bool IsGmVerb(const std::string& action) {
  return action == "gm_adjust" || action == "gm_set" ||
         action == "gm_condition" || action == "gm_move" ||
         action == "gm_end" || action == "gm_note" || action == "gm_void" ||
         action == "gm_reveal";
}

absl::Status DecideGm(const fb::CommandT& c, const std::string& rule,
                      Decision& d) {
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError(
        absl::StrCat("command '", c.action, "': only the GM may rule (role is ",
                     fb::EnumNameRole(c.role), ")"));
  }
  if (c.text.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command '", c.action, "': field 'text' (the reason) is required"));
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
    return RecordRuling(d, kind, static_cast<uint64_t>(ParamOr(c, "subject", 0)),
                        c.text, {decl, rule});
  }
  if (c.action == "gm_void") return Void(c, rule, d);
  if (c.action == "gm_reveal") return Reveal(c, rule, d);
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
    nc.source = "gm";
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

}  // namespace combat::kernel
