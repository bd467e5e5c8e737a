#include "replay/engine.h"

#include <openssl/rand.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/signature.h"
#include "events/status_macros.h"
#include "flatbuffers/flatbuffers.h"
#include "kernel/authority.h"
#include "kernel/command.h"
#include "kernel/dice/source.h"
#include "kernel/ruleset.h"
#include "kernel/session.h"
#include "replay/dice_epoch.h"
#include "replay/limits.h"

namespace combat::replay {
namespace {

constexpr size_t kSecretBytes = 32;

absl::StatusOr<std::vector<uint8_t>> RandomSecret() {
  std::vector<uint8_t> secret(kSecretBytes);
  if (RAND_bytes(secret.data(), static_cast<int>(secret.size())) != 1) {
    return absl::InternalError("the OS random source failed (RAND_bytes)");
  }
  return secret;
}

// Dice for a session whose secret this database does not hold (imported
// without it): every seeded roll is refused, so nothing unverifiable is
// recorded; physical dice (the command's `dice`) still work.
class NoSecretDice : public kernel::dice::DiceSource {
 public:
  explicit NoSecretDice(std::string session) : session_(std::move(session)) {}
  absl::StatusOr<kernel::dice::RolledDie> Next(int faces, int64_t index) override {
    return absl::FailedPreconditionError(absl::StrCat(
        "session ", session_, " has no dice secret in this database (it was "
        "imported without one): a d", faces, " is needed (roll index ", index,
        "); supply it in the command's 'dice'"));
  }

 private:
  std::string session_;
};

absl::StatusOr<const kernel::Ruleset*> RulesetFor(const store::SessionMeta& m) {
  const kernel::Ruleset* rules = kernel::FindRuleset(m.ruleset);
  if (rules == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("session ", m.session, " uses ruleset '", m.ruleset,
                     "', which this build does not have"));
  }
  if (rules->version() != m.ruleset_version) {
    return absl::FailedPreconditionError(absl::StrCat(
        "session ", m.session, " was recorded with ", m.ruleset, " version ",
        m.ruleset_version, "; this build has version ", rules->version()));
  }
  return rules;
}

}  // namespace

Engine::Engine(std::unique_ptr<store::EventLog> log) : log_(std::move(log)) {}

absl::StatusOr<std::unique_ptr<Engine>> Engine::Open(const std::string& db_path,
                                                     store::Options options) {
  ASSIGN_OR_RETURN(auto log, store::EventLog::Open(db_path, options));
  return std::unique_ptr<Engine>(new Engine(std::move(log)));
}

absl::StatusOr<std::vector<events::EventBuffer>> Engine::CreateSession(
    const std::string& session, const fb::RosterT& roster,
    std::optional<std::vector<uint8_t>> secret, const std::string& author,
    std::vector<int> setup_dice, std::optional<std::vector<uint8_t>> signing_key) {
  if (!store::ValidId(session)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "session id '", session, "': use 1-64 of [A-Za-z0-9_.:-]"));
  }
  if (roster.ruleset.empty()) {
    return absl::InvalidArgumentError("roster field 'ruleset' is required");
  }
  RETURN_IF_ERROR(CheckRosterLimits(roster));
  const kernel::Ruleset* rules = kernel::FindRuleset(roster.ruleset);
  if (rules == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("roster field 'ruleset': unknown ruleset '",
                     roster.ruleset, "'"));
  }
  if (!secret.has_value()) {
    ASSIGN_OR_RETURN(secret, RandomSecret());
  }
  if (secret->size() != kSecretBytes) {
    // A fixed length keeps SeededDice's secret || session input unambiguous.
    return absl::InvalidArgumentError(
        absl::StrCat("dice seed: exactly ", kSecretBytes, " bytes"));
  }
  // Decide everything first (pure); only then write.
  kernel::dice::SeededDice seeded(*secret, session);
  const size_t supplied = setup_dice.size();
  kernel::dice::ManualDice manual(std::move(setup_dice), &seeded);
  events::SigningKeyPair signer;
  if (signing_key.has_value()) {
    signer.private_key = *std::move(signing_key);
    ASSIGN_OR_RETURN(signer.public_key, events::PublicKeyOf(signer.private_key));
  } else {
    ASSIGN_OR_RETURN(signer, events::NewSigningKey());
  }
  kernel::Envelope env;
  env.signing_key = signer.public_key;
  env.branch = "main";
  env.author = author;
  env.role = fb::Role::GM;
  env.command_id = "setup";
  ASSIGN_OR_RETURN(
      std::vector<events::EventBuffer> setup,
      kernel::SetUpSession(*rules, session, roster,
                           kernel::dice::SeededDice::Commitment(*secret), env,
                           manual));
  if (manual.remaining() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "setup dice: ", supplied, " supplied but only ",
        supplied - manual.remaining(), " were rolled"));
  }
  store::SessionMeta meta{session, rules->id(), rules->version(), roster.title};
  // One WriteBatch: the session exists with its set-up, or not at all.
  RETURN_IF_ERROR(
      log_->CreateSession(meta, *secret, "setup", setup, signer.private_key));
  (void)SnapshotNewEvents(*log_, session, "main", rules->version(),
                          kernel::State(), setup, seek_);
  return setup;
}

