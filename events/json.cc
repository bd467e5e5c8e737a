#include "events/json.h"

#include <array>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "events/events_generated.h"
#include "events/json_errors.h"
#include "events/json_line.h"
#include "events/input_generated.h"
#include "events/schema_text.h"
#include "events/state_generated.h"
#include "events/status_macros.h"
#include "flatbuffers/idl.h"

namespace combat::events {
namespace {

// Large enough for a long script; depth as in codec.h.
constexpr flatbuffers::uoffset_t kMaxDepth = 64;
constexpr flatbuffers::uoffset_t kMaxTables = 1000000;

template <typename T>
bool VerifyAs(flatbuffers::Verifier& v, const char* identifier) {
  return v.VerifyBuffer<T>(identifier);
}

struct Root {
  const char* name;
  const char* identifier;  // nullptr: the root has none
  bool (*verify)(flatbuffers::Verifier&, const char*);
};

const std::array<Root, 5>& Roots() {
  static const std::array<Root, 5> roots = {{
      {"Event", fb::EventIdentifier(), &VerifyAs<fb::Event>},
      {"State", fb::StateIdentifier(), &VerifyAs<fb::State>},
      {"Script", fb::ScriptIdentifier(), &VerifyAs<fb::Script>},
      {"Roster", nullptr, &VerifyAs<fb::Roster>},
      {"Command", nullptr, &VerifyAs<fb::Command>},
  }};
  return roots;
}

absl::StatusOr<size_t> FindRoot(absl::string_view name) {
  for (size_t i = 0; i < Roots().size(); ++i) {
    if (name == Roots()[i].name) return i;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown root table \"", name,
                   "\": expected Event, State, Script, Roster or Command"));
}

bool IsEvent(const Root& root) { return std::strcmp(root.name, "Event") == 0; }

// The schema text with its `include "...";` lines blanked (line numbers
// kept): the included files are parsed into the same parser before it.
std::string StripIncludes(const char* text) {
  std::string out;
  absl::string_view rest(text);
  while (!rest.empty()) {
    size_t end = rest.find('\n');
    absl::string_view line =
        rest.substr(0, end == absl::string_view::npos ? rest.size() : end + 1);
    rest.remove_prefix(line.size());
    absl::string_view body = absl::StripLeadingAsciiWhitespace(line);
    if (body.substr(0, 8) == "include " || body.substr(0, 8) == "include\"") {
      if (line.back() == '\n') out.push_back('\n');
      continue;
    }
    out.append(line.data(), line.size());
  }
  return out;
}

// A parser holding every schema, its root set to `root`.
absl::StatusOr<std::unique_ptr<flatbuffers::Parser>> NewParser(
    const Root& root, const flatbuffers::IDLOptions& opts) {
  auto parser = std::make_unique<flatbuffers::Parser>(opts);
  for (const SchemaFile& f : SchemaFiles()) {
    const std::string text = StripIncludes(f.text);
    if (!parser->Parse(text.c_str(), nullptr, f.name)) {
      return absl::InternalError(
          absl::StrCat("embedded schema ", f.name, ": ", parser->error_));
    }
  }
  if (!parser->SetRootType(root.name)) {
    return absl::InternalError(absl::StrCat("no table ", root.name));
  }
  // The last file parsed set its own identifier; use the root's.
  parser->file_identifier_ = root.identifier ? root.identifier : "";
  return parser;
}

flatbuffers::IDLOptions InputOptions() {
  flatbuffers::IDLOptions opts;
  opts.strict_json = false;
  opts.skip_unexpected_fields_in_json = false;
  return opts;
}

flatbuffers::IDLOptions OutputOptions() {
  flatbuffers::IDLOptions opts;
  opts.strict_json = true;
  opts.output_default_scalars_in_json = false;
  opts.indent_step = 2;
  opts.natural_utf8 = true;
  return opts;
}

// One printer per root, built once. GenerateText only reads the parser,
// so sharing them between threads is safe.
absl::StatusOr<const flatbuffers::Parser*> Printer(size_t root) {
  using Printers =
      std::array<absl::StatusOr<std::unique_ptr<flatbuffers::Parser>>, 5>;
  static const Printers* printers = [] {
    auto* p = new Printers;
    for (size_t i = 0; i < p->size(); ++i) {
      (*p)[i] = NewParser(Roots()[i], OutputOptions());
    }
    return p;
  }();
  const auto& p = (*printers)[root];
  if (!p.ok()) return p.status();
  return p->get();
}

// Checks `bytes` (aligned) as a buffer of `root`. Events get exactly the
// store's check (EventBuffer), which also refuses a union value without a
// known type: GenerateText would trust the type field.
absl::Status Verify(const Root& root, const std::vector<uint8_t>& bytes) {
  if (IsEvent(root)) {
    return EventBuffer::FromBytes(bytes.data(), bytes.size(), "Event").status();
  }
  if (root.identifier != nullptr &&
      (bytes.size() < 8 ||
       !flatbuffers::BufferHasIdentifier(bytes.data(), root.identifier))) {
    return absl::DataLossError(absl::StrCat("not a ", root.name, " buffer (",
                                            bytes.size(), " bytes, no ",
                                            root.identifier, " identifier)"));
  }
  flatbuffers::Verifier v(bytes.data(), bytes.size(), kMaxDepth, kMaxTables);
  if (!root.verify(v, root.identifier)) {
    return absl::DataLossError(
        absl::StrCat(root.name, " bytes fail the FlatBuffers Verifier (",
                     bytes.size(), " bytes)"));
  }
  return absl::OkStatus();
}

template <typename T, typename Table>
absl::StatusOr<T> ParseAs(absl::string_view json, absl::string_view root) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, JsonToBinary(json, root));
  T out;
  flatbuffers::GetRoot<Table>(bytes.data())->UnPackTo(&out);
  return out;
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> JsonToBinary(
    absl::string_view json, absl::string_view root_table) {
  ASSIGN_OR_RETURN(const size_t index, FindRoot(root_table));
  const Root& root = Roots()[index];
  const size_t nul = json.find('\0');
  if (nul != absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "invalid ", root.name, " JSON: a NUL byte at offset ", nul));
  }
  // A fresh parser per call (~0.15 ms): Parse() mutates the parser, and a
  // failed parse may leave it half-way, so none is shared.
  ASSIGN_OR_RETURN(std::unique_ptr<flatbuffers::Parser> parser,
                   NewParser(root, InputOptions()));
  const std::string text(json);
  if (!parser->ParseJson(text.c_str(), "input")) {
    const std::string error(absl::StripTrailingAsciiWhitespace(parser->error_));
    const std::string more = ExplainJsonError(*parser, json, error);
    return absl::InvalidArgumentError(absl::StrCat(
        "invalid ", root.name, " JSON: ", error, more.empty() ? "" : "; ", more));
  }
  const flatbuffers::FlatBufferBuilder& b = parser->builder_;
  // Heap storage: aligned for every scalar, unlike the builder's tail.
  std::vector<uint8_t> bytes(b.GetBufferPointer(),
                             b.GetBufferPointer() + b.GetSize());
  if (absl::Status s = Verify(root, bytes); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid ", root.name, " JSON: ", s.message()));
  }
  if (IsEvent(root)) {
    fb::EventT event;
    fb::GetEvent(bytes.data())->UnPackTo(&event);
    ASSIGN_OR_RETURN(EventBuffer canonical,
                     EventBuffer::FromOwned(EncodeEvent(event), "Event JSON"));
    return canonical.bytes();
  }
  return bytes;
}

