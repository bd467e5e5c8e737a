// Readied actions (L61) and the windows they fire in, plus the generic
// declare-pay-resolve path of every action.
//
// `ready` (two Actions) records a "readied" condition on the readier:
// note = "<action> on <trigger>[ <x> <y>]", relative_to = the creature the
// trigger watches ("" = anyone), ref = the ready declaration, expiring at
// the start of its next turn. When a later declaration matches a trigger,
// the declaration is recorded, its cost paid, and a window opens (kind
// "readied") before it resolves; a move first resolves the squares up to
// the one that triggers. The declaration waits as a "pending" condition on
// its actor (note = the command, encoded). The readiers answer in
// initiative order with `pass` or their readied action (an Interrupt);
// when all have answered the window closes and the pending declaration
// resolves if still legal (else the window's outcome says why not).
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

constexpr const char* kTriggers[] = {
    "any_action",         "attacks",      "casts", "moves",
    "moves_within_reach", "enters_square"};

bool IsMoveLike(const std::string& action) {
  return action == "move" || action == "crawl";
}

bool IsAttackLike(const std::string& action) {
  return action == "attack" || action == "break" || action == "disarm" ||
         action == "feint" || action == "grapple" || action == "push" ||
         action == "trip";
}

struct Readied {
  uint32_t id = 0;
  std::string action;
  std::string trigger;
  std::string by;
  Pos square;
};

std::optional<Readied> ParseReadied(const Condition& c) {
  std::vector<std::string> parts = absl::StrSplit(c.note, ' ');
  if (parts.size() < 3) return std::nullopt;
  Readied r;
  r.id = c.id;
  r.action = parts[0];
  r.trigger = parts[2];
  r.by = c.relative_to;
  if (parts.size() >= 5) {
    int x = 0, y = 0;
    if (!absl::SimpleAtoi(parts[3], &x) || !absl::SimpleAtoi(parts[4], &y)) {
      return std::nullopt;
    }
    r.square = {x, y};
  }
  return r;
}

std::optional<Readied> ReadiedOf(const Combatant& c) {
  for (const Condition* k : Named(c, kReadied)) {
    if (auto r = ParseReadied(*k); r.has_value()) return r;
  }
  return std::nullopt;
}

struct Trigger {
  std::vector<std::string> eligible;
  size_t steps = 0;  // path squares resolved before the window (moves)
};

// Readiers whose trigger `c` (declared by c.actor) sets off, in turn order,
// and how far a move gets before it does.
Trigger FindTriggers(const State& s, const fb::CommandT& c,
                     const std::vector<std::string>& skip) {
  Trigger out;
  const Combatant* mover = s.Find(c.actor);
  if (mover == nullptr) return out;
  const std::vector<Pos> path = PathOf(c);
  const bool move = IsMoveLike(c.action);
  std::vector<std::string> ranked;
  for (const OrderEntry& e : s.order) ranked.push_back(e.actor);
  for (const auto& [id, cmb] : s.combatants) {
    if (std::find(ranked.begin(), ranked.end(), id) == ranked.end()) {
      ranked.push_back(id);
    }
  }
  size_t best = std::numeric_limits<size_t>::max();
  for (const std::string& id : ranked) {
    const Combatant* y = s.Find(id);
    if (id == c.actor || IsDead(*y) || IsHelpless(*y)) continue;
    if (std::find(skip.begin(), skip.end(), id) != skip.end()) continue;
    std::optional<Readied> r = ReadiedOf(*y);
    if (!r.has_value()) continue;
    if (!r->by.empty() && r->by != c.actor) continue;
    std::optional<size_t> at;
    if (r->trigger == "any_action") {
      at = 0;
    } else if (r->trigger == "attacks" && IsAttackLike(c.action)) {
      at = 0;
    } else if (r->trigger == "casts" &&
               (c.action == "cast" || c.action == "control")) {
      at = 0;
    } else if (r->trigger == "moves" && move) {
      at = 0;
    } else if (r->trigger == "moves_within_reach" && move) {
      const int64_t reach = MeleeReach(*y);
      Pos prev = mover->at;
      for (size_t i = 0; i < path.size(); ++i) {
        const bool was_out =
            DistanceFt(prev, mover->size, y->at, y->size) > reach;
        const bool now_in =
            DistanceFt(path[i], mover->size, y->at, y->size) <= reach;
        if (was_out && now_in) {
          at = i + 1;
          break;
        }
        prev = path[i];
      }
    } else if (r->trigger == "enters_square" && move) {
      for (size_t i = 0; i < path.size(); ++i) {
        if (Covers(path[i], mover->size, r->square)) {
          at = i + 1;
          break;
        }
      }
    }
    if (!at.has_value()) continue;
    if (*at < best) {
      best = *at;
      out.eligible = {id};
    } else if (*at == best) {
      out.eligible.push_back(id);
    }
  }
  out.steps = out.eligible.empty() ? 0 : best;
  return out;
}