absl::StatusOr<SubmitResult> Engine::Submit(const std::string& session,
                                            const std::string& branch,
                                            const fb::CommandT& command) {
  ASSIGN_OR_RETURN(store::SessionMeta meta, log_->GetSession(session));
  ASSIGN_OR_RETURN(const kernel::Ruleset* rules, RulesetFor(meta));
  ASSIGN_OR_RETURN(store::Head head, log_->GetHead(session, branch));
  fb::CommandT cmd = command;
  if (cmd.id.empty()) cmd.id = absl::StrCat("cmd-", head.seq + 1);
  ASSIGN_OR_RETURN(kernel::State state, StateAt(session, branch, head.seq));
  // Who asks, from the roster (kernel/authority.h): the caller of this API
  // speaks for the table. Completed before the content hash, so the marker
  // binds the command as recorded and a retry completes the same way.
  if (state.schema_version >= 7) {
    kernel::AssignAuthority(state, cmd);
  } else if (cmd.author.empty()) {
    cmd.author = cmd.role == fb::Role::GM || cmd.actor.empty() ? "gm" : cmd.actor;
  }
  RETURN_IF_ERROR(CheckCommandLimits(cmd));
  if (!store::ValidId(cmd.id)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command field 'id' ('", cmd.id, "'): use 1-64 of [A-Za-z0-9_.:-]"));
  }
  const bool reveal = cmd.action == "gm_reveal";
  if (reveal && kernel::HasParam(cmd, "next_commitment")) {
    return absl::InvalidArgumentError(
        "command 'gm_reveal': param 'next_commitment': drawn by the engine, "
        "which stores the fresh secret; leave it out");
  }
  ASSIGN_OR_RETURN(auto done, log_->FindCommand(session, branch, cmd.id));
  if (done.has_value()) {
    SubmitResult r;
    ASSIGN_OR_RETURN(r.events,
                     log_->Read(session, branch, done->first_seq, done->last_seq));
    r.duplicate = true;
    // A reveal's recorded command carries the fresh commitment the engine
    // drew, so its content cannot match: a retried reveal id is the same
    // reveal when the id recorded a reveal.
    const fb::Declaration* decl =
        r.events.empty() ? nullptr : r.events.front().event().body_as_Declaration();
    const bool was_reveal = decl != nullptr && decl->command() != nullptr &&
                            decl->command()->action() != nullptr &&
                            decl->command()->action()->str() == "gm_reveal";
    if (!reveal || !was_reveal) {
      RETURN_IF_ERROR(store::EventLog::CheckSameContent(
          absl::StrCat("session ", session, " branch ", branch), cmd.id, *done,
          events::CommandContentHash(cmd)));
    }
    return r;
  }
  store::RevealRecord fresh;
  if (reveal) {
    fresh.revealed = state.dice_commitment;
    if (!state.ended) {
      ASSIGN_OR_RETURN(fresh.fresh, RandomSecret());
      auto p = std::make_unique<fb::ParamT>();
      p->key = "next_commitment";
      p->text = events::Hex(kernel::dice::SeededDice::Commitment(fresh.fresh));
      cmd.params.push_back(std::move(p));
    }
  }
  const events::Digest content = events::CommandContentHash(cmd);
  ASSIGN_OR_RETURN(std::vector<uint8_t> secret, SecretInForce(*log_, session, state));
  kernel::dice::SeededDice seeded(secret, session);
  NoSecretDice no_secret(session);
  kernel::dice::DiceSource& dice =
      secret.size() == kSecretBytes
          ? static_cast<kernel::dice::DiceSource&>(seeded)
          : static_cast<kernel::dice::DiceSource&>(no_secret);
  kernel::Envelope env;
  env.branch = branch;
  env.prev_hash = head.hash;
  const kernel::PrefixScan prefix = BranchScan(session, branch);
  ASSIGN_OR_RETURN(std::vector<events::EventBuffer> evs,
                   kernel::DecideCommand(*rules, state, env, cmd, dice, &prefix));
  ASSIGN_OR_RETURN(store::AppendResult appended,
                   reveal ? log_->AppendReveal(session, branch, head.seq, cmd.id,
                                               evs, content, fresh)
                          : log_->Append(session, branch, head.seq, cmd.id, evs,
                                         content));
  ASSIGN_OR_RETURN(std::string warning,
                   PredictableDiceWarning(*log_, session, state));
  if (!appended.duplicate) {
    // Snapshots are a cache: a failure here loses nothing.
    (void)SnapshotNewEvents(*log_, session, branch, meta.ruleset_version,
                            std::move(state), evs, seek_);
  }
  SubmitResult r;
  r.duplicate = appended.duplicate;
  // Said of the state the command was decided on (a reveal here ends it).
  if (!warning.empty() && !reveal) r.warnings.push_back(std::move(warning));
  if (appended.duplicate) {
    ASSIGN_OR_RETURN(r.events, log_->Read(session, branch, appended.first_seq,
                                          appended.last_seq));
  } else {
    r.events = std::move(evs);
  }
  return r;
}

