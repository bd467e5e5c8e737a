#include "replay/limits.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "flatbuffers/flatbuffers.h"

namespace combat::replay {
namespace {

absl::Status Over(const std::string& field, uint64_t size, uint64_t limit,
                  const char* unit) {
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": ", size, " ", unit, " is over the limit of ",
                   limit, " ", unit));
}

absl::Status Text(const std::string& field, const std::string& value) {
  if (value.size() <= kMaxTextBytes) return absl::OkStatus();
  return Over(field, value.size(), kMaxTextBytes, "bytes");
}

absl::Status Count(const std::string& field, uint64_t n, uint64_t limit) {
  if (n <= limit) return absl::OkStatus();
  return Over(field, n, limit, "items");
}

template <typename T>
absl::Status Items(const std::string& field, const std::vector<T>& items) {
  return Count(field, items.size(), kMaxListItems);
}

absl::Status Texts(const std::string& field,
                   const std::vector<std::string>& values) {
  RETURN_IF_ERROR(Items(field, values));
  for (size_t i = 0; i < values.size(); ++i) {
    RETURN_IF_ERROR(Text(absl::StrCat(field, "[", i, "]"), values[i]));
  }
  return absl::OkStatus();
}

absl::Status Numbers(const std::string& field,
                     const std::vector<std::unique_ptr<fb::NumberT>>& numbers) {
  RETURN_IF_ERROR(Items(field, numbers));
  for (size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i] == nullptr) continue;
    RETURN_IF_ERROR(Text(absl::StrCat(field, "[", i, "].key"), numbers[i]->key));
    RETURN_IF_ERROR(Text(absl::StrCat(field, "[", i, "].source"), numbers[i]->source));
    RETURN_IF_ERROR(Text(absl::StrCat(field, "[", i, "].rule"), numbers[i]->rule));
  }
  return absl::OkStatus();
}

absl::Status Combatant(const std::string& field, const fb::CombatantSpecT& c) {
  RETURN_IF_ERROR(Text(field + ".id", c.id));
  RETURN_IF_ERROR(Text(field + ".name", c.name));
  RETURN_IF_ERROR(Text(field + ".side", c.side));
  RETURN_IF_ERROR(Text(field + ".controller", c.controller));
  RETURN_IF_ERROR(Text(field + ".player", c.player));
  RETURN_IF_ERROR(Texts(field + ".tags", c.tags));
  RETURN_IF_ERROR(Numbers(field + ".stats", c.stats));
  RETURN_IF_ERROR(Items(field + ".weapons", c.weapons));
  for (size_t i = 0; i < c.weapons.size(); ++i) {
    const fb::WeaponT* w = c.weapons[i].get();
    if (w == nullptr) continue;
    const std::string at = absl::StrCat(field, ".weapons[", i, "]");
    RETURN_IF_ERROR(Text(at + ".name", w->name));
    RETURN_IF_ERROR(Text(at + ".damage", w->damage));
    RETURN_IF_ERROR(Text(at + ".kind", w->kind));
    RETURN_IF_ERROR(Text(at + ".category", w->category));
    RETURN_IF_ERROR(Text(at + ".damage_type", w->damage_type));
    RETURN_IF_ERROR(Numbers(at + ".numbers", w->numbers));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckCommandLimits(const fb::CommandT& c) {
  const std::string at = "command";
  RETURN_IF_ERROR(Text(at + " field 'id'", c.id));
  RETURN_IF_ERROR(Text(at + " field 'actor'", c.actor));
  RETURN_IF_ERROR(Text(at + " field 'author'", c.author));
  RETURN_IF_ERROR(Text(at + " field 'action'", c.action));
  RETURN_IF_ERROR(Text(at + " field 'weapon'", c.weapon));
  RETURN_IF_ERROR(Text(at + " field 'text'", c.text));
  RETURN_IF_ERROR(Text(at + " field 'contribution'", c.contribution));
  RETURN_IF_ERROR(Texts(at + " field 'targets'", c.targets));
  RETURN_IF_ERROR(Count(at + " field 'path'", c.path.size(), kMaxPathSquares));
  if (absl::Status dice = Count(at + " field 'dice'", c.dice.size(), kMaxManualDice);
      !dice.ok()) {
    if (c.action != "short_rest" && c.action != "long_rest") return dice;
    // A rest rolls, Round by Round, for everyone bleeding out or rolling to
    // wake (energy_rounds README, "Dice order"): the table that stops
    // rolling by hand gives the dice it rolled and asks for the rest
    // digitally (kernel/session.h kDigitalRest).
    return absl::InvalidArgumentError(absl::StrCat(
        dice.message(), "; a rest's many rolls: give at most ", kMaxManualDice,
        " dice with params {\"key\": \"digital_rest\", \"value\": 1} and "
        "the rest are rolled digitally (seeded)"));
  }
  RETURN_IF_ERROR(Items(at + " field 'params'", c.params));
  for (size_t i = 0; i < c.params.size(); ++i) {
    if (c.params[i] == nullptr) continue;
    const std::string p = absl::StrCat(at, " field 'params[", i, "]");
    RETURN_IF_ERROR(Text(p + ".key'", c.params[i]->key));
    RETURN_IF_ERROR(Text(p + ".text'", c.params[i]->text));
  }
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Command::Pack(fbb, &c));
  if (fbb.GetSize() > kMaxCommandBytes) {
    return Over(at, fbb.GetSize(), kMaxCommandBytes, "bytes");
  }
  return absl::OkStatus();
}

absl::Status CheckRosterLimits(const fb::RosterT& r) {
  RETURN_IF_ERROR(Text("roster field 'title'", r.title));
  RETURN_IF_ERROR(Text("roster field 'ruleset'", r.ruleset));
  RETURN_IF_ERROR(
      Count("roster field 'combatants'", r.combatants.size(), kMaxCombatants));
  if (r.map != nullptr) {
    RETURN_IF_ERROR(
        Count("roster field 'map.cells'", r.map->cells.size(), kMaxMapCells));
    for (size_t i = 0; i < r.map->cells.size(); ++i) {
      if (r.map->cells[i] == nullptr) continue;
      RETURN_IF_ERROR(Text(absl::StrCat("roster field 'map.cells[", i,
                                        "].terrain'"),
                           r.map->cells[i]->terrain));
    }
  }
  for (size_t i = 0; i < r.combatants.size(); ++i) {
    if (r.combatants[i] == nullptr) continue;
    RETURN_IF_ERROR(Combatant(absl::StrCat("roster field 'combatants[", i, "]"),
                              *r.combatants[i]));
  }
  return absl::OkStatus();
}

}  // namespace combat::replay
