// Chained test events and appends for the JetStream tests (the store's
// TestRulingEvent, chained from a head).
#ifndef COMBAT_STORE_JETSTREAM_TESTING_LOG_EVENTS_H_
#define COMBAT_STORE_JETSTREAM_TESTING_LOG_EVENTS_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/hash.h"
#include "store/log_types.h"
#include "store/testing/events.h"

namespace combat::store::jetstream::testing {

// `n` events after `head` of `branch`, carrying `command`.
inline std::vector<events::EventBuffer> ChainAfter(const std::string& session,
                                                   const std::string& branch,
                                                   const Head& head, int n,
                                                   const std::string& command) {
  std::vector<events::EventBuffer> out;
  events::Digest prev = head.hash;
  for (int i = 0; i < n; ++i) {
    const uint64_t seq = head.seq + 1 + i;
    out.push_back(TestRulingEvent(session, branch, seq, prev,
                                  absl::StrCat(command, "#", seq), command));
    prev = out.back().hash();
  }
  return out;
}

inline SessionMeta TestMeta(const std::string& session) {
  SessionMeta meta;
  meta.session = session;
  meta.ruleset = "d20_three_action";
  meta.ruleset_version = 3;
  meta.title = "cluster test";
  return meta;
}

}  // namespace combat::store::jetstream::testing

#endif  // COMBAT_STORE_JETSTREAM_TESTING_LOG_EVENTS_H_
