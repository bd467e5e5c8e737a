#include "replay/status.h"

#include <memory>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "events/json.h"
#include "events/json_line.h"
#include "events/status_macros.h"
#include "flatbuffers/flatbuffers.h"
#include "kernel/authority.h"
#include "kernel/dice/source.h"
#include "kernel/display.h"
#include "events/nearest.h"
#include "kernel/session.h"
#include "kernel/verb_schema.h"
#include "kernel/window.h"

namespace combat::replay {
namespace {

using kernel::Use;
using kernel::VerbSchema;

// At most this many combatants are tried for "who may act" (each try
// decides commands; a huge roster would make status slow).
constexpr size_t kMayActLimit = 64;

std::string Ends(const kernel::Expiry& e) {
  switch (e.kind) {
    case fb::ExpiryKind::Never:
      return "until removed";
    case fb::ExpiryKind::TurnStart:
      return absl::StrCat("ends at the start of ", e.actor, "'s turn in round ", e.round);
    case fb::ExpiryKind::TurnEnd:
      return absl::StrCat("ends at the end of ", e.actor, "'s turn in round ", e.round);
    case fb::ExpiryKind::RoundStart:
      return absl::StrCat("ends when round ", e.round, " starts");
    case fb::ExpiryKind::RoundEnd:
      return absl::StrCat("ends when round ", e.round, " ends");
    case fb::ExpiryKind::OnUse:
      return "ends when used";
  }
  return "";
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  for (const std::string& x : v) {
    if (x == s) return true;
  }
  return false;
}

CombatantStatus Describe(const kernel::Combatant& c, const kernel::Display& d) {
  CombatantStatus out;
  out.id = c.id;
  out.name = c.name;
  out.side = c.side;
  out.controller = c.controller;
  out.player = c.player;
  out.at = c.at;
  std::vector<std::string> shown;
  for (const kernel::Vital& v : d.vitals) {
    auto it = c.resources.find(v.resource);
    if (it == c.resources.end()) continue;
    out.vitals.push_back({v.resource, it->second, kernel::VitalMax(c, v)});
    shown.push_back(v.resource);
    if (!v.max_resource.empty()) shown.push_back(v.max_resource);
  }
  for (const std::string& b : d.budgets) {
    auto it = c.resources.find(b);
    if (it == c.resources.end()) continue;
    out.budgets.push_back({b, it->second});
    shown.push_back(b);
  }
  for (const auto& [name, value] : c.resources) {
    if (Contains(shown, name) || kernel::IsBookkeeping(d, name)) continue;
    out.other.push_back({name, value});
  }
  for (const auto& [id, cond] : c.conditions) {
    out.conditions.push_back(
        {cond.name, cond.level, cond.source, cond.relative_to, Ends(cond.expiry)});
  }
  return out;
}

// One line of JSON for `c`.
std::string CommandJson(const fb::CommandT& c) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Command::Pack(fbb, &c));
  absl::StatusOr<std::string> json =
      events::BinaryToJson(fbb.GetBufferPointer(), fbb.GetSize(), "Command");
  if (!json.ok()) return "";
  // Pretty-printed: newlines only between tokens (strings escape theirs).
  std::string one;
  bool space = false;
  for (char ch : *json) {
    if (ch == '\n') {
      space = true;
      continue;
    }
    if (space && ch == ' ') continue;
    if (space && !one.empty() && one.back() != '{' && one.back() != '[' &&
        ch != '}' && ch != ']') {
      one.push_back(' ');
    }
    space = false;
    one.push_back(ch);
  }
  return one;
}

// The decision on `c` (discarded): OK, or the ruleset's refusal.
absl::Status Try(const StatusRequest& r, const fb::CommandT& c) {
  kernel::dice::SeededDice dry(std::vector<uint8_t>(32, 0x5a), r.state->session);
  kernel::Envelope env;
  env.branch = r.branch;
  return kernel::DecideCommand(*r.rules, *r.state, env, c, dry, r.prefix).status();
}

bool IsInputError(const absl::Status& st) {
  return st.code() == absl::StatusCode::kInvalidArgument ||
         st.code() == absl::StatusCode::kNotFound;
}

