#include "kernel/dice/source.h"

#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/hash.h"

namespace combat::kernel::dice {
namespace {

constexpr int kMaxFaces = 1000;

bool FacesOk(int faces) { return faces >= 1 && faces <= kMaxFaces; }

absl::Status CheckFaces(int faces) {
  if (FacesOk(faces)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("a d", faces, " is not a die: faces must be 1..1000"));
}

void PutBigEndian(uint64_t v, int bytes, uint8_t* out) {
  for (int i = bytes - 1; i >= 0; --i) {
    out[i] = static_cast<uint8_t>(v & 0xff);
    v >>= 8;
  }
}

}  // namespace

namespace internal {

int SampleUniform(int faces, absl::FunctionRef<uint64_t(uint32_t)> word) {
  const uint64_t n = static_cast<uint64_t>(faces);
  // 2^64 mod n, computed without 128-bit arithmetic: (2^64 - n) mod n.
  const uint64_t rem = (0 - n) % n;
  // Accept w < 2^64 - rem, i.e. w <= UINT64_MAX - rem.
  const uint64_t max_ok = std::numeric_limits<uint64_t>::max() - rem;
  for (uint32_t counter = 0;; ++counter) {
    const uint64_t w = word(counter);
    if (w <= max_ok) return static_cast<int>(w % n) + 1;
  }
}

}  // namespace internal

SeededDice::SeededDice(std::vector<uint8_t> secret, std::string session)
    : secret_(std::move(secret)), session_(std::move(session)) {}

namespace {

void PutLengthPrefixed(const std::string& s, std::vector<uint8_t>& msg) {
  uint8_t len[4];
  PutBigEndian(s.size(), 4, len);
  msg.insert(msg.end(), len, len + 4);
  msg.insert(msg.end(), s.begin(), s.end());
}

int SampleFrom(std::vector<uint8_t> msg, int64_t index, int faces) {
  const size_t tail = msg.size();
  msg.resize(tail + 12);
  PutBigEndian(static_cast<uint64_t>(index), 8, msg.data() + tail);
  return internal::SampleUniform(faces, [&](uint32_t counter) {
    PutBigEndian(counter, 4, msg.data() + tail + 8);
    const events::Digest d = events::Sha256(msg);
    uint64_t w = 0;
    for (int i = 0; i < 8; ++i) w = (w << 8) | d[i];
    return w;
  });
}

}  // namespace

int SeededDice::ValueAt(const std::vector<uint8_t>& secret,
                        const std::string& session, int64_t index, int faces) {
  if (!FacesOk(faces)) return 0;
  // secret || session || be64(index) || be32(counter)
  std::vector<uint8_t> msg(secret);
  msg.insert(msg.end(), session.begin(), session.end());
  return SampleFrom(std::move(msg), index, faces);
}

int SeededDice::Value(const std::vector<uint8_t>& secret,
                      const std::string& session, const RollContext& context,
                      int64_t index, int faces) {
  if (context.schema_version < 5) return ValueAt(secret, session, index, faces);
  if (!FacesOk(faces)) return 0;
  static constexpr char kTag[] = "combat-dice-v5";
  std::vector<uint8_t> msg(kTag, kTag + sizeof(kTag) - 1);
  msg.insert(msg.end(), secret.begin(), secret.end());
  PutLengthPrefixed(session, msg);
  PutLengthPrefixed(context.branch, msg);
  PutLengthPrefixed(context.contribution, msg);
  return SampleFrom(std::move(msg), index, faces);
}

std::vector<uint8_t> SeededDice::Commitment(
    const std::vector<uint8_t>& secret) {
  const events::Digest d = events::Sha256(secret);
  return std::vector<uint8_t>(d.begin(), d.end());
}

absl::StatusOr<RolledDie> SeededDice::Next(int faces, int64_t index) {
  absl::Status s = CheckFaces(faces);
  if (!s.ok()) return s;
  if (index < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("die index ", index, " is negative"));
  }
  return RolledDie{faces, Value(secret_, session_, context_, index, faces),
                   fb::Provenance::Seeded};
}

ManualDice::ManualDice(std::vector<int> values, DiceSource* fallback,
                       fb::Provenance label)
    : values_(values.begin(), values.end()),
      fallback_(fallback),
      label_(label) {}

absl::StatusOr<RolledDie> ManualDice::Next(int faces, int64_t index) {
  absl::Status s = CheckFaces(faces);
  if (!s.ok()) return s;
  if (values_.empty()) {
    if (fallback_ != nullptr) {
      ++fallback_rolls_;
      return fallback_->Next(faces, index);
    }
    return absl::ResourceExhaustedError(absl::StrCat(
        "no ", fb::EnumNameProvenance(label_), " die value left for the d",
        faces, " (die #", index, ")"));
  }
  const int value = values_.front();
  if (value < 1 || value > faces) {
    // Not consumed: the command fails and nothing is recorded.
    return absl::InvalidArgumentError(absl::StrCat(
        fb::EnumNameProvenance(label_), " value ", value, " does not fit the d",
        faces, " (die #", index, "): it must be 1..", faces));
  }
  values_.pop_front();
  return RolledDie{faces, value, label_};
}

}  // namespace combat::kernel::dice
