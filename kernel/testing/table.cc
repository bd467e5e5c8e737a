#include "kernel/authority.h"
#include "kernel/testing/table.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/session.h"

namespace combat::kernel::testing {
namespace {

std::vector<uint8_t> TestSecret() {
  return std::vector<uint8_t>(32, 0x5a);
}

Envelope Env(const std::vector<events::EventBuffer>& log) {
  Envelope e;
  e.branch = "main";
  if (!log.empty()) e.prev_hash = log.back().hash();
  return e;
}

}  // namespace

Table::Table(const Ruleset& rules, const fb::RosterT& roster,
             std::vector<int> setup_dice)
    : rules_(rules), seeded_(TestSecret(), "test") {
  dice::ManualDice manual(std::move(setup_dice), &seeded_);
  Envelope env = Env(log_);
  env.author = "gm";
  env.role = fb::Role::GM;
  env.command_id = "setup";
  auto events = SetUpSession(rules, "test", roster,
                             dice::SeededDice::Commitment(TestSecret()), env,
                             manual);
  if (!events.ok()) {
    status_ = events.status();
    return;
  }
  if (manual.remaining() != 0) {
    status_ = absl::InvalidArgumentError(
        absl::StrCat("setup left ", manual.remaining(), " dice unused"));
    return;
  }
  status_ = Fold(*events, state_, CheckHashes::kYes);
  for (auto& e : *events) log_.push_back(std::move(e));
}

absl::StatusOr<std::vector<events::EventBuffer>> Table::Submit(
    fb::CommandT command, std::vector<int> dice) {
  RETURN_IF_ERROR(status_);
  if (!dice.empty()) command.dice = std::move(dice);
  if (command.id.empty()) command.id = absl::StrCat("c", next_command_++);
  // Who asks, from the roster, as the engine completes it (kernel/authority.h),
  // unless the test names the author: then its role is taken as given.
  if (command.author.empty()) AssignAuthority(state_, command);
  const PrefixScan prefix = ScanOf(log_);
  ASSIGN_OR_RETURN(std::vector<events::EventBuffer> events,
                   DecideCommand(rules_, state_, Env(log_), command, seeded_,
                                 &prefix));
  std::vector<events::EventBuffer> candidate = log_;
  candidate.insert(candidate.end(), events.begin(), events.end());
  const PrefixScan all = ScanOf(candidate);
  State next = state_;
  RETURN_IF_ERROR(Fold(events, next, CheckHashes::kYes, &all));
  state_ = std::move(next);
  log_ = std::move(candidate);
  return events;
}

absl::StatusOr<State> Table::Replay() const {
  State s;
  RETURN_IF_ERROR(Fold(log_, s, CheckHashes::kYes));
  return s;
}

fb::CommandT Cmd(const std::string& actor, const std::string& action,
                 std::vector<std::string> targets) {
  fb::CommandT c;
  c.actor = actor;
  c.role = fb::Role::Player;  // the author: the actor's player, or the GM (Table::Submit)
  c.action = action;
  c.targets = std::move(targets);
  return c;
}

fb::CommandT& With(fb::CommandT& c, const std::string& key, int64_t value,
                   const std::string& text) {
  auto p = std::make_unique<fb::ParamT>();
  p->key = key;
  p->value = value;
  p->text = text;
  c.params.push_back(std::move(p));
  return c;
}

fb::CommandT& WithText(fb::CommandT& c, const std::string& key,
                       const std::string& text) {
  return With(c, key, 0, text);
}

fb::CommandT GmCmd(const std::string& action, const std::string& actor,
                   const std::string& text) {
  fb::CommandT c = Cmd(actor, action);
  c.author = "gm";
  c.role = fb::Role::GM;
  c.text = text;
  return c;
}

fb::CommandT& WithPath(fb::CommandT& c, std::vector<std::pair<int, int>> squares) {
  for (auto [x, y] : squares) c.path.emplace_back(x, y);
  return c;
}

}  // namespace combat::kernel::testing