struct Tried {
  std::optional<LegalAct> legal;
  std::optional<NotNow> not_now;
};

// A required text parameter that allows any text, filled with a stand-in
// that no roster names, so a try reaches the ruleset's own checks.
void FillFreeText(const VerbSchema& v, fb::CommandT& c) {
  for (auto& p : c.params) {
    for (const kernel::ParamSpec& spec : v.params) {
      if (p && spec.key == p->key && spec.type == kernel::ParamType::kText &&
          spec.allowed.empty() && p->text.empty()) {
        p->text = "?";
      }
    }
  }
}

// What the candidates of one sweep gave.
struct Sweep {
  bool any = false;        // some candidate was legal
  LegalAct act;            // the legal ones' targets, weapons and command
  absl::Status refusal;    // the first refusal by the rules
  absl::Status input;      // the first refusal of the input
};

// Tries the candidates of `v` for `actor` (see the header); `first_only`
// stops at the first legal one. `stand_in` fills free-text parameters with
// a stand-in (FillFreeText).
Sweep SweepVerb(const StatusRequest& r, const VerbSchema& v,
                const kernel::Combatant& actor, bool first_only, bool stand_in) {
  const kernel::State& s = *r.state;
  std::vector<std::string> targets;
  if (v.targets != Use::kRequired) targets.push_back("");
  if (v.targets != Use::kNo) {
    for (const auto& [id, c] : s.combatants) targets.push_back(id);
  }
  std::vector<std::string> weapons;
  if (v.weapon != Use::kRequired) weapons.push_back("");
  if (v.weapon != Use::kNo) {
    for (const kernel::Weapon& w : actor.weapons) weapons.push_back(w.name);
  }
  std::vector<std::optional<kernel::Pos>> paths;
  if (v.path != Use::kRequired) paths.push_back(std::nullopt);
  if (v.path != Use::kNo) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx != 0 || dy != 0) paths.push_back(kernel::Pos{actor.at.x + dx, actor.at.y + dy});
      }
    }
  }
  // An answer names the open window it answers (kernel/window.h): each open
  // window is tried, newest first (a window opened inside another, as
  // energy_rounds' act that won Initiative, is the one waiting now), and no
  // window for the acts that answer none.
  std::vector<uint32_t> windows = {0};
  for (auto it = s.windows.rbegin(); it != s.windows.rend(); ++it) windows.push_back(it->first);
  Sweep out;
  out.act.verb = v.verb;
  out.act.doc = v.doc;
  for (const uint32_t window : windows) {
    for (const std::string& t : targets) {
      for (const std::string& w : weapons) {
        for (const std::optional<kernel::Pos>& p : paths) {
          fb::CommandT c = kernel::Skeleton(v, actor.id);
          if (stand_in) FillFreeText(v, c);
          c.window = window;
          // Asked as the engine would take it (kernel/authority.h): by the
          // combatant's player, or the GM for a combatant the GM runs.
          c.role = fb::Role::Player;
          if (r.state->schema_version >= 7) {
            kernel::AssignAuthority(*r.state, c);
          } else {
            c.author = actor.id;
          }
          c.id = "status-dry-run";
          if (!t.empty()) c.targets = {t};
          c.weapon = w;
          if (p.has_value()) c.path.push_back(fb::Pos(p->x, p->y));
          const absl::Status st = Try(r, c);
          if (st.ok()) {
            if (!out.any) {
              // Ready to edit: the caller's own id and author go in.
              fb::CommandT shown = c;
              shown.id.clear();
              shown.author.clear();
              out.act.command = CommandJson(shown);
            }
            out.any = true;
            if (!t.empty() && !Contains(out.act.targets, t)) out.act.targets.push_back(t);
            if (!w.empty() && !Contains(out.act.weapons, w)) out.act.weapons.push_back(w);
            if (first_only) return out;
            break;  // one path is enough to show
          }
          if (IsInputError(st)) {
            if (out.input.ok()) out.input = st;
          } else if (out.refusal.ok()) {
            out.refusal = st;
          }
        }
      }
    }
  }
  return out;
}

