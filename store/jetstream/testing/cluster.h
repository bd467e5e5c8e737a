// A JetStream cluster of real `nats-server` processes on loopback, for
// tests and benchmarks (store/jetstream/README.md shows the same cluster
// by hand): free ports, one temp directory per node (its config, its
// JetStream store, its log), `-js` with cluster routes between all nodes.
// Start waits (bounded) until the cluster has a JetStream meta leader;
// Kill sends SIGKILL; Restart starts a killed node again on its ports and
// store; the destructor kills every node and removes the directories.
//
// Thread safety: none (one test thread drives it).
#ifndef COMBAT_STORE_JETSTREAM_TESTING_CLUSTER_H_
#define COMBAT_STORE_JETSTREAM_TESTING_CLUSTER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace combat::store::jetstream::testing {

class Cluster {
 public:
  // Starts `nodes` servers (1: a single JetStream server, no cluster
  // block) and waits up to 30 s for a meta leader. Unavailable naming the
  // node's log when a server exits or no leader is elected in time.
  static absl::StatusOr<std::unique_ptr<Cluster>> Start(int nodes = 3);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // "nats://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3" + `suffix` (e.g.
  // "/prefix?replicas=3"): a store::EventLog::Open URL.
  std::string Url(const std::string& suffix = "") const;
  int size() const { return static_cast<int>(nodes_.size()); }
  bool running(int node) const { return nodes_[node].pid > 0; }

  // SIGKILL node `node` and reap it.
  void Kill(int node);
  // Starts a killed node again (same ports, same store) and waits up to
  // 30 s until it accepts connections.
  absl::Status Restart(int node);
  // Waits up to 30 s until a JetStream request through the running nodes
  // succeeds (a meta leader exists).
  absl::Status WaitForLeader() const;

 private:
  struct Node {
    std::string dir;
    int client_port = 0;
    int cluster_port = 0;
    pid_t pid = -1;
  };
  Cluster() = default;
  absl::Status Launch(int node);
  absl::Status WaitAccepting(int node) const;

  std::string root_;
  std::vector<Node> nodes_;
};

}  // namespace combat::store::jetstream::testing

#endif  // COMBAT_STORE_JETSTREAM_TESTING_CLUSTER_H_