// Records `pending` (what is left of declaration `decl`) and opens the
// window.
absl::Status OpenWithPending(Decision& d, uint64_t decl,
                             const fb::CommandT& pending,
                             const std::vector<std::string>& eligible) {
  NewCondition nc;
  nc.actor = pending.actor;
  nc.name = kPending;
  nc.source = pending.actor;
  nc.ref = decl;
  nc.note = EncodeCommand(pending);
  nc.expiry = Expiry{fb::ExpiryKind::OnUse, pending.actor, 0};
  RETURN_IF_ERROR(
      AddCondition(d, nc,
                   {decl, "000.ready", {}, "waits for the readied actions"})
          .status());
  return OpenWindow(
             d, decl, "readied", eligible,
             {decl,
              "000.ready",
              {},
              absl::StrCat("readied action triggered by ", pending.actor, "'s ",
                           pending.action, "; ", absl::StrJoin(eligible, ", "),
                           " may answer")})
      .status();
}

// For a move: resolves the first t.steps squares, then opens the window
// with the rest pending (no window when the move ended early).
absl::Status SplitMove(Decision& d, uint64_t decl, const fb::CommandT& c,
                       const Trigger& t, std::vector<std::string> skip) {
  ASSIGN_OR_RETURN(MoveProgress p, ResolveMoveSteps(d, c, decl, t.steps,
                                                    ParamOr(c, "_spent", 0)));
  if (p.stopped) return absl::OkStatus();
  fb::CommandT rest = c;
  rest.path.erase(rest.path.begin(), rest.path.begin() + p.steps_done);
  rest.params.erase(
      std::remove_if(rest.params.begin(), rest.params.end(),
                     [](const std::unique_ptr<fb::ParamT>& q) {
                       return q && (q->key == "_spent" || q->key == "_skip");
                     }),
      rest.params.end());
  auto spent = std::make_unique<fb::ParamT>();
  spent->key = "_spent";
  spent->value = p.spent;
  rest.params.push_back(std::move(spent));
  for (const std::string& e : t.eligible) skip.push_back(e);
  auto skipped = std::make_unique<fb::ParamT>();
  skipped->key = "_skip";
  skipped->text = absl::StrJoin(skip, ",");
  rest.params.push_back(std::move(skipped));
  // Only the readiers of this trigger answer; the others may still fire on
  // the rest of the path.
  std::vector<std::string> answer = t.eligible;
  return OpenWithPending(d, decl, rest, answer);
}

std::vector<std::string> SkipOf(const fb::CommandT& c) {
  const std::string text = ParamText(c, "_skip");
  if (text.empty()) return {};
  return absl::StrSplit(text, ',');
}