// Tries the candidates of `v` for `actor` (see the header); `first_only`
// stops at the first legal one.
Tried TryVerb(const StatusRequest& r, const VerbSchema& v,
              const kernel::Combatant& actor, bool first_only) {
  Sweep sw = SweepVerb(r, v, actor, first_only, /*stand_in=*/false);
  Tried out;
  if (sw.any) {
    out.legal = std::move(sw.act);
  } else if (!sw.refusal.ok()) {
    out.not_now = NotNow{v.verb, std::string(sw.refusal.message())};
  } else if (!sw.input.ok() && absl::StrContains(sw.input.message(), "field 'window'")) {
    // It answers a window and none it may answer is open.
    out.not_now = NotNow{v.verb, std::string(sw.input.message())};
  } else if (!sw.input.ok()) {
    // Every candidate lacked an input. Asked again with a stand-in for the
    // free-text inputs, the rules may refuse the act outright (no Actions
    // left, not this creature's turn): then it is not legal now, whatever
    // the input would be.
    const Sweep probe = SweepVerb(r, v, actor, /*first_only=*/true, /*stand_in=*/true);
    if (!probe.any && !probe.refusal.ok()) {
      out.not_now = NotNow{v.verb, std::string(probe.refusal.message())};
      return out;
    }
    LegalAct act = std::move(sw.act);
    act.command = CommandJson(kernel::Skeleton(v, actor.id));
    act.needs = std::string(sw.input.message());
    out.legal = std::move(act);
  }
  return out;
}

bool MayAct(const StatusRequest& r, const kernel::Combatant& c) {
  for (const VerbSchema& v : r.rules->Verbs()) {
    if (v.gm || v.actor == Use::kNo) continue;
    Tried t = TryVerb(r, v, c, /*first_only=*/true);
    if (t.legal.has_value() && t.legal->needs.empty()) return true;
  }
  return false;
}

// A JSON string (events/json_line.h's escaping: valid JSON whatever `s`
// holds).
std::string JsonQuote(const std::string& s) {
  std::string out;
  events::AppendJsonString(s, &out);
  return out;
}

std::string JsonList(const std::vector<std::string>& v) {
  std::vector<std::string> q;
  for (const std::string& s : v) q.push_back(JsonQuote(s));
  return absl::StrCat("[", absl::StrJoin(q, ","), "]");
}

std::string JsonPairs(const std::vector<std::pair<std::string, int64_t>>& v) {
  std::vector<std::string> q;
  for (const auto& [k, n] : v) q.push_back(absl::StrCat(JsonQuote(k), ":", n));
  return absl::StrCat("{", absl::StrJoin(q, ","), "}");
}

}  // namespace

absl::StatusOr<TableStatus> BuildStatus(const StatusRequest& r) {
  const kernel::State& s = *r.state;
  TableStatus out;
  out.session = s.session;
  out.branch = r.branch;
  out.seq = s.seq;
  out.ruleset = s.ruleset;
  out.round = s.round;
  out.active = s.active;
  out.active_members = s.active_members;
  if (s.ended) out.ended = s.end_reason.empty() ? "ended" : s.end_reason;
  const kernel::Display display = r.rules->display();
  for (const auto& [id, c] : s.combatants) out.combatants.push_back(Describe(c, display));
  for (const auto& [id, w] : s.windows) {
    out.windows.push_back({w.id, w.kind, w.trigger, kernel::MayAnswer(w), w.answered});
  }
  if (!r.for_combatant.empty()) {
    const kernel::Combatant* c = s.Find(r.for_combatant);
    if (c == nullptr) {
      std::vector<std::string> ids;
      for (const auto& [id, known] : s.combatants) ids.push_back(id);
      return absl::NotFoundError(absl::StrCat(
          "flag --for: '", r.for_combatant, "' is not in this session",
          events::DidYouMean(r.for_combatant, ids),
          "; the combatants are: ", absl::StrJoin(ids, ", ")));
    }
    out.for_combatant = c->id;
    if (!s.ended && r.no_acts_because.empty()) {
      for (const VerbSchema& v : r.rules->Verbs()) {
        if (v.gm || v.actor == Use::kNo) continue;
        Tried t = TryVerb(r, v, *c, /*first_only=*/false);
        if (t.legal.has_value()) out.legal.push_back(std::move(*t.legal));
        if (t.not_now.has_value()) out.not_now.push_back(std::move(*t.not_now));
      }
    }
  }
  out.note = r.no_acts_because.empty()
                 ? ""
                 : absl::StrCat("no acts tried: ", r.no_acts_because);
  if (s.active.empty() && !s.ended && s.combatants.size() <= kMayActLimit &&
      r.no_acts_because.empty()) {
    for (const auto& [id, c] : s.combatants) {
      if (MayAct(r, c)) out.may_act.push_back(id);
    }
  }
  return out;
}

