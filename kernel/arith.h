// Integer division with a named rounding direction. C++ `/` truncates
// toward zero, which differs from "rounded down" for negative values; every
// ruleset rounding rule uses one of these and cites its seed line at the
// call site.
#ifndef COMBAT_KERNEL_ARITH_H_
#define COMBAT_KERNEL_ARITH_H_

#include <cstdint>

namespace combat::kernel {

// a / b rounded toward -infinity. REQUIRES: b != 0.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// a / b rounded toward +infinity. REQUIRES: b != 0.
inline int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_ARITH_H_
