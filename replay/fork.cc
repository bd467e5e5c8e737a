#include "replay/fork.h"

#include <functional>
#include <map>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"

namespace combat::replay {

bool IsForkRecord(const events::EventBuffer& e) {
  const fb::StateChange* sc = e.event().body_as_StateChange();
  return sc != nullptr && sc->change_type() == fb::Change::BranchForked;
}

absl::StatusOr<events::EventBuffer> ForkRecord(const kernel::State& at_fork,
                                               const events::Digest& fork_hash,
                                               const ForkRequest& request,
                                               uint64_t fork_seq) {
  kernel::Envelope env;
  env.branch = request.branch;
  env.author = request.author;
  env.role = fb::Role::GM;
  env.command_id = store::kForkCommandId;
  env.ruleset = at_fork.ruleset;
  env.ruleset_version = at_fork.ruleset_version;
  env.prev_hash = fork_hash;
  kernel::dice::ManualDice no_dice({}, nullptr);
  kernel::Decision d(at_fork, env, no_dice);
  fb::BranchForkedT f;
  f.branch = request.branch;
  f.parent = request.parent;
  f.fork_seq = fork_seq;
  f.author = request.author;
  f.reason = request.reason;
  fb::ChangeUnion change;
  change.Set(std::move(f));
  RETURN_IF_ERROR(d.Change(0, "fork", {}, std::move(change)));
  return d.TakeEvents().front();
}

absl::StatusOr<uint64_t> ForkBranch(store::EventLog& log,
                                    const ForkRequest& request,
                                    const SeekOptions& seek) {
  if (request.branch.empty()) {
    return absl::InvalidArgumentError("fork: the new branch's name is required");
  }
  if (request.author.empty()) {
    return absl::InvalidArgumentError("fork: 'author' (who forks) is required");
  }
  if (request.reason.empty()) {
    return absl::InvalidArgumentError("fork: 'reason' (why) is required");
  }
  ASSIGN_OR_RETURN(store::Head head,
                   log.GetHead(request.session, request.parent));
  const uint64_t at = request.at == 0 ? head.seq : request.at;
  if (at == 0 || at > head.seq) {
    // The store names the valid range.
    RETURN_IF_ERROR(log.Fork(request.session, request.parent, at, request.branch,
                             request.author, request.reason));
  }
  ASSIGN_OR_RETURN(kernel::State state,
                   Seek(log, request.session, request.parent, at, seek));
  if (state.schema_version < 6) {
    // Sessions of earlier schemas keep their fork records in the store only.
    RETURN_IF_ERROR(log.Fork(request.session, request.parent, at, request.branch,
                             request.author, request.reason));
    return at;
  }
  ASSIGN_OR_RETURN(std::vector<events::EventBuffer> fork_event,
                   log.Read(request.session, request.parent, at, at));
  if (fork_event.size() != 1) {
    return absl::DataLossError(absl::StrCat("fork: session ", request.session, " branch ",
                                            request.parent, " has no event #", at));
  }
  ASSIGN_OR_RETURN(events::EventBuffer record,
                   ForkRecord(state, fork_event.front().hash(), request, at));
  RETURN_IF_ERROR(log.Fork(request.session, request.parent, at, request.branch,
                           request.author, request.reason, record));
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
