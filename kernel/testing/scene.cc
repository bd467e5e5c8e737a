#include "kernel/testing/scene.h"

#include <utility>

#include "kernel/session.h"

namespace combat::kernel::testing {

Why TestWhy(uint64_t cause) { return Why{cause, "test"}; }

Scene::Scene(std::vector<fb::CombatantSpecT> combatants)
    : dice_(std::vector<uint8_t>(32, 0x5a), "scene"),
      prefix_(ScanOf(log_)) {
  Envelope env;
  env.author = "gm";
  env.role = fb::Role::GM;
  env.ruleset = "test";
  env.ruleset_version = 1;
  decision_ = std::make_unique<Decision>(committed_, env, dice_);
  fb::MapT map;
  map.width = 20;
  map.height = 20;
  status_ = StartSession(*decision_, "scene", "kernel test", map, {}, TestWhy());
  for (const fb::CombatantSpecT& c : combatants) {
    if (status_.ok()) status_ = JoinCombatant(*decision_, c, TestWhy());
  }
  Next();
}

void Scene::Commit() {
  committed_ = decision_->state();
  for (events::EventBuffer& e : decision_->TakeEvents()) log_.push_back(std::move(e));
}

Decision& Scene::Next() {
  Commit();
  Envelope env = decision_->envelope();
  if (!log_.empty()) env.prev_hash = log_.back().hash();
  decision_ = std::make_unique<Decision>(committed_, env, dice_);
  decision_->set_prefix(&prefix_);
  return *decision_;
}

events::EventBuffer Scene::Forge(const State& s, fb::ChangeUnion change) {
  fb::EventT e;
  e.session = s.session;
  e.branch = "main";
  e.seq = s.seq + 1;
  fb::StateChangeT sc;
  sc.rule = "forged";
  sc.change = std::move(change);
  e.body.Set(std::move(sc));
  auto buf = events::EventBuffer::FromOwned(events::EncodeEvent(e), "forged");
  return std::move(*buf);
}

}  // namespace combat::kernel::testing
