// Anchors (issue 11, item 6): each branch's head (seq and SHA-256 of its
// last event's canonical bytes), printed by `combat head` so anyone can
// keep it, and checked later by `verify --against FILE`: the log must
// still extend every head published earlier. A rewrite of any event at or
// before a published head (even with the rest re-chained and re-decided)
// changes that head's hash; a rollback leaves the branch shorter than it.
#ifndef COMBAT_REPLAY_ANCHOR_H_
#define COMBAT_REPLAY_ANCHOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "events/hash.h"
#include "replay/verify.h"
#include "store/event_log.h"

namespace combat::replay {

struct PublishedHead {
  std::string session;
  std::string branch;
  uint64_t seq = 0;       // 0: an empty branch
  events::Digest hash{};  // of event `seq` (zeros when 0)
  // Ed25519 over HeadMessage() with the session's signing key (64 bytes);
  // empty when unsigned.
  std::vector<uint8_t> signature;
};

// What a head's signature covers: "combat-head-v1\n<session>\n<branch>\n
// <seq>\n<hash hex>".
std::string HeadMessage(const PublishedHead& head);

// Signs every head with the session's private key (EventLog::
// GetSigningKey); heads stay unsigned when the session has none.
absl::Status SignHeads(const store::EventLog& log, const std::string& session,
                       std::vector<PublishedHead>& heads);

// Every branch's head of `session`, in the store's branch order.
absl::StatusOr<std::vector<PublishedHead>> ReadHeads(
    const store::EventLog& log, const std::string& session);

// Text: one line per head, "head <session> <branch> <seq> <hash hex>
// [<signature hex>]" (the form ParseHeads reads back). JSON Lines: one
// object per head, {"session":..,"branch":..,"seq":..,"hash":"<hex>",
// "signature":"<hex, or \"\" when unsigned>"}.
std::string RenderHeads(const std::vector<PublishedHead>& heads, bool json);

// Reads the text form; blank lines and lines starting with '#' are skipped.
// InvalidArgument naming the line and what a line must look like.
absl::StatusOr<std::vector<PublishedHead>> ParseHeads(absl::string_view text);

// The first published head of `session` that is signed but whose signature
// does not verify against the public key recorded in main#1
// (SessionStarted.signing_key), or that the log does not extend (check
// "anchor", naming the branch and the published seq): the branch is gone,
// shorter than the head (a rollback), or its event at that seq has another
// hash (a rewrite at or before it). nullopt when every one is extended.
// Heads of other sessions are ignored. Errors: the store's.
absl::StatusOr<std::optional<Mismatch>> CheckAgainst(
    const store::EventLog& log, const std::string& session,
    const std::vector<PublishedHead>& heads);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_ANCHOR_H_
