// Shared plumbing of the `combat` verbs: flag parsing, file input, and
// printing events and state (readable or JSON).
#ifndef COMBAT_REPLAY_CLI_FLAGS_H_
#define COMBAT_REPLAY_CLI_FLAGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "kernel/state.h"

namespace combat::replay {

// `combat <verb> --key value --flag ...`: every flag takes a value except
// the switches --json, --with-secret, --include-voided, --no-redecide,
// --no-checksums and --position; `--key=value` works too. A flag the verb's
// usage does not name is refused (cli.cc FlagsOf).
struct Flags {
  std::string verb;
  std::map<std::string, std::string> values;
  bool Has(const std::string& k) const { return values.count(k) != 0; }
  std::string Get(const std::string& k, const std::string& otherwise = "") const {
    auto it = values.find(k);
    return it == values.end() ? otherwise : it->second;
  }
};

absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args);
// InvalidArgument naming the flag when it is missing or empty.
absl::StatusOr<std::string> Required(const Flags& f, const std::string& k);
// The flag as a number (0 when absent); InvalidArgument when not a number.
absl::StatusOr<uint64_t> Number(const Flags& f, const std::string& k);
// An event seq flag (--at): 0 when absent (the head); an explicit 0 is
// InvalidArgument (events are numbered from 1), never silently the head.
absl::StatusOr<uint64_t> EventSeq(const Flags& f, const std::string& k);
// The whole file at `path` ("-" reads standard input).
// The contents of `path` ("-": standard input); InvalidArgument naming the
// file and the limit when it holds more than `max_bytes`.
absl::StatusOr<std::string> ReadFile(
    const std::string& path, uint64_t max_bytes = uint64_t{1} << 32);
// --seed HEX as its 32 bytes, or nullopt when absent.
absl::StatusOr<std::optional<std::vector<uint8_t>>> Seed(const Flags& f);
// --signing-key FILE: the file holds an Ed25519 private key as 64 hex
// digits (surrounding whitespace ignored); its 32 bytes, or nullopt when
// the flag is absent. InvalidArgument naming the flag and file otherwise.
absl::StatusOr<std::optional<std::vector<uint8_t>>> SigningKey(const Flags& f);
// --setup-dice D,D,...: physical dice for the session's set-up, in the
// order it rolls them (what a `play` script's `setup_dice` gives); empty
// when absent. InvalidArgument naming the flag and the die that is not a
// whole number. Whether each fits its die, and whether all were rolled,
// the engine checks (Engine::CreateSession).
absl::StatusOr<std::vector<int>> SetupDice(const Flags& f);

absl::Status PrintEvents(const std::vector<events::EventBuffer>& evs, bool json,
                         std::ostream& out);
absl::Status PrintState(const kernel::State& s, bool json, std::ostream& out);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_CLI_FLAGS_H_
