#include "replay/recorded.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace combat::replay {
namespace {

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

}  // namespace

std::string RecordedCommand::Describe() const {
  if (!command.has_value()) {
    return command_id == "setup" ? "set-up" : absl::StrCat("command ", command_id);
  }
  const fb::CommandT& c = *command;
  std::string out = absl::StrCat(c.actor.empty() ? "GM" : c.actor, ": ", c.action);
  if (!c.targets.empty()) absl::StrAppend(&out, " ", absl::StrJoin(c.targets, ", "));
  if (!c.weapon.empty()) absl::StrAppend(&out, " with ", c.weapon);
  for (const auto& p : c.params) {
    absl::StrAppend(&out, " ", p->key, "=",
                    p->text.empty() ? absl::StrCat(p->value) : p->text);
  }
  if (!c.text.empty()) absl::StrAppend(&out, " \"", c.text, "\"");
  absl::StrAppend(&out, " (", c.author.empty() ? "no author" : "by " + c.author, ", ",
                  fb::EnumNameRole(c.role),
                  command_id.empty() ? "" : absl::StrCat(", command ", command_id),
                  ")");
  return out;
}

std::optional<RecordedRoll> RollOf(const fb::Event& event) {
  if (event.body_type() != fb::Body::Roll) return std::nullopt;
  const fb::Roll* r = event.body_as_Roll();
  RecordedRoll out;
  out.seq = event.seq();
  out.branch = S(event.branch());
  out.purpose = S(r->purpose());
  out.roller = S(r->roller());
  out.expression = S(r->expression());
  out.reason = S(r->reason());
  if (r->dice() != nullptr) {
    for (const fb::Die* d : *r->dice()) {
      out.dice.push_back({d->faces(), d->value(), d->provenance()});
      out.indices.push_back(d->index());
    }
  }
  return out;
}

std::optional<RecordedCommand> CommandGrouper::Add(
    const events::EventBuffer& event) {
  const fb::Event& e = event.event();
  const std::string branch = S(e.branch());
  const std::string id = S(e.command_id());
  std::optional<RecordedCommand> done;
  if (!current_.has_value() || current_->branch != branch ||
      current_->command_id != id) {
    done = std::move(current_);
    current_.emplace();
    current_->branch = branch;
    current_->command_id = id;
    current_->first = e.seq();
  }
  RecordedCommand& c = *current_;
  c.last = e.seq();
  if (!c.command.has_value()) {
    const fb::Command* cmd = nullptr;
    if (e.body_type() == fb::Body::Declaration) {
      cmd = e.body_as_Declaration()->command();
    } else if (e.body_type() == fb::Body::Interrupt) {
      cmd = e.body_as_Interrupt()->command();
      c.interrupt = true;
    }
    if (cmd != nullptr) {
      c.command.emplace();
      cmd->UnPackTo(&*c.command);
      c.declared_at = e.seq();
    }
  }
  if (auto roll = RollOf(e); roll.has_value()) c.rolls.push_back(std::move(*roll));
  if (keep_) c.events.push_back(event);
  return done;
}

std::optional<RecordedCommand> CommandGrouper::Finish() {
  std::optional<RecordedCommand> done = std::move(current_);
  current_.reset();
  return done;
}

ExactOracle::ExactOracle(const std::vector<RecordedRoll>& rolls,
                         size_t manual_dice)
    : rolls_(rolls), used_(rolls.size(), false), manual_dice_(manual_dice) {}

std::optional<kernel::RecordedRoll> ExactOracle::Next(
    absl::string_view purpose, absl::string_view roller,
    absl::string_view expression) {
  for (size_t i = 0; i < rolls_.size(); ++i) {
    const RecordedRoll& r = rolls_[i];
    if (used_[i] || r.purpose != purpose || r.roller != roller ||
        r.expression != expression) {
      continue;
    }
    used_[i] = true;
    if (declined_dice_ < manual_dice_) {
      // The command's own dice answer this roll, as they did first time.
      declined_dice_ += r.dice.size();
      return std::nullopt;
    }
    return kernel::RecordedRoll{r.dice, r.reason};
  }
  return std::nullopt;
}

std::vector<const RecordedRoll*> ExactOracle::Unused() const {
  std::vector<const RecordedRoll*> out;
  for (size_t i = 0; i < rolls_.size(); ++i) {
    if (!used_[i]) out.push_back(&rolls_[i]);
  }
  return out;
}

RecordedByIndex::RecordedByIndex(const std::vector<RecordedRoll>& rolls) {
  for (const RecordedRoll& r : rolls) {
    for (size_t i = 0; i < r.dice.size() && i < r.indices.size(); ++i) {
      dice_.push_back({r.indices[i], r.dice[i]});
    }
  }
}

std::vector<uint8_t> OutcomeBytes(const events::EventBuffer& e) {
  fb::EventT t;
  e.event().UnPackTo(&t);
  t.branch.clear();
  t.seq = 0;
  t.cause = 0;
  t.prev_hash.clear();
  t.state_hash.clear();
  if (auto* d = t.body.AsDeclaration(); d != nullptr && d->command) {
    d->command->dice.clear();
  }
  if (auto* in = t.body.AsInterrupt(); in != nullptr && in->command) {
    in->command->dice.clear();
  }
  if (auto* r = t.body.AsRoll(); r != nullptr) {
    r->reason.clear();
    r->contribution.clear();
    for (auto& die : r->dice) {
      die->provenance = fb::Provenance::Seeded;
      die->index = 0;
    }
  }
  if (auto* sc = t.body.AsStateChange(); sc != nullptr) sc->cause = 0;
  return events::EncodeEvent(t);
}

absl::StatusOr<kernel::dice::RolledDie> RecordedByIndex::Next(int faces,
                                                              int64_t index) {
  for (const auto& [at, die] : dice_) {
    if (at != index) continue;
    if (die.faces != faces) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the decider asked for a d", faces, " as roll index ", index,
          " but the log records a d", die.faces, " there"));
    }
    return die;
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "the decider asked for a d", faces, " (roll index ", index,
      ") that the log does not record"));
}

}  // namespace combat::replay
