// The event log on a NATS JetStream cluster (store/jetstream/README.md):
// EventLog::Open("nats://h1:p1,h2:p2,h3:p3[/prefix]") returns one when
// the binary links //store/jetstream.
//
// The stream is the log: every write (CreateSession, Fork, Append,
// AppendReveal) is one message on the subject of its session's branch,
// published with the branch subject's expected last sequence (optimistic
// concurrency between processes) and the command id as Nats-Msg-Id
// (JetStream's duplicate window). Its payload is the records the RocksDB
// write path decided on, with all of the RocksDB backend's checks (ids,
// markers, expected seq, the hash chain) run against a local RocksDB
// replica of the stream that each process keeps in a temp directory and
// rebuilds from the stream at open. Reads catch the replica up to the
// stream's last sequence first, then read it with the RocksDB backend's
// checks (damage is DataLoss, never a shorter log; a message missing from
// the stream is DataLoss too).
//
// Thread safety: all methods may be called concurrently; writes to
// different branches check, publish and apply at once (those of one branch
// in one open take turns); catch-ups are coalesced (one at a time, serving
// every reader waiting). Follow starts an ordered consumer and a thread
// that keep the replica current (store/jetstream/README.md, "Following").
#ifndef COMBAT_STORE_JETSTREAM_JETSTREAM_LOG_H_
#define COMBAT_STORE_JETSTREAM_JETSTREAM_LOG_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "store/event_log.h"

namespace combat::store::jetstream {

// Opens (creating the stream when Options::create_if_missing and not
// read-only) the JetStream log `url` names (store/jetstream/url.h).
// InvalidArgument for a malformed URL; Unavailable when no server answers
// or the stream cannot be created within 30 s; NotFound when the stream is
// absent and may not be created; DataLoss when the stream lost a message.
absl::StatusOr<std::unique_ptr<EventLog>> OpenJetStreamLog(
    const std::string& url, const Options& options);

}  // namespace combat::store::jetstream

#endif  // COMBAT_STORE_JETSTREAM_JETSTREAM_LOG_H_
