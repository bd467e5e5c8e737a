#include "store/keys.h"

#include "absl/strings/match.h"
#include "events/hash.h"

namespace combat::store::keys {
namespace {

constexpr char kSep = '\0';

// "<tag>\0<a>"
std::string Key1(char tag, absl::string_view a) {
  std::string key;
  key.reserve(2 + a.size());
  key.push_back(tag);
  key.push_back(kSep);
  key.append(a.data(), a.size());
  return key;
}

// "<tag>\0<a>\0<b>"
std::string Key2(char tag, absl::string_view a, absl::string_view b) {
  std::string key = Key1(tag, a);
  key.push_back(kSep);
  key.append(b.data(), b.size());
  return key;
}

}  // namespace

std::string Session(absl::string_view session) { return Key1('s', session); }
std::string Secret(absl::string_view session) { return Key1('k', session); }
std::string SigningKey(absl::string_view session) { return Key1('g', session); }

std::string EpochSecret(absl::string_view session,
                        const std::vector<uint8_t>& commitment) {
  return Key2('K', session, events::Hex(commitment));
}

std::string EpochSecretPrefix(absl::string_view session) {
  return Key2('K', session, "");
}

std::string Revealed(absl::string_view session,
                     const std::vector<uint8_t>& commitment) {
  return Key2('v', session, events::Hex(commitment));
}

std::string RevealedPrefix(absl::string_view session) {
  return Key2('v', session, "");
}

std::string Participant(absl::string_view session, absl::string_view token_hash) {
  return Key2('p', session, token_hash);
}

std::string ParticipantPrefix(absl::string_view session) {
  return Key2('p', session, "");
}

std::string Branch(absl::string_view session, absl::string_view branch) {
  return Key2('b', session, branch);
}

std::string Head(absl::string_view session, absl::string_view branch) {
  return Key2('h', session, branch);
}

std::string Event(absl::string_view session, absl::string_view branch,
                  uint64_t seq) {
  std::string key = EventPrefix(session, branch);
  AppendBe64(seq, &key);
  return key;
}

std::string Command(absl::string_view session, absl::string_view branch,
                    absl::string_view command_id) {
  std::string key = Key2('c', session, branch);
  key.push_back(kSep);
  key.append(command_id.data(), command_id.size());
  return key;
}

std::string Snapshot(absl::string_view session, absl::string_view branch,
                     int32_t ruleset_version, uint64_t seq) {
  std::string key = SnapshotPrefix(session, branch, ruleset_version);
  AppendBe64(seq, &key);
  return key;
}

std::string SnapshotPrefix(absl::string_view session, absl::string_view branch,
                           int32_t ruleset_version) {
  std::string key = Key2('n', session, branch);
  key.push_back(kSep);
  const uint32_t v = static_cast<uint32_t>(ruleset_version);
  for (int shift = 24; shift >= 0; shift -= 8) {
    key.push_back(static_cast<char>((v >> shift) & 0xff));
  }
  return key;
}

std::string SessionSnapshotPrefix(absl::string_view session) {
  std::string key = Key1('n', session);
  key.push_back(kSep);
  return key;
}

std::string SessionPrefix() { return std::string("s\0", 2); }

std::string BranchPrefix(absl::string_view session) {
  std::string key = Key1('b', session);
  key.push_back(kSep);
  return key;
}

std::string EventPrefix(absl::string_view session, absl::string_view branch) {
  std::string key = Key2('e', session, branch);
  key.push_back(kSep);
  return key;
}

std::string PrefixEnd(absl::string_view prefix) {
  std::string end(prefix.data(), prefix.size());
  // The prefix ends in '\0'; '\1' is the next byte value.
  if (!end.empty()) end.back() = '\1';
  return end;
}

void AppendBe64(uint64_t value, std::string* out) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

uint64_t ReadBe64(const char* data) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value = (value << 8) | static_cast<uint8_t>(data[i]);
  }
  return value;
}

bool ParseEventKey(absl::string_view key, absl::string_view prefix,
                   uint64_t* seq) {
  if (key.size() != prefix.size() + 8 || !absl::StartsWith(key, prefix)) {
    return false;
  }
  *seq = ReadBe64(key.data() + prefix.size());
  return true;
}

}  // namespace combat::store::keys
