// Dice sources: where die values come from. Deciders never draw random
// numbers themselves; they ask a source, and every die is recorded.
#ifndef COMBAT_KERNEL_DICE_SOURCE_H_
#define COMBAT_KERNEL_DICE_SOURCE_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "events/common_generated.h"

namespace combat::kernel::dice {

struct RolledDie {
  int faces = 0;
  int value = 0;
  fb::Provenance provenance = fb::Provenance::Seeded;
};

// What a seeded die mixes in besides the secret, session and index (schema
// v5, events/FORMAT.md "Dice"): the branch that rolls and the acting side's
// contribution, supplied after the commitment. Sessions of schema_version
// < 5 use the v4 formula, which mixes neither.
struct RollContext {
  int32_t schema_version = 0;
  std::string branch;
  std::string contribution;
};

class DiceSource {
 public:
  virtual ~DiceSource() = default;
  // Sets what the following Next() calls mix in (Decision calls it before
  // each roll). Sources that wrap another must pass it on; the default
  // ignores it (recorded or physical dice).
  virtual void SetContext(const RollContext& context) { (void)context; }
  // The die at position `index` of the session's roll sequence.
  // REQUIRES: 1 <= faces <= 1000. Errors: ResourceExhausted when a manual
  // source has no value left; InvalidArgument when a supplied value does not
  // fit the die (the message names the die and value).
  virtual absl::StatusOr<RolledDie> Next(int faces, int64_t index) = 0;
};

// Deterministic dice from a per-session secret seed. The value of die
// `index` with `faces` faces depends only on (secret, session, context,
// index, faces). Schema v5 (context.schema_version >= 5):
//   SHA-256("combat-dice-v5" || secret || lp(session) || lp(branch) ||
//           lp(contribution) || be64(index) || be32(counter)),
// lp(x) = be32(byte length of x) || x; before v5 (ValueAt, v4):
//   SHA-256(secret || session || be64(index) || be32(counter)).
// Its first 8 bytes are read as a big-endian uint64, with rejection
// sampling for an unbiased result (internal::SampleUniform; counter starts
// at 0 and counts rejections). It is the same on every platform and library
// version, and verifiable with the secret (Value() below).
// Next() errors: InvalidArgument when faces is outside 1..1000 or index is
// negative.
class SeededDice : public DiceSource {
 public:
  // REQUIRES (by convention, enforced by the engine): secret.size() == 32,
  // so that secret || session is unambiguous.
  SeededDice(std::vector<uint8_t> secret, std::string session);
  void SetContext(const RollContext& context) override { context_ = context; }
  absl::StatusOr<RolledDie> Next(int faces, int64_t index) override;

  // The value die `index` must have had in `context`, for verification.
  // Returns 0 when `faces` is outside 1..1000.
  static int Value(const std::vector<uint8_t>& secret,
                   const std::string& session, const RollContext& context,
                   int64_t index, int faces);
  // The v4 formula (sessions of schema_version < 5).
  static int ValueAt(const std::vector<uint8_t>& secret,
                     const std::string& session, int64_t index, int faces);
  // SHA-256 of the secret: the commitment stored in SessionStarted.
  static std::vector<uint8_t> Commitment(const std::vector<uint8_t>& secret);

 private:
  std::vector<uint8_t> secret_;
  std::string session_;
  RollContext context_;
};

// Physical dice entered at the table, used in order and labelled Manual
// (or GmOverride). When they run out, `fallback` answers (if not null);
// otherwise the roll fails with ResourceExhausted naming the die wanted.
class ManualDice : public DiceSource {
 public:
  ManualDice(std::vector<int> values, DiceSource* fallback,
             fb::Provenance label = fb::Provenance::Manual);
  void SetContext(const RollContext& context) override {
    if (fallback_ != nullptr) fallback_->SetContext(context);
  }
  absl::StatusOr<RolledDie> Next(int faces, int64_t index) override;
  // Values supplied and not used; a command that leaves some is refused by
  // the engine (so a typo in a script cannot shift every later roll).
  size_t remaining() const { return values_.size(); }
  // Dice rolled by the fallback once the supplied values ran out.
  size_t fallback_rolls() const { return fallback_rolls_; }

 private:
  std::deque<int> values_;
  DiceSource* fallback_;
  fb::Provenance label_;
  size_t fallback_rolls_ = 0;
};

namespace internal {
// The sampling step of SeededDice, exposed for tests: asks `word` for
// words with counter 0, 1, 2, ... and returns (w % faces) + 1 for the first
// word w below 2^64 - (2^64 mod faces), the largest multiple of `faces` that
// fits, so every face is equally likely. REQUIRES: 1 <= faces <= 1000.
int SampleUniform(int faces, absl::FunctionRef<uint64_t(uint32_t)> word);
}  // namespace internal

}  // namespace combat::kernel::dice

#endif  // COMBAT_KERNEL_DICE_SOURCE_H_
