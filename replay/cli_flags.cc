#include "replay/cli_flags.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/status_macros.h"
#include "kernel/ruleset.h"
#include "kernel/state_codec.h"
#include "replay/render.h"
#include "replay/setup_dice.h"
#include "replay/state_view.h"

namespace combat::replay {

absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args) {
  Flags f;
  if (args.empty()) return absl::InvalidArgumentError("no verb given");
  f.verb = args[0];
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", a, "'"));
    }
    std::string key = a.substr(2);
    if (key == "json" || key == "with-secret" ||
        key == "include-voided" || key == "no-redecide" || key == "position" ||
        key == "no-checksums") {
      f.values[key] = "1";
      continue;
    }
    if (auto eq = key.find('='); eq != std::string::npos) {
      f.values[key.substr(0, eq)] = key.substr(eq + 1);
      continue;
    }
    if (i + 1 >= args.size()) {
      return absl::InvalidArgumentError(absl::StrCat("flag --", key, " needs a value"));
    }
    f.values[key] = args[++i];
  }
  return f;
}

absl::StatusOr<std::string> Required(const Flags& f, const std::string& k) {
  if (!f.Has(k) || f.Get(k).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("flag --", k, " is required"));
  }
  return f.Get(k);
}

absl::StatusOr<uint64_t> EventSeq(const Flags& f, const std::string& k) {
  ASSIGN_OR_RETURN(uint64_t v, Number(f, k));
  if (f.Has(k) && v == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "flag --", k, ": 0 is not an event (events are numbered from 1); "
        "omit --", k, " for the head"));
  }
  return v;
}

absl::StatusOr<uint64_t> Number(const Flags& f, const std::string& k) {
  uint64_t v = 0;
  if (!f.Has(k)) return 0;
  if (!absl::SimpleAtoi(f.Get(k), &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("flag --", k, ": '", f.Get(k), "' is not a number"));
  }
  return v;
}

absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     uint64_t max_bytes) {
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read file '", path, "'"));
    }
  }
  std::istream& in = path == "-" ? std::cin : file;
  // Reads at most max_bytes + 1: a larger input is refused without being
  // held in memory.
  std::string out;
  char buf[1 << 16];
  while (in && out.size() <= max_bytes) {
    in.read(buf, static_cast<std::streamsize>(
                     std::min<uint64_t>(sizeof buf, max_bytes + 1 - out.size())));
    out.append(buf, static_cast<size_t>(in.gcount()));
  }
  if (out.size() > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "file '", path, "' is over the limit of ", max_bytes,
        " bytes for this input"));
  }
  return out;
}

namespace {

// `text` as exactly `bytes` bytes of hex; InvalidArgument naming `what`.
absl::StatusOr<std::vector<uint8_t>> HexBytes(const std::string& what,
                                              const std::string& text,
                                              size_t bytes) {
  if (text.size() != 2 * bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": ", 2 * bytes, " hex digits (", bytes, " bytes), not ",
        text.size(), " characters"));
  }
  std::optional<std::vector<uint8_t>> out = events::FromHex(text, bytes);
  if (!out.has_value()) return absl::InvalidArgumentError(absl::StrCat(what, ": not hex"));
  return *std::move(out);
}

}  // namespace

absl::StatusOr<std::optional<std::vector<uint8_t>>> Seed(const Flags& f) {
  if (!f.Has("seed")) return std::optional<std::vector<uint8_t>>();
  ASSIGN_OR_RETURN(std::vector<uint8_t> seed, HexBytes("flag --seed", f.Get("seed"), 32));
  return std::optional<std::vector<uint8_t>>(std::move(seed));
}

absl::StatusOr<std::optional<std::vector<uint8_t>>> SigningKey(const Flags& f) {
  if (!f.Has("signing-key")) return std::optional<std::vector<uint8_t>>();
  const std::string path = f.Get("signing-key");
  ASSIGN_OR_RETURN(std::string text, ReadFile(path, 4096));
  const std::string hex(absl::StripAsciiWhitespace(text));
  ASSIGN_OR_RETURN(std::vector<uint8_t> key,
                   HexBytes(absl::StrCat("flag --signing-key: file '", path,
                                         "' holds the Ed25519 private key as"),
                            hex, 32));
  return std::optional<std::vector<uint8_t>>(std::move(key));
}

absl::StatusOr<std::vector<int>> SetupDice(const Flags& f) {
  if (!f.Has("setup-dice")) return std::vector<int>();
  return ParseSetupDice(f.Get("setup-dice"), "flag --setup-dice");
}

absl::Status PrintEvents(const std::vector<events::EventBuffer>& evs, bool json,
                         std::ostream& out) {
  std::string author;  // RenderAuthorChange
  for (const events::EventBuffer& e : evs) {
    if (json) {
      ASSIGN_OR_RETURN(std::string text, events::EventToJsonLine(e));
      out << text << "\n";
    } else {
      out << RenderEvent(e.event()) << RenderAuthorChange(e.event(), &author) << "\n";
    }
  }
  return absl::OkStatus();
}

absl::Status PrintState(const kernel::State& s, bool json, std::ostream& out) {
  // The ruleset's display (vitals with maxima, bookkeeping apart), when this
  // build has the ruleset.
  const kernel::Ruleset* rules = kernel::FindRuleset(s.ruleset);
  const kernel::Display display = rules != nullptr ? rules->display() : kernel::Display();
  if (json) {
    const std::vector<uint8_t> bytes = kernel::EncodeState(s);
    ASSIGN_OR_RETURN(std::string text,
                     events::BinaryToJsonLine(bytes.data(), bytes.size(), "State"));
    // The schema's State, plus the combatants as `state` shows them
    // (names, maxima, bookkeeping apart): state_view.h.
    text.pop_back();  // the closing brace
    out << text << ",\"combatant_view\":" << CombatantsViewJson(s, display)
        << ",\"pending_view\":" << PendingViewJson(s, display) << "}\n";
  } else {
    out << RenderState(s, display);
  }
  return absl::OkStatus();
}

}  // namespace combat::replay
