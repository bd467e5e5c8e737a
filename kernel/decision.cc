#include "kernel/decision.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/dice/notation.h"
#include "kernel/fold.h"
#include "kernel/state_codec.h"

namespace combat::kernel {
namespace {

// Dice from a record, each with its recorded provenance; `rest` answers
// once they run out.
class PresetDice : public dice::DiceSource {
 public:
  PresetDice(std::vector<dice::RolledDie> dice, dice::DiceSource& rest)
      : dice_(std::move(dice)), rest_(rest) {}
  absl::StatusOr<dice::RolledDie> Next(int faces, int64_t index) override {
    if (next_ >= dice_.size()) return rest_.Next(faces, index);
    dice::RolledDie d = dice_[next_++];
    if (d.faces != faces || d.value < 1 || d.value > faces) {
      return absl::InvalidArgumentError(absl::StrCat(
          "recorded die d", d.faces, "=", d.value, " does not fit a d", faces));
    }
    return d;
  }

 private:
  std::vector<dice::RolledDie> dice_;
  size_t next_ = 0;
  dice::DiceSource& rest_;
};

}  // namespace

Decision::Decision(const State& base, Envelope envelope,
                   dice::DiceSource& dice)
    : base_seq_(base.seq), state_(base), envelope_(std::move(envelope)), dice_(dice) {}

absl::Status Decision::ScanAll(uint64_t upto, const EventVisitor& visit) const {
  if (base_seq_ > 0) {
    if (prefix_ == nullptr) {
      return absl::NotFoundError("the branch's earlier events are not available");
    }
    RETURN_IF_ERROR((*prefix_)(std::min(upto, base_seq_), visit));
  }
  for (const events::EventBuffer& e : events_) {
    if (e.event().seq() > upto) break;
    RETURN_IF_ERROR(visit(e.event()));
  }
  return absl::OkStatus();
}

absl::Status Decision::Lookup(uint64_t seq, const EventVisitor& visit) const {
  if (seq == 0 || seq > state_.seq) {
    return absl::NotFoundError(absl::StrCat("no event ", seq));
  }
  bool found = false;
  RETURN_IF_ERROR(ScanAll(seq, [&](const fb::Event& e) -> absl::Status {
    if (e.seq() != seq) return absl::OkStatus();
    found = true;
    return visit(e);
  }));
  if (!found) return absl::NotFoundError(absl::StrCat("no event ", seq));
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Decision::Emit(fb::EventT event) {
  event.session = state_.session;
  event.branch = envelope_.branch;
  event.seq = next_seq();
  event.author = system_ ? "system" : envelope_.author;
  event.role = system_ ? fb::Role::System : envelope_.role;
  event.command_id = envelope_.command_id;
  event.ruleset = envelope_.ruleset;
  event.ruleset_version = envelope_.ruleset_version;
  event.prev_hash.assign(envelope_.prev_hash.begin(), envelope_.prev_hash.end());
  const std::string context = absl::StrCat("event seq ", event.seq);

  // Encoded once, with a placeholder state hash (32 zero bytes) that is
  // overwritten once the state after the event is known (SetStateHash:
  // the bytes are then exactly EncodeEvent's for the final event).
  event.state_hash.assign(events::Digest().size(), 0);
  ASSIGN_OR_RETURN(events::EventBuffer draft,
                   events::EventBuffer::FromOwned(events::EncodeEvent(event),
                                                  context));
  // Applied in place: the reducer checks before it mutates, and any error
  // here fails the whole decision, whose working state is then discarded.
  // In place also keeps references into state() valid across emits (a
  // void's re-derivation excepted).
  const PrefixScan all = [this](uint64_t upto, const EventVisitor& visit) {
    return ScanAll(upto, visit);
  };
  RETURN_IF_ERROR(ApplyEvent(draft.event(), state_, &all));
  if (event.session.empty()) {
    // SessionStarted names the session it starts: the envelope takes it
    // from the state it just set, so this one event is encoded again.
    event.session = state_.session;
    ASSIGN_OR_RETURN(draft, events::EventBuffer::FromOwned(events::EncodeEvent(event),
                                                           context));
  }
  RETURN_IF_ERROR(draft.SetStateHash(StateHash(state_)));
  envelope_.prev_hash = draft.hash();
  events_.push_back(std::move(draft));
  return state_.seq;
}

absl::StatusOr<uint64_t> Decision::Declare(const fb::CommandT& command) {
  fb::EventT event;
  fb::DeclarationT body;
  body.command = std::make_unique<fb::CommandT>(command);
  event.body.Set(std::move(body));
  return Emit(std::move(event));
}

absl::StatusOr<uint64_t> Decision::Interrupt(const fb::CommandT& command,
                                             uint32_t window) {
  fb::EventT event;
  fb::InterruptT body;
  body.command = std::make_unique<fb::CommandT>(command);
  body.window = window;
  event.body.Set(std::move(body));
  event.cause = 0;
  ASSIGN_OR_RETURN(uint64_t seq, Emit(std::move(event)));
  answering_ = window;
  return seq;
}

absl::StatusOr<dice::RollResult> Decision::Roll(absl::string_view notation,
                                                absl::string_view purpose,
                                                absl::string_view roller,
                                                uint64_t cause) {
  ASSIGN_OR_RETURN(dice::DiceExpr expr, dice::ParseDice(notation));
  // Seeded dice mix the branch and the acting side's contribution (v5).
  dice::RollContext context;
  context.schema_version = state_.schema_version;
  if (context.schema_version >= 5) {
    context.branch = envelope_.branch;
    context.contribution = envelope_.dice_contribution.empty()
                               ? envelope_.command_id
                               : envelope_.dice_contribution;
  }
  dice_.SetContext(context);
  std::optional<RecordedRoll> recorded;
  if (oracle_ != nullptr) recorded = oracle_->Next(purpose, roller, expr.text);
  std::optional<PresetDice> preset;
  if (recorded.has_value()) preset.emplace(recorded->dice, dice_);
  dice::DiceSource& source = preset.has_value()
                                 ? static_cast<dice::DiceSource&>(*preset)
                                 : dice_;
  ASSIGN_OR_RETURN(dice::RollResult result,
                   dice::Evaluate(expr, source, state_.next_roll_index));
  fb::EventT event;
  event.cause = cause;
  fb::RollT body;
  body.purpose = std::string(purpose);
  body.roller = std::string(roller);
  body.expression = expr.text;
  body.contribution = context.contribution;
  if (recorded.has_value()) body.reason = recorded->reason;
  for (const fb::DieT& d : result.dice) {
    if (d.provenance == fb::Provenance::GmOverride && body.reason.empty()) {
      body.reason = envelope_.dice_reason;
    }
    body.dice.push_back(std::make_unique<fb::DieT>(d));
  }
  body.modifier = result.modifier;
  body.total = result.total;
  body.successes = result.successes;
  event.body.Set(std::move(body));
  RETURN_IF_ERROR(Emit(std::move(event)).status());
  return result;
}

absl::Status Decision::Change(uint64_t cause, absl::string_view rule,
                              const Nums& nums, fb::ChangeUnion change,
                              absl::string_view note) {
  fb::EventT event;
  event.cause = cause;
  fb::StateChangeT body;
  body.cause = cause;
  body.rule = std::string(rule);
  for (const Num& n : nums) {
    auto number = std::make_unique<fb::NumberT>();
    number->key = n.key;
    number->value = n.value;
    number->source = n.source;
    number->rule = n.rule;
    body.numbers.push_back(std::move(number));
  }
  body.note = std::string(note);
  body.change = std::move(change);
  event.body.Set(std::move(body));
  return Emit(std::move(event)).status();
}

}  // namespace combat::kernel
