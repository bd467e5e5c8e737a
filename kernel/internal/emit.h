// Private to kernel/: the one way the kernel's concept emitters (changes.cc,
// window.cc, pending.cc, ...) write a state change into a Decision.
#ifndef COMBAT_KERNEL_INTERNAL_EMIT_H_
#define COMBAT_KERNEL_INTERNAL_EMIT_H_

#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "kernel/changes.h"

namespace combat::kernel::internal {

inline absl::Status Emit(Decision& d, const Why& why, fb::ChangeUnion change) {
  return d.Change(why.cause, why.rule, why.nums, std::move(change), why.note);
}

template <typename T>
fb::ChangeUnion Union(T value) {
  fb::ChangeUnion u;
  u.Set(std::move(value));
  return u;
}

inline std::unique_ptr<fb::Pos> FbPos(Pos p) {
  return std::make_unique<fb::Pos>(p.x, p.y);
}


}  // namespace combat::kernel::internal

#endif  // COMBAT_KERNEL_INTERNAL_EMIT_H_