std::string RenderStatus(const TableStatus& st) {
  std::string out;
  for (const std::string& w : st.warnings) absl::StrAppend(&out, "warning: ", w, "\n");
  absl::StrAppend(&out, "session ", st.session, " (", st.ruleset,
                                 ") branch ", st.branch, " after event #", st.seq,
                                 ": round ", st.round);
  if (!st.ended.empty()) {
    absl::StrAppend(&out, ", ENDED: ", st.ended);
  } else if (!st.active.empty()) {
    absl::StrAppend(&out, ", ", st.active, "'s turn");
    if (!st.active_members.empty()) {
      absl::StrAppend(&out, " (with ", absl::StrJoin(st.active_members, ", "), ")");
    }
  } else {
    absl::StrAppend(&out, ", no turns: may act now: ",
                    st.may_act.empty() ? "nobody" : absl::StrJoin(st.may_act, ", "));
  }
  absl::StrAppend(&out, "\n");
  for (const CombatantStatus& c : st.combatants) {
    absl::StrAppend(&out, "  ", c.id);
    if (!c.name.empty() && c.name != c.id) absl::StrAppend(&out, " \"", c.name, "\"");
    absl::StrAppend(&out, " [", c.side, "]");
    absl::StrAppend(&out, c.player.empty() ? " run by the GM" : " played by " + c.player);
    if (!c.controller.empty()) absl::StrAppend(&out, ", commanded by ", c.controller);
    absl::StrAppend(&out, " at (", c.at.x, ",", c.at.y, ")");
    for (const VitalStatus& v : c.vitals) {
      absl::StrAppend(&out, "  ", v.resource, " ", v.current);
      if (v.max.has_value()) absl::StrAppend(&out, "/", *v.max);
    }
    if (!c.budgets.empty()) {
      absl::StrAppend(&out, "  left:");
      for (const auto& [k, n] : c.budgets) absl::StrAppend(&out, " ", k, "=", n);
    }
    if (!c.other.empty()) absl::StrAppend(&out, " ");
    for (const auto& [k, n] : c.other) absl::StrAppend(&out, " ", k, "=", n);
    for (const ConditionStatus& k : c.conditions) {
      absl::StrAppend(&out, "\n      ", k.name);
      if (k.level != 0) absl::StrAppend(&out, " ", k.level);
      if (!k.relative_to.empty()) absl::StrAppend(&out, " (against ", k.relative_to, ")");
      if (!k.source.empty()) absl::StrAppend(&out, " from ", k.source);
      absl::StrAppend(&out, ", ", k.ends);
    }
    absl::StrAppend(&out, "\n");
  }
  for (const WindowStatus& w : st.windows) {
    absl::StrAppend(&out, "window #", w.id, " (", w.kind, ") on event #", w.trigger,
                    ": may answer: ",
                    w.may_answer.empty() ? "nobody" : absl::StrJoin(w.may_answer, ", "),
                    "; answered: ",
                    w.answered.empty() ? "nobody" : absl::StrJoin(w.answered, ", "),
                    "\n");
  }
  if (!st.note.empty()) absl::StrAppend(&out, "note: ", st.note, "\n");
  if (!st.for_combatant.empty() && st.note.empty()) {
    absl::StrAppend(&out, "legal now for ", st.for_combatant, ":",
                    st.legal.empty() ? " nothing" : "", "\n");
    for (const LegalAct& a : st.legal) {
      absl::StrAppend(&out, "  ", a.verb);
      if (!a.targets.empty()) absl::StrAppend(&out, " -> ", absl::StrJoin(a.targets, ", "));
      if (!a.weapons.empty()) absl::StrAppend(&out, " with ", absl::StrJoin(a.weapons, ", "));
      absl::StrAppend(&out, ": ", a.doc, "\n");
      if (!a.needs.empty()) absl::StrAppend(&out, "      needs: ", a.needs, "\n");
      absl::StrAppend(&out, "      ", a.command, "\n");
    }
    if (!st.not_now.empty()) absl::StrAppend(&out, "not now:\n");
    for (const NotNow& n : st.not_now) {
      absl::StrAppend(&out, "  ", n.verb, ": ", n.reason, "\n");
    }
  }
  return out;
}

