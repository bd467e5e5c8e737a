// The JetStream log's URL (store/event_log.h's EventLog::Open):
//   nats://HOST:PORT[,HOST:PORT...][/PREFIX][?replicas=N&dedup_ms=M]
// PREFIX (1..64 of [A-Za-z0-9_-], default "combat") names the stream
// ("combat_<PREFIX>") and roots its subjects; replicas (1..5, default 3)
// and dedup_ms (the stream's duplicate window, default 120000) apply when
// the stream is created.
#ifndef COMBAT_STORE_JETSTREAM_URL_H_
#define COMBAT_STORE_JETSTREAM_URL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace combat::store::jetstream {

struct Url {
  std::vector<std::string> servers;  // "nats://host:port" each
  std::string prefix = "combat";
  int replicas = 3;
  int64_t dedup_ms = 120000;
  std::string stream() const { return "combat_" + prefix; }
};

// InvalidArgument naming the part of `url` that is wrong.
absl::StatusOr<Url> ParseUrl(const std::string& url);

// A subject token for an id ([A-Za-z0-9_.:-]): '_' -> "__", '.' -> "_d"
// (a '.' separates subject tokens), everything else as is.
std::string SubjectToken(const std::string& id);

}  // namespace combat::store::jetstream

#endif  // COMBAT_STORE_JETSTREAM_URL_H_
