// A tiny, fully specified PRNG for generators (tests/testing/gen.h,
// bench/generator.h): the same seed gives the same sequence everywhere.
#ifndef COMBAT_TESTS_TESTING_RNG_H_
#define COMBAT_TESTS_TESTING_RNG_H_

#include <cstdint>

namespace combat::testing {

// splitmix64: a tiny, fully specified PRNG.
class Rng {
 public:
  explicit Rng(uint64_t seed) : x_(seed) {}
  uint64_t Next() {
    uint64_t z = (x_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, n) for tests. REQUIRES: n > 0.
  uint64_t Below(uint64_t n) { return Next() % n; }
  bool OneIn(uint64_t n) { return n != 0 && Below(n) == 0; }

 private:
  uint64_t x_;
};

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_RNG_H_