absl::StatusOr<kernel::State> Engine::StateAt(const std::string& session,
                                              const std::string& branch,
                                              uint64_t seq,
                                              SeekReport* report) const {
  return Seek(*log_, session, branch, seq, seek_, report);
}

absl::StatusOr<uint64_t> Engine::Fork(const ForkRequest& request) {
  return ForkBranch(*log_, request, seek_);
}

absl::StatusOr<WhatIfResult> Engine::WhatIf(const WhatIfRequest& request,
                                            Progress* progress) {
  ASSIGN_OR_RETURN(const kernel::Ruleset* rules, RulesetOf(request.session));
  return replay::WhatIf(*log_, *rules, request, seek_, progress);
}

absl::StatusOr<TableStatus> Engine::Status(const std::string& session,
                                           const std::string& branch,
                                           const std::string& for_combatant) {
  ASSIGN_OR_RETURN(store::SessionMeta meta, log_->GetSession(session));
  absl::StatusOr<const kernel::Ruleset*> exact = RulesetFor(meta);
  // A session of another version of its ruleset: the table as this
  // build's version shows it, but no legal acts (they would be decided by
  // other rules than the session's).
  const kernel::Ruleset* rules =
      exact.ok() ? *exact : kernel::FindRuleset(meta.ruleset);
  if (rules == nullptr) return exact.status();
  ASSIGN_OR_RETURN(kernel::State state, StateAt(session, branch, 0));
  const kernel::PrefixScan prefix = BranchScan(session, branch);
  StatusRequest request;
  request.rules = rules;
  if (!exact.ok()) request.no_acts_because = std::string(exact.status().message());
  request.state = &state;
  request.prefix = &prefix;
  request.branch = branch;
  request.for_combatant = for_combatant;
  ASSIGN_OR_RETURN(TableStatus status, BuildStatus(request));
  ASSIGN_OR_RETURN(std::string warning, PredictableDiceWarning(*log_, session, state));
  if (!warning.empty()) status.warnings.push_back(std::move(warning));
  return status;
}

absl::StatusOr<const kernel::Ruleset*> Engine::RulesetOf(
    const std::string& session) const {
  ASSIGN_OR_RETURN(store::SessionMeta meta, log_->GetSession(session));
  return RulesetFor(meta);
}

kernel::PrefixScan Engine::BranchScan(const std::string& session,
                                      const std::string& branch) const {
  return StoreScan(*log_, session, branch);
}

absl::StatusOr<std::vector<events::EventBuffer>> Engine::Events(
    const std::string& session, const std::string& branch, uint64_t from,
    uint64_t to) const {
  return log_->Read(session, branch, from, to);
}

}  // namespace combat::replay
