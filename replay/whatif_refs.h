// What-if's references: how a re-run command's references to earlier
// events, windows and pending acts are pointed at the new branch
// (replay/whatif.h).
//
// Schema v5 commands name them in `Command.refs` ({key, seq, window,
// pending}; kernel/command.h reads them). Every ref is followed:
//   seq      an event after the fork maps to the re-run of that event (the
//            same position in the re-run of its command when the re-run
//            wrote as many events, else its declaration); one at or before
//            the fork stays;
//   window   windows are numbered in the order they open, so a window the
//            parent opened after the fork maps to the one the re-run of the
//            command that opened it opened in the same place (the k-th it
//            opens); windows open at the fork keep their ids;
//   pending  pending acts, the same way: the k-th act the re-run of the
//            opening command opens; acts open at the fork keep their ids.
// A ref that no longer maps makes the command no longer apply, the reason
// naming the ref ("refs[key=act]: its pending act #3, opened by main#20,
// was not opened again on this branch"). An interrupt's own `window` field is
// followed the same way.
//
// Logs recorded before v5 have no refs: for a command without refs the
// legacy params are followed instead, as what-if always did: a GM verb's
// (`gm_*`) param "subject" as a seq, and every param whose name ends in
// "window" ("window", "also_window") as a window. A command with refs is
// read through its refs only.
#ifndef COMBAT_REPLAY_WHATIF_REFS_H_
#define COMBAT_REPLAY_WHATIF_REFS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "events/codec.h"
#include "kernel/state.h"
#include "replay/recorded.h"

namespace combat::replay {

class RefFollower {
 public:
  // `parent`: the parent branch's name (for reasons); `at_fork`: the state
  // at the fork; `later`: the parent's commands after it (with events).
  RefFollower(std::string parent, uint64_t fork_seq, const kernel::State& at_fork,
              const std::vector<RecordedCommand>& later);

  // Records that the re-run of `parent_cmd` wrote `decided`, the first of
  // them at seq `first_seq`.
  void Rerun(const RecordedCommand& parent_cmd,
             const std::vector<events::EventBuffer>& decided, uint64_t first_seq);

  // Points `cmd`'s references at the new branch. Returns the reason it no
  // longer applies when one of them does not map, else nullopt.
  std::optional<std::string> Follow(fb::CommandT& cmd) const;

 private:
  std::optional<std::string> FollowSeq(uint64_t& seq, const std::string& what) const;
  std::optional<std::string> FollowWindow(uint32_t& window, const std::string& what) const;
  std::optional<std::string> FollowPending(uint32_t& pending, const std::string& what) const;
  // A window or pending act: kept when open at the fork, else mapped by
  // `moved`; the reason names `what` and the command in `opened_by`.
  std::optional<std::string> FollowOpened(uint32_t& id, bool open_at_fork,
                                          const std::map<uint32_t, uint32_t>& moved,
                                          const std::map<uint32_t, uint64_t>& opened_by,
                                          const std::string& what) const;
  std::optional<std::string> FollowLegacyParams(fb::CommandT& cmd) const;

  std::string parent_;
  uint64_t fork_seq_;
  uint32_t first_new_window_;
  uint32_t last_pending_at_fork_;
  std::map<uint64_t, uint64_t> moved_;             // parent seq -> new seq
  std::map<uint32_t, uint64_t> window_opened_by_;  // parent window -> parent seq
  std::map<uint32_t, uint32_t> windows_moved_;     // parent window -> new window
  std::map<uint32_t, uint64_t> pending_opened_by_;  // parent act -> parent seq
  std::map<uint32_t, uint32_t> pending_moved_;      // parent act -> new act
};

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_WHATIF_REFS_H_