// Closes window `wid` and resolves the declaration it held back.
absl::Status CloseAndResume(Decision& d, uint32_t wid) {
  const Window w = d.state().windows.at(wid);
  const uint64_t trigger = w.trigger;
  std::string who;
  uint32_t pid = 0;
  std::string note;
  for (const auto& [id, c] : d.state().combatants) {
    for (const auto& [cid, cond] : c.conditions) {
      if (cond.name == kPending && cond.ref == trigger) {
        who = id;
        pid = cid;
        note = cond.note;
      }
    }
  }
  if (pid == 0) {
    return CloseWindow(d, wid, "resolved", {trigger, "000.ready"});
  }
  ASSIGN_OR_RETURN(fb::CommandT pending, DecodeCommand(note));
  RETURN_IF_ERROR(RemoveCondition(
      d, who, pid,
      {trigger, "000.ready", {}, "the held-back declaration resumes"}));
  const ActionSpec* spec = FindAction(pending.action);
  if (spec == nullptr) {
    return absl::InternalError("pending action '" + pending.action + "'");
  }
  const Ctx ctx{Via::kResumed, trigger};
  absl::Status legal = CheckCanAct(d.state(), *d.state().Find(who), 0, ctx);
  if (legal.ok()) legal = spec->validate(d.state(), pending, ctx);
  if (!legal.ok()) {
    return CloseWindow(d, wid, absl::StrCat("cancelled: ", legal.message()),
                       {trigger, "000.ready", {}, "no longer legal"});
  }
  RETURN_IF_ERROR(CloseWindow(d, wid, "resolved", {trigger, "000.ready"}));
  if (IsMoveLike(pending.action)) {
    std::vector<std::string> skip = SkipOf(pending);
    const Trigger t = FindTriggers(d.state(), pending, skip);
    if (!t.eligible.empty()) return SplitMove(d, trigger, pending, t, skip);
  }
  return spec->resolve(d, pending, ctx);
}

}  // namespace

absl::Status ValidateReady(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const std::string action = ParamText(c, "action");
  const ActionSpec* spec = FindAction(action);
  if (spec == nullptr || action == "ready") {
    return Malformed(c, "params.action",
                     "the action to ready (attack, move, cast, trip, ...)");
  }
  const std::string trigger = ParamText(c, "trigger");
  bool known = false;
  for (const char* t : kTriggers) known = known || trigger == t;
  if (!known) {
    return Malformed(c, "params.trigger",
                     "one of any_action, attacks, casts, moves, "
                     "moves_within_reach, enters_square");
  }
  const std::string by = ParamText(c, "by");
  if (!by.empty() && s.Find(by) == nullptr) {
    return absl::NotFoundError(absl::StrCat("command 'ready': params.by '", by,
                                            "' is not in this session"));
  }
  if (trigger == "enters_square" && (!HasParam(c, "x") || !HasParam(c, "y"))) {
    return Malformed(c, "params.x", "enters_square needs params x and y");
  }
  if (!Named(*a, kReadied).empty()) {
    return Refuse("000.ready", a->id + " already has a readied action");
  }
  return absl::OkStatus();
}

absl::Status ResolveReady(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const std::string trigger = ParamText(c, "trigger");
  NewCondition nc;
  nc.actor = c.actor;
  nc.name = kReadied;
  nc.source = c.actor;
  nc.relative_to = ParamText(c, "by");
  nc.ref = ctx.cause;
  nc.note = absl::StrCat(ParamText(c, "action"), " on ", trigger);
  if (trigger == "enters_square") {
    absl::StrAppend(&nc.note, " ", ParamOr(c, "x", 0), " ", ParamOr(c, "y", 0));
  }
  // L61: "may be triggered at any point up to your next Turn".
  nc.expiry = ForRounds(d.state(), c.actor, 1);
  return AddCondition(d, nc, {ctx.cause, "000.ready", {}, "readied"}).status();
}

