#include "kernel/session.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "kernel/authority.h"
#include "kernel/changes.h"
#include "kernel/command.h"
#include "kernel/fold.h"
#include "kernel/reducer.h"
#include "kernel/state_codec.h"

namespace combat::kernel {

absl::StatusOr<std::vector<events::EventBuffer>> SetUpSession(
    const Ruleset& rules, const std::string& session, const fb::RosterT& roster,
    const std::vector<uint8_t>& dice_commitment, Envelope envelope,
    dice::DiceSource& seeded) {
  if (!roster.ruleset.empty() && roster.ruleset != rules.id()) {
    return absl::InvalidArgumentError(
        absl::StrCat("roster field 'ruleset' is '", roster.ruleset,
                     "' but the session uses '", rules.id(), "'"));
  }
  envelope.ruleset = rules.id();
  envelope.ruleset_version = rules.version();
  State empty;
  Decision d(empty, std::move(envelope), seeded);
  fb::MapT map = roster.map ? *roster.map : fb::MapT();
  const Measure measure = rules.measure();
  if (map.unit != measure.unit && map.unit != fb::DistanceUnit::Feet) {
    return absl::InvalidArgumentError(absl::StrCat(
        "roster field 'map.unit' is ", fb::EnumNameDistanceUnit(map.unit), " but ",
        rules.id(), " measures in ", fb::EnumNameDistanceUnit(measure.unit)));
  }
  if (map.square != 0 && map.square != measure.square) {
    return absl::InvalidArgumentError(absl::StrCat(
        "roster field 'map.square' is ", map.square, " but a square of ", rules.id(),
        " is ", measure.square, " ", fb::EnumNameDistanceUnit(measure.unit)));
  }
  map.unit = measure.unit;
  map.square = measure.square;
  RETURN_IF_ERROR(StartSession(d, session, roster.title, map, dice_commitment,
                               {0, "session.start"}));
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Roster::Pack(fbb, &roster));
  RETURN_IF_ERROR(
      rules.Setup(*flatbuffers::GetRoot<fb::Roster>(fbb.GetBufferPointer()), d));
  return d.TakeEvents();
}

absl::StatusOr<std::vector<events::EventBuffer>> DecideCommand(
    const Ruleset& rules, const State& state, Envelope envelope,
    const fb::CommandT& command, dice::DiceSource& seeded,
    const PrefixScan* prefix, RollOracle* oracle) {
  if (state.session.empty()) {
    return absl::FailedPreconditionError("the session has not been set up");
  }
  // The dice secret is revealed at the end (design.md, "Dice"): gm_reveal
  // is the one command an ended session still takes.
  if (state.ended && command.action != "gm_reveal") {
    return absl::FailedPreconditionError(
        absl::StrCat("the session has ended (", state.end_reason, ")"));
  }
  // The verb's schema first: nothing is decided from a malformed command.
  RETURN_IF_ERROR(CheckCommand(rules.Verbs(), command));
  // Who may ask (kernel/authority.h): sessions of schema 7 on (earlier logs
  // recorded players' and the GM's commands alike as role Player).
  if (state.schema_version >= 7) RETURN_IF_ERROR(CheckAuthority(state, command));
  envelope.ruleset = rules.id();
  envelope.ruleset_version = rules.version();
  envelope.author = command.author;
  envelope.role = command.role;
  envelope.command_id = command.id;
  envelope.dice_contribution = command.contribution;
  const bool override_dice = HasParam(command, kDiceOverride);
  if (override_dice && command.role != fb::Role::GM) {
    return absl::PermissionDeniedError(
        "param 'dice_override': only the GM may override dice");
  }
  if (override_dice && command.text.empty()) {
    return absl::InvalidArgumentError(
        "param 'dice_override': field 'text' (the reason) is required");
  }
  if (override_dice) envelope.dice_reason = command.text;
  dice::ManualDice manual(command.dice, &seeded,
                          override_dice ? fb::Provenance::GmOverride
                                        : fb::Provenance::Manual);
  Decision d(state, std::move(envelope), manual);
  d.set_prefix(prefix);
  d.set_roll_oracle(oracle);
  RETURN_IF_ERROR(rules.Decide(command, d));
  // Physical dice are all or nothing: a command that gives some and rolls
  // more is refused (a die forgotten at the table must not be replaced by a
  // digital one unnoticed) unless it asks for digital dice for the rest.
  if (!command.dice.empty() && manual.fallback_rolls() != 0 &&
      ParamOr(command, kDigitalRest, 0) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command '", command.action, "': field 'dice': ", command.dice.size(),
        " physical dice given but the command rolled ",
        command.dice.size() + manual.fallback_rolls(),
        "; give every die, or add params {\"key\": \"", kDigitalRest,
        "\", \"value\": 1} for digital (seeded) dice for the rest"));
  }
  if (manual.remaining() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command '", command.action, "': field 'dice' supplied ",
        command.dice.size(), " dice but only ",
        command.dice.size() - manual.remaining(), " were rolled"));
  }
  if (d.events().empty()) {
    return absl::InternalError(absl::StrCat("ruleset ", rules.id(),
                                            " accepted '", command.action,
                                            "' but emitted no event"));
  }
  return d.TakeEvents();
}

absl::Status FoldOne(const events::EventBuffer& event, State& state,
                     CheckHashes check, const PrefixScan* prefix) {
  RETURN_IF_ERROR(ApplyEvent(event.event(), state, prefix));
  if (check == CheckHashes::kYes) {
    const auto* recorded = event.event().state_hash();
    const events::Digest actual = StateHash(state);
    if (recorded == nullptr || recorded->size() != actual.size() ||
        !std::equal(actual.begin(), actual.end(), recorded->begin())) {
      return absl::DataLossError(absl::StrCat(
          "event seq ", event.event().seq(),
          ": recorded state hash does not match the replayed state (",
          events::Hex(actual), ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status Fold(const std::vector<events::EventBuffer>& events, State& state,
                  CheckHashes check, const PrefixScan* prefix) {
  const PrefixScan own = ScanOf(events);
  if (prefix == nullptr) prefix = &own;
  if (check == CheckHashes::kNo) return FoldEvents(events, state, prefix);
  for (const events::EventBuffer& e : events) {
    RETURN_IF_ERROR(FoldOne(e, state, check, prefix));
  }
  return absl::OkStatus();
}

PrefixScan ScanOf(const std::vector<events::EventBuffer>& events) {
  return [&events](uint64_t upto, const EventVisitor& visit) -> absl::Status {
    for (const events::EventBuffer& e : events) {
      if (e.event().seq() > upto) break;
      RETURN_IF_ERROR(visit(e.event()));
    }
    return absl::OkStatus();
  };
}

}  // namespace combat::kernel
