// Events for store tests, in the shape the kernel writes: a StateChange
// carrying a Ruling with `reason` (or a SeedRevealed), chained to `prev`, under `command` (the
// envelope's command id; "" for none). The store never looks inside the
// body; these only have to be valid, canonical events.
#ifndef COMBAT_STORE_TESTING_EVENTS_H_
#define COMBAT_STORE_TESTING_EVENTS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "events/codec.h"
#include "events/events_generated.h"
#include "events/hash.h"
#include "gtest/gtest.h"

namespace combat::store {

// An event of `session`/`branch` at `seq`, chained to `prev`, under
// `command`, whose StateChange carries `change` (rule "x").
inline events::EventBuffer TestChangeEvent(const std::string& session,
                                           const std::string& branch, uint64_t seq,
                                           const events::Digest& prev,
                                           fb::ChangeUnion change,
                                           const std::string& command) {
  fb::EventT e;
  e.session = session;
  e.branch = branch;
  e.seq = seq;
  e.command_id = command;
  e.prev_hash.assign(prev.begin(), prev.end());
  fb::StateChangeT sc;
  sc.rule = "x";
  sc.change = std::move(change);
  e.body.Set(std::move(sc));
  absl::StatusOr<events::EventBuffer> buf =
      events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
  EXPECT_TRUE(buf.ok()) << buf.status();
  return *std::move(buf);
}

inline events::EventBuffer TestRulingEvent(const std::string& session,
                                           const std::string& branch, uint64_t seq,
                                           const events::Digest& prev,
                                           const std::string& reason,
                                           const std::string& command = "") {
  fb::RulingT r;
  r.reason = reason;
  fb::ChangeUnion change;
  change.Set(std::move(r));
  return TestChangeEvent(session, branch, seq, prev, std::move(change), command);
}

// A SeedRevealed event: `secret`, and the fresh commitment `next` (empty:
// none, the reveal at the end).
inline events::EventBuffer TestRevealEvent(const std::string& session,
                                           const std::string& branch, uint64_t seq,
                                           const events::Digest& prev,
                                           const std::vector<uint8_t>& secret,
                                           const std::vector<uint8_t>& next,
                                           const std::string& command) {
  fb::SeedRevealedT r;
  r.secret = secret;
  r.next_commitment = next;
  fb::ChangeUnion change;
  change.Set(std::move(r));
  return TestChangeEvent(session, branch, seq, prev, std::move(change), command);
}

}  // namespace combat::store

#endif  // COMBAT_STORE_TESTING_EVENTS_H_