absl::Status DeclareAction(const ActionSpec& a, const fb::CommandT& c,
                           Decision& d) {
  for (const auto& p : c.params) {
    if (p && !p->key.empty() && p->key[0] == '_') {
      return Malformed(c, "params." + p->key, "is reserved");
    }
  }
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  const int64_t cost = a.free ? 0 : a.cost(c);
  const Ctx declared{Via::kDeclared, 0};
  RETURN_IF_ERROR(CheckCanAct(s, *actor, cost, declared));
  RETURN_IF_ERROR(a.validate(s, c, declared));
  const Trigger t = a.triggers ? FindTriggers(s, c, {}) : Trigger{};
  const std::string who = actor->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(SpendActions(d, who, cost, decl, a.rule));
  if (!t.eligible.empty()) {
    if (IsMoveLike(c.action)) {
      RETURN_IF_ERROR(SplitMove(d, decl, c, t, {}));
      return EndTurnIfDead(d, decl);
    }
    return OpenWithPending(d, decl, c, t.eligible);
  }
  RETURN_IF_ERROR(a.resolve(d, c, Ctx{Via::kDeclared, decl}));
  return EndTurnIfDead(d, decl);
}

absl::Status DecideAnswer(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  if (s.windows.empty()) {
    return Malformed(
        c, "window",
        absl::StrCat("window ", c.window, " is not open (no window is)"));
  }
  const Window& first = s.windows.begin()->second;
  auto next_of = [](const Window& w) {
    std::vector<std::string> left = w.eligible;
    for (const std::string& a : w.answered) {
      auto it = std::find(left.begin(), left.end(), a);
      if (it != left.end()) left.erase(it);
    }
    return left.empty() ? std::string() : left.front();
  };
  if (c.window == 0) {
    return Refuse(
        "000.ready",
        absl::StrCat("window ", first.id, " is open: ", next_of(first),
                     " answers it first ('pass' or its readied "
                     "action, with \"window\": ",
                     first.id, ")"));
  }
  auto it = s.windows.find(c.window);
  if (it == s.windows.end()) {
    return Malformed(c, "window",
                     absl::StrCat("window ", c.window, " is not open"));
  }
  const Window w = it->second;
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  const std::string next = next_of(w);
  if (actor->id != next) {
    return Refuse("000.ready",
                  absl::StrCat("window ", w.id, ": it is ", next, "'s answer"));
  }
  const std::string who = actor->id;
  if (c.action == "pass") {
    RETURN_IF_ERROR(d.Interrupt(c, w.id).status());
  } else {
    std::optional<Readied> r = ReadiedOf(*actor);
    if (!r.has_value() || r->action != c.action) {
      return Refuse(
          "000.ready",
          absl::StrCat(who, " readied '", r.has_value() ? r->action : "nothing",
                       "', not '", c.action, "'"));
    }
    const ActionSpec* spec = FindAction(c.action);
    const Ctx ctx{Via::kInterrupt, 0};
    RETURN_IF_ERROR(CheckCanAct(s, *actor, 0, ctx));
    RETURN_IF_ERROR(spec->validate(s, c, ctx));
    ASSIGN_OR_RETURN(uint64_t seq, d.Interrupt(c, w.id));
    RETURN_IF_ERROR(
        RemoveCondition(d, who, r->id, {seq, "000.ready", {}, "fires"}));
    RETURN_IF_ERROR(spec->resolve(d, c, Ctx{Via::kInterrupt, seq}));
  }
  const Window& now = d.state().windows.at(w.id);
  if (now.answered.size() >= now.eligible.size()) {
    RETURN_IF_ERROR(CloseAndResume(d, w.id));
    return EndTurnIfDead(d, w.trigger);
  }
  return absl::OkStatus();
}

// ---- pending-declaration codec: "key=value|key=value", values
// percent-escaped.
namespace {

std::string Esc(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    if (ch == '%' || ch == '|' || ch == '=' || ch == ',' || ch == ':' ||
        ch < 0x20) {
      absl::StrAppend(&out, "%", absl::Hex(ch, absl::kZeroPad2));
    } else {
      out.push_back(static_cast<char>(ch));
    }
  }
  return out;
}

absl::StatusOr<std::string> Unesc(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size()) {
      return absl::DataLossError("pending command: bad escape");
    }
    int v = 0;
    for (int k = 1; k <= 2; ++k) {
      const char h = s[i + k];
      v = v * 16 + (h >= '0' && h <= '9'   ? h - '0'
                    : h >= 'a' && h <= 'f' ? h - 'a' + 10
                    : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                           : 0);
    }
    out.push_back(static_cast<char>(v));
    i += 2;
  }
  return out;
}

}  // namespace

