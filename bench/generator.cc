#include "bench/generator.h"

#include <stdio.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"
#include "kernel/ruleset.h"
#include "kernel/authority.h"
#include "kernel/session.h"
#include "kernel/state.h"
#include "kernel/testing/roster.h"
#include "tests/testing/rng.h"

namespace combat::bench {
namespace {

using kernel::testing::Creature;
using kernel::testing::MakeRoster;
using kernel::testing::MakeWeapon;

using ::combat::testing::Rng;

std::unique_ptr<fb::ParamT> Num(const std::string& key, int64_t value,
                                 const std::string& text = "") {
  auto n = std::make_unique<fb::ParamT>();
  n->key = key;
  n->value = value;
  n->text = text;
  return n;
}

// Two sides facing each other in two columns: everyone has a foe in reach.
fb::RosterT D20Roster(int n) {
  std::vector<fb::CombatantSpecT> cs;
  for (int i = 0; i < n; ++i) {
    const bool party = i % 2 == 0;
    auto c = Creature(absl::StrCat(party ? "hero" : "gob", i / 2),
                      party ? "party" : "foes", party ? 5 : 6, 5 + i / 2,
                      {{"level", 2 + i % 3},
                       {"str", 3},
                       {"dex", 2},
                       {"ess", 1},
                       {"hp", 200},
                       {"speed", 30},
                       {"physical_defense", 13 + i % 3},
                       {"mental_defense", 12},
                       {"initiative", i % 3}});
    c.weapons.push_back(std::make_unique<fb::WeaponT>(
        party ? MakeWeapon("spear", "1d8", "melee", "medium", 5)
              : MakeWeapon("axe", "1d10", "melee", "heavy", 5)));
    cs.push_back(std::move(c));
  }
  return MakeRoster("d20_three_action", std::move(cs), 12, 12);
}

fb::RosterT EnergyRoster(int n) {
  std::vector<fb::CombatantSpecT> cs;
  for (int i = 0; i < n; ++i) {
    const bool party = i % 2 == 0;
    auto c = Creature(absl::StrCat(party ? "kara" : "orc", i / 2),
                      party ? "party" : "orcs", party ? 5 : 6, 5 + i / 2,
                      {{"level", 3},
                       {"str", 3},
                       {"dex", 2},
                       {"con", 2},
                       {"con_score", 40},
                       {"initiative", i % 3},
                       {"ac", 10},
                       {"ar", 2}});
    fb::WeaponT w = MakeWeapon(party ? "sword" : "axe", party ? "1d8" : "1d10",
                               "melee", party ? "medium" : "heavy");
    w.damage_type = "slashing";
    c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
    cs.push_back(std::move(c));
  }
  return MakeRoster("energy_rounds", std::move(cs), 12, 12);
}

bool Alive(const kernel::Combatant& c) {
  return !c.Has("Dead") && !c.Has("Unconscious") && !c.Has("Incapacitated");
}

// Conditions that take a creature out of the fight: the GM lifts them.
const char* const kOut[] = {"Dead", "Unconscious", "Incapacitated", "Dying",
                            "Bleeding", "Prone", "Restrained", "Grappled"};

class Player {
 public:
  Player(const GenOptions& o, const kernel::Ruleset& rules, Corpus& corpus)
      : o_(o),
        rules_(rules),
        corpus_(corpus),
        rng_(o.seed),
        dice_(corpus.secret, o.session) {}

  absl::Status SetUp() {
    fb::RosterT roster = o_.ruleset == "energy_rounds"
                             ? EnergyRoster(o_.combatants)
                             : D20Roster(o_.combatants);
    roster.title = absl::StrCat("bench ", o_.ruleset);
    kernel::Envelope env;
    env.author = "gm";
    env.role = fb::Role::GM;
    env.command_id = "setup";
    ASSIGN_OR_RETURN(
        auto evs,
        kernel::SetUpSession(rules_, o_.session, roster,
                             kernel::dice::SeededDice::Commitment(corpus_.secret),
                             env, dice_));
    RETURN_IF_ERROR(Take("setup", std::move(evs)));
    // The pools the GM keeps topped up: their values after set-up.
    for (const auto& [id, c] : state_.combatants) {
      for (const char* r : {"hp", "stamina", "aura"}) {
        auto it = c.resources.find(r);
        if (it != c.resources.end() && it->second > 0) full_[id][r] = it->second;
      }
    }
    return absl::OkStatus();
  }

