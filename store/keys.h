// The key layout of the event log (internal to store/; see README.md).
//
//   s\0<session>                   -> SessionMeta
//   k\0<session>                   -> secret dice seed
//   g\0<session>                   -> Ed25519 private signing key (optional)
//   K\0<session>\0<hex commitment> -> a later dice secret (a reveal's fresh
//                                     one), keyed by its SHA-256 commitment
//   v\0<session>\0<hex commitment> -> where that commitment's secret was
//                                     first revealed: <branch>\0<be64 seq>
//   b\0<session>\0<branch>         -> BranchMeta
//   h\0<session>\0<branch>         -> Head
//   e\0<session>\0<branch>\0<be64> -> canonical event bytes
//   c\0<session>\0<branch>\0<cmd>  -> command range
//   n\0<session>\0<branch>\0<be32 ruleset_version><be64 seq>
//                                  -> snapshot of derived state after seq
//   p\0<session>\0<token hash hex>  -> a participant: "<role>\0<name>"
//                                     (store/participants.h; the server's
//                                     tokens, stored only as SHA-256; not
//                                     part of the chain, never exported)
//
// Ids never contain a byte below '-' (see ValidId), so a prefix ending in
// '\0' selects exactly one session or branch, and the bytewise order of
// keys under a prefix is the order of the ids (and, for events, of seqs:
// big-endian). Callers validate ids before building keys.
#ifndef COMBAT_STORE_KEYS_H_
#define COMBAT_STORE_KEYS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace combat::store::keys {

std::string Session(absl::string_view session);
std::string Secret(absl::string_view session);
std::string SigningKey(absl::string_view session);
// A later secret of `session`, by its commitment (SHA-256 of the secret).
std::string EpochSecret(absl::string_view session,
                        const std::vector<uint8_t>& commitment);
// Every later secret of `session` (their keys).
std::string EpochSecretPrefix(absl::string_view session);
// The marker of the first reveal of the secret committed to by `commitment`.
std::string Revealed(absl::string_view session,
                     const std::vector<uint8_t>& commitment);
// Every reveal marker of `session` (their keys).
std::string RevealedPrefix(absl::string_view session);
std::string Branch(absl::string_view session, absl::string_view branch);
std::string Head(absl::string_view session, absl::string_view branch);
std::string Event(absl::string_view session, absl::string_view branch,
                  uint64_t seq);
std::string Command(absl::string_view session, absl::string_view branch,
                    absl::string_view command_id);

// Snapshot keys: the ruleset version first, so the snapshots of one version
// on one branch are contiguous and sorted by seq.
std::string Snapshot(absl::string_view session, absl::string_view branch,
                     int32_t ruleset_version, uint64_t seq);
// Every snapshot of `ruleset_version` on `branch` (its own keys).
std::string SnapshotPrefix(absl::string_view session, absl::string_view branch,
                           int32_t ruleset_version);
// Every snapshot, any version, of any branch of `session`.
std::string SessionSnapshotPrefix(absl::string_view session);

// A participant of `session` by the SHA-256 (hex) of its token, and every
// participant of `session` (store/participants.h).
std::string Participant(absl::string_view session, absl::string_view token_hash);
std::string ParticipantPrefix(absl::string_view session);

// Prefixes for range scans: every session key; every branch key of a
// session; every event key of a branch.
std::string SessionPrefix();
std::string BranchPrefix(absl::string_view session);
std::string EventPrefix(absl::string_view session, absl::string_view branch);

// The smallest key greater than every key that starts with `prefix`
// (REQUIRES: prefix ends in '\0', as every prefix above does).
std::string PrefixEnd(absl::string_view prefix);

// Big-endian 64-bit integers: the byte order sorts like the number.
void AppendBe64(uint64_t value, std::string* out);
// REQUIRES: at least 8 readable bytes at `data`.
uint64_t ReadBe64(const char* data);

// The seq of an event key `key` under `prefix` (EventPrefix); false when
// the key is not exactly the prefix followed by 8 bytes.
bool ParseEventKey(absl::string_view key, absl::string_view prefix,
                   uint64_t* seq);

}  // namespace combat::store::keys

#endif  // COMBAT_STORE_KEYS_H_
