#include "events/json_errors.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "flatbuffers/idl.h"

namespace combat::events {
namespace {

constexpr absl::string_view kUnknownEnum = "unknown enum value: ";

bool IsNameChar(char c) { return absl::ascii_isalnum(c) || c == '_'; }

// The offset in `json` of "input:LINE: COL:" in `error`; npos if none.
size_t ErrorOffset(absl::string_view json, absl::string_view error) {
  std::vector<absl::string_view> parts = absl::StrSplit(error, ':');
  if (parts.size() < 3) return absl::string_view::npos;
  int line = 0, col = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[1]), &line) ||
      !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[2]), &col) ||
      line < 1 || col < 0) {
    return absl::string_view::npos;
  }
  size_t at = 0;
  for (int l = 1; l < line; ++l) {
    at = json.find('\n', at);
    if (at == absl::string_view::npos) return at;
    ++at;
  }
  at += static_cast<size_t>(col);
  return at <= json.size() ? at : absl::string_view::npos;
}

// The key of the `"key": value` pair whose value ends before `end`.
std::string KeyBefore(absl::string_view json, size_t end) {
  size_t i = end;
  auto skip_space = [&] {
    while (i > 0 && absl::ascii_isspace(json[i - 1])) --i;
  };
  auto skip_token = [&] {  // a quoted string or a bare name, backwards
    if (i > 0 && json[i - 1] == '"') {
      --i;
      while (i > 0 && !(json[i - 1] == '"' && (i < 2 || json[i - 2] != '\\'))) --i;
      if (i > 0) --i;
    } else {
      while (i > 0 && IsNameChar(json[i - 1])) --i;
    }
  };
  skip_space();
  skip_token();
  skip_space();
  if (i == 0 || json[i - 1] != ':') return "";
  --i;
  skip_space();
  const size_t key_end = i;
  skip_token();
  std::string key(json.substr(i, key_end - i));
  if (key.size() >= 2 && key.front() == '"') key = key.substr(1, key.size() - 2);
  return key;
}

}  // namespace

std::string ExplainJsonError(const flatbuffers::Parser& schema,
                             absl::string_view json, absl::string_view error) {
  const size_t pos = error.find(kUnknownEnum);
  if (pos == absl::string_view::npos) return "";
  const std::string value(absl::StripAsciiWhitespace(
      error.substr(pos + kUnknownEnum.size())));
  const size_t at = ErrorOffset(json, error);
  if (at == absl::string_view::npos) return "";
  const std::string key = KeyBefore(json, at);
  if (key.empty()) return "";
  // Every enum a field of that name takes (schema order, no repeats).
  std::vector<const flatbuffers::EnumDef*> enums;
  for (const flatbuffers::StructDef* s : schema.structs_.vec) {
    for (const flatbuffers::FieldDef* f : s->fields.vec) {
      const flatbuffers::EnumDef* e = f->value.type.enum_def;
      if (f->name != key || e == nullptr || e->is_union) continue;
      bool seen = false;
      for (const auto* x : enums) seen = seen || x == e;
      if (!seen) enums.push_back(e);
    }
  }
  if (enums.empty()) return "";
  std::vector<std::string> names;
  std::string suggestion;
  for (const flatbuffers::EnumDef* e : enums) {
    for (const flatbuffers::EnumVal* v : e->Vals()) {
      names.push_back(v->name);
      if (suggestion.empty() && absl::EqualsIgnoreCase(v->name, value)) {
        suggestion = v->name;
      }
    }
  }
  std::string out = absl::StrCat("field '", key, "' takes one of ",
                                 absl::StrJoin(names, ", "));
  if (!suggestion.empty()) absl::StrAppend(&out, "; did you mean '", suggestion, "'?");
  return out;
}

}  // namespace combat::events