  // Decides `c`; false when the ruleset refused it (nothing recorded).
  absl::StatusOr<bool> Try(fb::CommandT c) {
    c.id = absl::StrCat("c", ++next_id_);
    // Who asks, from the roster (schema 7: a creature no player plays is
    // the GM's to command), as the `combat` tool does.
    kernel::AssignAuthority(state_, c);
    kernel::Envelope env;
    env.prev_hash = prev_;
    auto evs = kernel::DecideCommand(rules_, state_, env, c, dice_);
    if (!evs.ok()) {
      const auto code = evs.status().code();
      if (code == absl::StatusCode::kFailedPrecondition ||
          code == absl::StatusCode::kNotFound ||
          code == absl::StatusCode::kInvalidArgument ||
          code == absl::StatusCode::kPermissionDenied) {
        ++corpus_.rejected;
        if (getenv("BENCH_GEN_DEBUG")) {
          fprintf(stderr, "refused %s %s: %s\n", c.actor.c_str(),
                  c.action.c_str(), std::string(evs.status().message()).c_str());
        }
        return false;
      }
      return evs.status();
    }
    if (evs->empty()) return false;
    RETURN_IF_ERROR(Take(c.id, *std::move(evs)));
    return true;
  }

  absl::Status Play() {
    RETURN_IF_ERROR(SetUp());
    const bool energy = o_.ruleset == "energy_rounds";
    uint64_t stuck = 0;
    while (corpus_.events.size() < o_.events) {
      const size_t before = corpus_.events.size();
      RETURN_IF_ERROR(Heal());
      if (energy) {
        RETURN_IF_ERROR(EnergyRound());
      } else {
        RETURN_IF_ERROR(D20Turn());
      }
      if (corpus_.events.size() == before) {
        if (++stuck > 100) return absl::InternalError("generator is stuck");
      } else {
        stuck = 0;
      }
      if (o_.progress && corpus_.events.size() / 100000 != before / 100000) {
        fprintf(stderr, "\r  generating %s: %zu events", o_.ruleset.c_str(),
                corpus_.events.size());
      }
    }
    if (o_.progress) fprintf(stderr, "\n");
    return absl::OkStatus();
  }

 private:
  absl::Status Take(const std::string& id, std::vector<events::EventBuffer> evs) {
    CorpusCommand cmd;
    cmd.id = id;
    cmd.begin = corpus_.events.size();
    for (auto& e : evs) {
      RETURN_IF_ERROR(kernel::FoldOne(e, state_, kernel::CheckHashes::kNo));
      corpus_.bytes += e.bytes().size();
      corpus_.events.push_back(std::move(e));
    }
    cmd.end = corpus_.events.size();
    prev_ = corpus_.events.back().hash();
    corpus_.commands.push_back(std::move(cmd));
    return absl::OkStatus();
  }

  fb::CommandT Gm(const std::string& action, const std::string& actor,
                  const std::string& text) {
    fb::CommandT c;
    c.action = action;
    c.actor = actor;
    c.role = fb::Role::GM;
    c.author = "gm";
    c.text = text;
    return c;
  }

  // The GM keeps everyone in the fight: pools below half are topped up,
  // conditions that take a creature out are lifted.
  absl::Status Heal() {
    for (const auto& [id, pools] : full_) {
      for (const auto& [name, full] : pools) {
        const kernel::Combatant* c = state_.Find(id);
        if (c == nullptr) continue;
        const int64_t now = c->Resource(name);
        if (now * 2 >= full) continue;
        fb::CommandT g = Gm("gm_adjust", id, "keep the benchmark going");
        g.params.push_back(Num("resource", 0, name));
        g.params.push_back(Num("delta", full - now));
        RETURN_IF_ERROR(Try(std::move(g)).status());
      }
      for (const char* cond : kOut) {
        const kernel::Combatant* c = state_.Find(id);
        if (c == nullptr || !c->Has(cond)) continue;
        fb::CommandT g = Gm("gm_condition", id, "back on their feet");
        g.params.push_back(Num("name", 0, cond));
        g.params.push_back(Num("op", 0, "remove"));
        RETURN_IF_ERROR(Try(std::move(g)).status());
      }
    }
    return absl::OkStatus();
  }

  // A foe of `me` within one square (Chebyshev), else the nearest foe.
  const kernel::Combatant* Foe(const kernel::Combatant& me, bool* in_reach) {
    const kernel::Combatant* best = nullptr;
    int64_t best_d = 1 << 30;
    std::vector<const kernel::Combatant*> near;
    for (const auto& [id, c] : state_.combatants) {
      if (c.side == me.side || !Alive(c)) continue;
      const int64_t d = std::max(std::abs(c.at.x - me.at.x), std::abs(c.at.y - me.at.y));
      if (d <= 1) near.push_back(&c);
      if (d < best_d) {
        best_d = d;
        best = &c;
      }
    }
    *in_reach = !near.empty();
    if (!near.empty()) return near[rng_.Below(near.size())];
    return best;
  }

