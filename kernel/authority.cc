#include "kernel/authority.h"

#include "absl/strings/str_cat.h"
#include "kernel/gm.h"

namespace combat::kernel {

std::string PlayerOf(const State& state, const std::string& id) {
  auto it = state.combatants.find(id);
  return it == state.combatants.end() ? std::string() : it->second.player;
}

bool IsPlayer(const State& state, const std::string& name) {
  if (name.empty()) return false;
  for (const auto& [id, c] : state.combatants) {
    if (c.player == name) return true;
  }
  return false;
}

void AssignAuthority(const State& state, fb::CommandT& command) {
  if (command.role == fb::Role::GM) {
    if (command.author.empty()) command.author = "gm";
    return;
  }
  if (command.role != fb::Role::Player) return;  // System: refused later
  const std::string player = IsGmVerb(command.action) ? std::string()
                                                      : PlayerOf(state, command.actor);
  if (!player.empty() && (command.author.empty() || command.author == player)) {
    command.author = player;
    return;
  }
  if (IsPlayer(state, command.author)) return;  // someone else's: refused
  command.role = fb::Role::GM;
  if (command.author.empty()) command.author = "gm";
}

absl::Status CheckAuthority(const State& state, const fb::CommandT& command) {
  const std::string verb = absl::StrCat("command '", command.action, "'");
  if (command.role == fb::Role::System) {
    return absl::PermissionDeniedError(absl::StrCat(
        verb, ": field 'role' is System, which only automatic steps have; "
              "a command is a player's (Player) or the GM's (GM)"));
  }
  if (command.author.empty()) {
    return absl::PermissionDeniedError(
        absl::StrCat(verb, ": field 'author' is empty: name who asks"));
  }
  if (command.role != fb::Role::Player) return absl::OkStatus();
  if (IsGmVerb(command.action)) {
    return absl::PermissionDeniedError(absl::StrCat(
        verb, " is the GM's: ", command.author,
        " asks as a player (role Player); the GM asks with role GM"));
  }
  if (command.actor.empty()) {
    return absl::PermissionDeniedError(absl::StrCat(
        verb, ": a player's command names the combatant it is for (field "
              "'actor'); a command for no combatant is the GM's (role GM)"));
  }
  auto it = state.combatants.find(command.actor);
  if (it == state.combatants.end()) return absl::OkStatus();  // the ruleset names it
  const std::string& player = it->second.player;
  if (player == command.author) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      verb, ": ", command.actor,
      player.empty() ? " is run by the GM (the roster names no player for it)"
                     : absl::StrCat(" is played by ", player),
      ", not ", command.author, "; ",
      player.empty() ? "the GM commands it with role GM"
                     : absl::StrCat(player, " commands it, or the GM with role GM")));
}

}  // namespace combat::kernel
