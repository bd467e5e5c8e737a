#include "replay/setup_redecide.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/session.h"

namespace combat::replay {

absl::StatusOr<fb::RosterT> RosterOf(const RecordedCommand& setup) {
  if (setup.events.empty()) {
    return absl::InvalidArgumentError("the set-up has no events (were they kept?)");
  }
  const fb::Event& first = setup.events.front().event();
  const auto* sc = first.body_as_StateChange();
  const auto* started = sc != nullptr ? sc->change_as_SessionStarted() : nullptr;
  if (started == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("event #", first.seq(), " opens the set-up but is not SessionStarted"));
  }
  fb::RosterT roster;
  if (started->title() != nullptr) roster.title = started->title()->str();
  if (started->ruleset() != nullptr) roster.ruleset = started->ruleset()->str();
  if (started->map() != nullptr) roster.map.reset(started->map()->UnPack());
  for (const events::EventBuffer& e : setup.events) {
    const auto* change = e.event().body_as_StateChange();
    const auto* joined = change != nullptr ? change->change_as_CombatantJoined() : nullptr;
    if (joined == nullptr || joined->spec() == nullptr) continue;
    roster.combatants.emplace_back(joined->spec()->UnPack());
  }
  return roster;
}

absl::StatusOr<std::vector<events::EventBuffer>> RedecideSetup(
    const kernel::Ruleset& rules, const RecordedCommand& setup) {
  ASSIGN_OR_RETURN(fb::RosterT roster, RosterOf(setup));
  const fb::Event& first = setup.events.front().event();
  const auto* started = first.body_as_StateChange()->change_as_SessionStarted();
  std::vector<uint8_t> commitment;
  if (started->dice_commitment() != nullptr) {
    commitment.assign(started->dice_commitment()->begin(), started->dice_commitment()->end());
  }
  kernel::Envelope env;
  env.branch = first.branch() != nullptr ? first.branch()->str() : "main";
  env.author = first.author() != nullptr ? first.author()->str() : "";
  env.role = first.role();
  env.command_id = first.command_id() != nullptr ? first.command_id()->str() : "";
  if (started->signing_key() != nullptr) {
    env.signing_key.assign(started->signing_key()->begin(),
                           started->signing_key()->end());
  }
  env.schema_version = started->schema_version();
  RecordedByIndex dice(setup.rolls);
  const std::string session = first.session() != nullptr ? first.session()->str() : "";
  return kernel::SetUpSession(rules, session, roster, commitment, env, dice);
}

}  // namespace combat::replay