  bool Free(int x, int y) const {
    if (x < 0 || y < 0 || x >= 12 || y >= 12) return false;
    for (const auto& [id, c] : state_.combatants) {
      if (c.at.x == x && c.at.y == y) return false;
    }
    return true;
  }

  absl::Status D20Turn() {
    const std::string me = state_.active;
    if (me.empty()) return absl::InternalError("d20: no active combatant");
    for (int act = 0; act < 3; ++act) {
      const kernel::Combatant* c = state_.Find(me);
      if (c == nullptr || !Alive(*c)) break;
      bool reach = false;
      const kernel::Combatant* foe = Foe(*c, &reach);
      if (foe == nullptr) break;
      fb::CommandT cmd;
      cmd.actor = me;
      if (reach && (act < 2 || rng_.Below(3) != 0)) {
        cmd.action = "attack";
        cmd.targets = {foe->id};
        cmd.weapon = c->weapons.empty() ? "" : c->weapons[0].name;
      } else {
        // Step toward the foe (or sideways along the line when in reach).
        int dx = foe->at.x > c->at.x ? 1 : foe->at.x < c->at.x ? -1 : 0;
        int dy = foe->at.y > c->at.y ? 1 : foe->at.y < c->at.y ? -1 : 0;
        if (reach) {
          dx = 0;
          dy = rng_.Below(2) ? 1 : -1;
        }
        const int x = c->at.x + dx, y = c->at.y + dy;
        if (!Free(x, y)) continue;
        cmd.action = "move";
        auto p = std::make_unique<fb::Pos>(x, y);
        cmd.path.push_back(*p);
      }
      ASSIGN_OR_RETURN(bool ok, Try(std::move(cmd)));
      (void)ok;
      if (state_.active != me) return absl::OkStatus();
    }
    fb::CommandT end;
    end.actor = me;
    end.action = "end_turn";
    ASSIGN_OR_RETURN(bool ok, Try(std::move(end)));
    if (!ok) {
      return absl::InternalError(absl::StrCat("d20: end_turn refused for ", me));
    }
    return absl::OkStatus();
  }

  absl::Status EnergyRound() {
    std::vector<std::string> ids;
    for (const auto& [id, c] : state_.combatants) ids.push_back(id);
    // A random starting creature, then in order.
    const size_t start = rng_.Below(ids.size());
    for (size_t k = 0; k < ids.size(); ++k) {
      const std::string& me = ids[(start + k) % ids.size()];
      const kernel::Combatant* c = state_.Find(me);
      if (c == nullptr || !Alive(*c)) continue;
      bool reach = false;
      const kernel::Combatant* foe = Foe(*c, &reach);
      if (foe == nullptr) continue;
      fb::CommandT m;
      m.actor = me;
      if (reach) {
        m.action = "melee";
        m.targets = {foe->id};
        m.weapon = c->weapons.empty() ? "" : c->weapons[0].name;
      } else {
        const int dx = foe->at.x > c->at.x ? 1 : foe->at.x < c->at.x ? -1 : 0;
        const int dy = foe->at.y > c->at.y ? 1 : foe->at.y < c->at.y ? -1 : 0;
        if (!Free(c->at.x + dx, c->at.y + dy)) continue;
        m.action = "shift";
        m.path.push_back(fb::Pos(c->at.x + dx, c->at.y + dy));
      }
      ASSIGN_OR_RETURN(bool ok, Try(std::move(m)));
      if (!ok) continue;
      // An act nobody interrupted at once stays pending in its open window
      // (kernel/pending.h) until the actor resolves it.
      if (!state_.windows.empty()) {
        fb::CommandT r;
        r.actor = me;
        r.action = "resolve";
        ASSIGN_OR_RETURN(bool resolved, Try(std::move(r)));
        if (!resolved) {
          fb::CommandT x;
          x.actor = me;
          x.action = "cancel";
          ASSIGN_OR_RETURN(bool cancelled, Try(std::move(x)));
          if (!cancelled) return absl::InternalError("energy: act stuck");
        }
      }
      if (rng_.Below(2) == 0) {
        fb::CommandT d;
        d.actor = me;
        d.action = "defend";
        d.params.push_back(Num("at_once", 1));
        RETURN_IF_ERROR(Try(std::move(d)).status());
      }
    }
    fb::CommandT end = Gm("end_round", "", "the round is over");
    ASSIGN_OR_RETURN(bool ok, Try(std::move(end)));
    if (!ok) return absl::InternalError("energy: end_round refused");
    return absl::OkStatus();
  }