std::string EncodeCommand(const fb::CommandT& c) {
  std::vector<std::string> parts;
  parts.push_back("actor=" + Esc(c.actor));
  parts.push_back("action=" + Esc(c.action));
  parts.push_back(absl::StrCat("role=", static_cast<int>(c.role)));
  if (!c.author.empty()) parts.push_back("author=" + Esc(c.author));
  if (!c.targets.empty()) {
    std::vector<std::string> t;
    for (const std::string& x : c.targets) t.push_back(Esc(x));
    parts.push_back("targets=" + absl::StrJoin(t, ","));
  }
  if (!c.weapon.empty()) parts.push_back("weapon=" + Esc(c.weapon));
  if (!c.path.empty()) {
    std::vector<std::string> p;
    for (const fb::Pos& q : c.path)
      p.push_back(absl::StrCat(q.x(), ":", q.y()));
    parts.push_back("path=" + absl::StrJoin(p, ","));
  }
  for (const auto& p : c.params) {
    if (!p) continue;
    parts.push_back(
        absl::StrCat("param=", Esc(p->key), ":", p->value, ":", Esc(p->text)));
  }
  if (!c.text.empty()) parts.push_back("text=" + Esc(c.text));
  return absl::StrJoin(parts, "|");
}

absl::StatusOr<fb::CommandT> DecodeCommand(const std::string& text) {
  fb::CommandT c;
  const auto bad = [&](absl::string_view what) {
    return absl::DataLossError(absl::StrCat("pending command: ", what));
  };
  for (absl::string_view part : absl::StrSplit(text, '|')) {
    const size_t eq = part.find('=');
    if (eq == absl::string_view::npos) return bad(part);
    const absl::string_view key = part.substr(0, eq);
    const absl::string_view value = part.substr(eq + 1);
    if (key == "actor") {
      ASSIGN_OR_RETURN(c.actor, Unesc(value));
    } else if (key == "action") {
      ASSIGN_OR_RETURN(c.action, Unesc(value));
    } else if (key == "author") {
      ASSIGN_OR_RETURN(c.author, Unesc(value));
    } else if (key == "role") {
      int r = 0;
      if (!absl::SimpleAtoi(value, &r) || r < 0 || r > 2) return bad("role");
      c.role = static_cast<fb::Role>(r);
    } else if (key == "targets") {
      for (absl::string_view t : absl::StrSplit(value, ',')) {
        ASSIGN_OR_RETURN(std::string id, Unesc(t));
        c.targets.push_back(id);
      }
    } else if (key == "weapon") {
      ASSIGN_OR_RETURN(c.weapon, Unesc(value));
    } else if (key == "path") {
      for (absl::string_view q : absl::StrSplit(value, ',')) {
        std::vector<absl::string_view> xy = absl::StrSplit(q, ':');
        int x = 0, y = 0;
        if (xy.size() != 2 || !absl::SimpleAtoi(xy[0], &x) ||
            !absl::SimpleAtoi(xy[1], &y)) {
          return bad("path");
        }
        c.path.emplace_back(x, y);
      }
    } else if (key == "param") {
      std::vector<absl::string_view> kv = absl::StrSplit(value, ':');
      int64_t v = 0;
      if (kv.size() != 3 || !absl::SimpleAtoi(kv[1], &v)) return bad("param");
      auto p = std::make_unique<fb::ParamT>();
      ASSIGN_OR_RETURN(p->key, Unesc(kv[0]));
      p->value = v;
      ASSIGN_OR_RETURN(p->text, Unesc(kv[2]));
      c.params.push_back(std::move(p));
    } else if (key == "text") {
      ASSIGN_OR_RETURN(c.text, Unesc(value));
    } else {
      return bad(key);
    }
  }
  return c;
}

}  // namespace combat::kernel::d20
