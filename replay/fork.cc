#include "replay/fork.h"

#include <functional>
#include <map>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"

namespace combat::replay {

absl::StatusOr<uint64_t> ForkBranch(store::EventLog& log,
                                    const ForkRequest& request) {
  if (request.branch.empty()) {
    return absl::InvalidArgumentError("fork: the new branch's name is required");
  }
  if (request.author.empty()) {
    return absl::InvalidArgumentError("fork: 'author' (who forks) is required");
  }
  if (request.reason.empty()) {
    return absl::InvalidArgumentError("fork: 'reason' (why) is required");
  }
  uint64_t at = request.at;
  if (at == 0) {
    ASSIGN_OR_RETURN(store::Head head,
                     log.GetHead(request.session, request.parent));
    at = head.seq;
  }
  RETURN_IF_ERROR(log.Fork(request.session, request.parent, at, request.branch,
                           request.author, request.reason));
  return at;
}

absl::StatusOr<std::vector<BranchInfo>> BranchTree(const store::EventLog& log,
                                                   const std::string& session) {
  ASSIGN_OR_RETURN(std::vector<store::BranchMeta> all,
                   log.ListBranches(session));
  std::map<std::string, std::vector<const store::BranchMeta*>> children;
  for (const store::BranchMeta& b : all) children[b.parent].push_back(&b);
  std::vector<BranchInfo> out;
  absl::Status status;
  std::function<void(const std::string&, int)> visit =
      [&](const std::string& parent, int depth) {
        auto it = children.find(parent);
        if (it == children.end()) return;
        for (const store::BranchMeta* b : it->second) {
          if (!status.ok() || depth > 1000) return;
          auto head = log.GetHead(session, b->branch);
          if (!head.ok()) {
            status = head.status();
            return;
          }
          out.push_back({*b, *head, depth});
          visit(b->branch, depth + 1);
        }
      };
  visit("", 0);
  RETURN_IF_ERROR(status);
  return out;
}

std::string RenderBranchTree(const std::vector<BranchInfo>& tree) {
  std::string out;
  for (const BranchInfo& b : tree) {
    absl::StrAppend(&out, std::string(2 * b.depth, ' '), b.meta.branch);
    if (!b.meta.parent.empty()) {
      absl::StrAppend(&out, "  forked from ", b.meta.parent, " at #",
                      b.meta.fork_seq, " by ", b.meta.author, ": \"",
                      b.meta.reason, "\"");
    }
    absl::StrAppend(&out, "  ", b.head.seq, " events\n");
  }
  return out;
}

}  // namespace combat::replay
