// The two Status macros Debian's Abseil 20220623 lacks.
#ifndef COMBAT_EVENTS_STATUS_MACROS_H_
#define COMBAT_EVENTS_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define COMBAT_CONCAT_INNER_(a, b) a##b
#define COMBAT_CONCAT_(a, b) COMBAT_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (an absl::Status) is not ok.
#define RETURN_IF_ERROR(expr)                        \
  do {                                               \
    ::absl::Status combat_status_ = (expr);          \
    if (!combat_status_.ok()) return combat_status_; \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, F())`: assigns the value of a StatusOr or
// returns its error.
#define ASSIGN_OR_RETURN(lhs, rexpr) \
  ASSIGN_OR_RETURN_IMPL_(COMBAT_CONCAT_(combat_statusor_, __LINE__), lhs, rexpr)

#define ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                           \
  if (!tmp.ok()) return tmp.status();           \
  lhs = std::move(tmp).value()

#endif  // COMBAT_EVENTS_STATUS_MACROS_H_