namespace {

// The bytes of a `root_table` binary copied into aligned memory and
// verified, with the parser that prints that root (both printers' start).
struct Printable {
  const Root* root = nullptr;
  std::vector<uint8_t> bytes;
  const flatbuffers::Parser* printer = nullptr;
};

absl::StatusOr<Printable> ToPrint(const uint8_t* data, size_t size,
                                  absl::string_view root_table) {
  ASSIGN_OR_RETURN(const size_t index, FindRoot(root_table));
  Printable p;
  p.root = &Roots()[index];
  p.bytes.resize(size);
  if (size > 0) std::memcpy(p.bytes.data(), data, size);
  RETURN_IF_ERROR(Verify(*p.root, p.bytes));
  ASSIGN_OR_RETURN(p.printer, Printer(index));
  return p;
}

}  // namespace

absl::StatusOr<std::string> BinaryToJson(const uint8_t* data, size_t size,
                                         absl::string_view root_table) {
  ASSIGN_OR_RETURN(Printable p, ToPrint(data, size, root_table));
  const Root& root = *p.root;
  std::string text;
  if (!flatbuffers::GenerateText(*p.printer, p.bytes.data(), &text)) {
    return absl::DataLossError(
        absl::StrCat(root.name,
                     " bytes cannot be printed as JSON (a string "
                     "that is not UTF-8?)"));
  }
  return text;
}

absl::StatusOr<std::string> EventToJson(const EventBuffer& event) {
  return BinaryToJson(event.bytes().data(), event.bytes().size(), "Event");
}

absl::StatusOr<std::string> BinaryToJsonLine(const uint8_t* data, size_t size,
                                             absl::string_view root_table) {
  ASSIGN_OR_RETURN(Printable p, ToPrint(data, size, root_table));
  std::string text;
  AppendTableJson(*p.printer->root_struct_def_,
                  flatbuffers::GetRoot<uint8_t>(p.bytes.data()), &text);
  return text;
}

absl::StatusOr<std::string> EventToJsonLine(const EventBuffer& event) {
  return BinaryToJsonLine(event.bytes().data(), event.bytes().size(), "Event");
}

absl::StatusOr<fb::ScriptT> ParseScript(absl::string_view json) {
  return ParseAs<fb::ScriptT, fb::Script>(json, "Script");
}

absl::StatusOr<fb::RosterT> ParseRoster(absl::string_view json) {
  return ParseAs<fb::RosterT, fb::Roster>(json, "Roster");
}

absl::StatusOr<fb::CommandT> ParseCommand(absl::string_view json) {
  return ParseAs<fb::CommandT, fb::Command>(json, "Command");
}

}  // namespace combat::events