std::string StatusJson(const TableStatus& st) {
  std::vector<std::string> cs;
  for (const CombatantStatus& c : st.combatants) {
    std::vector<std::string> vitals;
    for (const VitalStatus& v : c.vitals) {
      vitals.push_back(absl::StrCat("{\"resource\":", JsonQuote(v.resource),
                                    ",\"current\":", v.current, ",\"max\":",
                                    v.max.has_value() ? absl::StrCat(*v.max) : "null",
                                    "}"));
    }
    std::vector<std::string> conds;
    for (const ConditionStatus& k : c.conditions) {
      conds.push_back(absl::StrCat("{\"name\":", JsonQuote(k.name), ",\"level\":", k.level,
                                   ",\"source\":", JsonQuote(k.source),
                                   ",\"relative_to\":", JsonQuote(k.relative_to),
                                   ",\"ends\":", JsonQuote(k.ends), "}"));
    }
    cs.push_back(absl::StrCat(
        "{\"id\":", JsonQuote(c.id), ",\"name\":", JsonQuote(c.name),
        ",\"side\":", JsonQuote(c.side), ",\"controller\":", JsonQuote(c.controller),
        ",\"player\":", JsonQuote(c.player),
        ",\"at\":[", c.at.x, ",", c.at.y, "],\"vitals\":[", absl::StrJoin(vitals, ","),
        "],\"budgets\":", JsonPairs(c.budgets), ",\"other\":", JsonPairs(c.other),
        ",\"conditions\":[", absl::StrJoin(conds, ","), "]}"));
  }
  std::vector<std::string> ws;
  for (const WindowStatus& w : st.windows) {
    ws.push_back(absl::StrCat("{\"id\":", w.id, ",\"kind\":", JsonQuote(w.kind),
                              ",\"trigger\":", w.trigger,
                              ",\"may_answer\":", JsonList(w.may_answer),
                              ",\"answered\":", JsonList(w.answered), "}"));
  }
  std::vector<std::string> legal;
  for (const LegalAct& a : st.legal) {
    legal.push_back(absl::StrCat(
        "{\"verb\":", JsonQuote(a.verb), ",\"doc\":", JsonQuote(a.doc),
        ",\"targets\":", JsonList(a.targets), ",\"weapons\":", JsonList(a.weapons),
        ",\"needs\":", JsonQuote(a.needs),
        ",\"command\":", a.command.empty() ? "null" : a.command, "}"));
  }
  std::vector<std::string> not_now;
  for (const NotNow& n : st.not_now) {
    not_now.push_back(absl::StrCat("{\"verb\":", JsonQuote(n.verb),
                                   ",\"reason\":", JsonQuote(n.reason), "}"));
  }
  return absl::StrCat(
      "{\"session\":", JsonQuote(st.session), ",\"branch\":", JsonQuote(st.branch),
      ",\"seq\":", st.seq, ",\"ruleset\":", JsonQuote(st.ruleset),
      ",\"round\":", st.round, ",\"active\":", JsonQuote(st.active),
      ",\"active_members\":", JsonList(st.active_members),
      ",\"may_act\":", JsonList(st.may_act), ",\"ended\":", JsonQuote(st.ended),
      ",\"note\":", JsonQuote(st.note), ",\"warnings\":", JsonList(st.warnings),
      ",\"combatants\":[", absl::StrJoin(cs, ","), "],\"windows\":[",
      absl::StrJoin(ws, ","), "],\"for\":", JsonQuote(st.for_combatant),
      ",\"legal\":[", absl::StrJoin(legal, ","), "],\"not_now\":[",
      absl::StrJoin(not_now, ","), "]}\n");
}

}  // namespace combat::replay
