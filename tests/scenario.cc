#include "tests/scenario.h"

#include <stdlib.h>

#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "gtest/gtest.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"

namespace combat::tests {
namespace {

constexpr char kSession[] = "scenario";

std::vector<uint8_t> TestSecret() { return std::vector<uint8_t>(32, 0x5a); }

std::string MakeTempDir() {
  std::string base = ::testing::TempDir();
  if (base.empty()) base = "/tmp/";
  if (base.back() != '/') base += '/';
  std::string templ = base + "scenario-XXXXXX";
  char* made = mkdtemp(templ.data());
  return made == nullptr ? std::string() : std::string(made);
}

// Folds every event of the log from nothing, checking state hashes, and
// checking after every event that the cached state hash equals one computed
// from scratch (the caches are derived data: a stale one would be wrong the
// same way in the decider and in replay, so only this catches it).
absl::StatusOr<std::vector<uint8_t>> FoldBytes(const replay::Engine& engine) {
  kernel::State s;
  const kernel::PrefixScan prefix = engine.BranchScan(kSession, "main");
  RETURN_IF_ERROR(engine.log().Scan(
      kSession, "main", 1, 0, [&s, &prefix](const events::EventBuffer& e) {
        RETURN_IF_ERROR(kernel::FoldOne(e, s, kernel::CheckHashes::kYes, &prefix));
        if (kernel::StateHash(s) != kernel::StateHashUncached(s)) {
          return absl::InternalError(absl::StrCat(
              "event seq ", e.event().seq(), ": cached state hash is stale"));
        }
        return absl::OkStatus();
      }));
  return kernel::EncodeState(s);
}

}  // namespace

Scenario::Scenario(const fb::RosterT& roster, std::vector<int> setup_dice) {
  dir_ = MakeTempDir();
  if (dir_.empty()) {
    status_ = absl::InternalError("mkdtemp failed");
    return;
  }
  auto engine = replay::Engine::Open(dir_ + "/db");
  if (!engine.ok()) {
    status_ = engine.status();
    return;
  }
  engine_ = std::move(*engine);
  auto setup = engine_->CreateSession(kSession, roster, TestSecret(), "gm",
                                      std::move(setup_dice));
  if (!setup.ok()) {
    status_ = setup.status();
    return;
  }
  auto state = engine_->StateAt(kSession, "main");
  if (!state.ok()) {
    status_ = state.status();
    return;
  }
  state_ = std::move(*state);
}

Scenario::~Scenario() {
  engine_.reset();
  if (!dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
}

absl::StatusOr<std::vector<events::EventBuffer>> Scenario::Submit(
    fb::CommandT command, std::vector<int> dice) {
  RETURN_IF_ERROR(status_);
  if (!dice.empty()) command.dice = std::move(dice);
  if (command.id.empty()) command.id = absl::StrCat("c", next_command_++);
  ASSIGN_OR_RETURN(replay::SubmitResult r,
                   engine_->Submit(kSession, "main", command));
  ASSIGN_OR_RETURN(state_, engine_->StateAt(kSession, "main"));
  return std::move(r.events);
}

std::vector<events::EventBuffer> Scenario::log() const {
  auto events = engine_->Events(kSession, "main");
  EXPECT_TRUE(events.ok()) << events.status();
  return events.ok() ? std::move(*events) : std::vector<events::EventBuffer>{};
}

void Scenario::ExpectDeterministic() {
  ASSERT_TRUE(status_.ok()) << status_;
  const std::vector<uint8_t> head = kernel::EncodeState(state_);
  auto first = FoldBytes(*engine_);
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = FoldBytes(*engine_);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(*first, head) << "first replay differs from the head state";
  EXPECT_EQ(*second, head) << "second replay differs from the head state";
  engine_.reset();
  auto reopened = replay::Engine::Open(dir_ + "/db");
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  engine_ = std::move(*reopened);
  auto third = FoldBytes(*engine_);
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_EQ(*third, head) << "replay after reopening differs";
}

}  // namespace combat::tests