  const GenOptions& o_;
  const kernel::Ruleset& rules_;
  Corpus& corpus_;
  Rng rng_;
  kernel::dice::SeededDice dice_;
  kernel::State state_;
  events::Digest prev_{};
  uint64_t next_id_ = 0;
  std::map<std::string, std::map<std::string, int64_t>> full_;
};

}  // namespace

absl::StatusOr<Corpus> Generate(const GenOptions& options) {
  const kernel::Ruleset* rules = kernel::FindRuleset(options.ruleset);
  if (rules == nullptr) {
    return absl::NotFoundError(absl::StrCat("no ruleset ", options.ruleset));
  }
  const auto t0 = std::chrono::steady_clock::now();
  Corpus corpus;
  corpus.secret.assign(32, 0);
  for (int i = 0; i < 32; ++i) {
    corpus.secret[i] = static_cast<uint8_t>(options.seed * 31 + i * 7);
  }
  corpus.meta.session = options.session;
  corpus.meta.ruleset = rules->id();
  corpus.meta.ruleset_version = rules->version();
  corpus.meta.title = absl::StrCat("bench ", rules->id());
  Player p(options, *rules, corpus);
  RETURN_IF_ERROR(p.Play());
  corpus.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - t0)
                       .count();
  return corpus;
}

namespace {

void PutU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}
bool GetU64(const std::string& in, size_t& pos, uint64_t& v) {
  if (pos + 8 > in.size()) return false;
  v = 0;
  for (int i = 0; i < 8; ++i) {
    v |= static_cast<uint64_t>(static_cast<uint8_t>(in[pos + i])) << (8 * i);
  }
  pos += 8;
  return true;
}

// The cache file: "CBC1", counts, then per command (id, count) and per
// event (size, bytes).
std::string Serialize(const Corpus& c) {
  std::string out = "CBC1";
  PutU64(out, c.commands.size());
  for (const auto& cmd : c.commands) {
    PutU64(out, cmd.id.size());
    out += cmd.id;
    PutU64(out, cmd.end - cmd.begin);
  }
  PutU64(out, c.events.size());
  for (const auto& e : c.events) {
    PutU64(out, e.bytes().size());
    out.append(reinterpret_cast<const char*>(e.bytes().data()), e.bytes().size());
  }
  PutU64(out, c.rejected);
  return out;
}

bool Deserialize(const std::string& in, Corpus& c) {
  if (in.compare(0, 4, "CBC1") != 0) return false;
  size_t pos = 4;
  uint64_t n = 0;
  if (!GetU64(in, pos, n)) return false;
  size_t at = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t len = 0, count = 0;
    if (!GetU64(in, pos, len) || pos + len > in.size()) return false;
    CorpusCommand cmd;
    cmd.id = in.substr(pos, len);
    pos += len;
    if (!GetU64(in, pos, count)) return false;
    cmd.begin = at;
    cmd.end = at + count;
    at = cmd.end;
    c.commands.push_back(std::move(cmd));
  }
  if (!GetU64(in, pos, n) || n != at) return false;
  c.events.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t len = 0;
    if (!GetU64(in, pos, len) || pos + len > in.size()) return false;
    auto e = events::EventBuffer::FromBytes(in.data() + pos, len, "cache");
    if (!e.ok()) return false;
    c.bytes += len;
    c.events.push_back(*std::move(e));
    pos += len;
  }
  return GetU64(in, pos, c.rejected);
}

}  // namespace

absl::StatusOr<Corpus> GenerateCached(const GenOptions& options) {
  const std::string dir = "/tmp/combat_bench_cache";
  const std::string path =
      absl::StrCat(dir, "/", options.ruleset, "_", options.session, "_",
                   options.seed, "_", options.combatants, "_", options.events,
                   ".bin");
  // A fresh probe: the first ~2000 events, decided now.
  GenOptions probe_o = options;
  probe_o.events = 2000;
  probe_o.progress = false;
  ASSIGN_OR_RETURN(Corpus probe, Generate(probe_o));
  std::ifstream f(path, std::ios::binary);
  if (f) {
    std::string in((std::istreambuf_iterator<char>(f)),
                   std::istreambuf_iterator<char>());
    Corpus c;
    if (Deserialize(in, c) && c.events.size() >= probe.events.size()) {
      bool same = true;
      for (size_t i = 0; i < probe.events.size() && same; ++i) {
        same = probe.events[i].bytes() == c.events[i].bytes();
      }
      if (same) {
        c.meta = probe.meta;
        c.secret = probe.secret;
        return c;
      }
    }
  }
  ASSIGN_OR_RETURN(Corpus c, Generate(options));
  mkdir(dir.c_str(), 0755);
  const std::string tmp = absl::StrCat(path, ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    const std::string bytes = Serialize(c);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  rename(tmp.c_str(), path.c_str());
  return c;
}

}  // namespace combat::bench
