#include "events/json_errors.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "events/nearest.h"
#include "flatbuffers/idl.h"

namespace combat::events {
namespace {

constexpr absl::string_view kUnknownEnum = "unknown enum value: ";
constexpr absl::string_view kUnknownField = "unknown field: ";

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


// One open object or array of the JSON text, while scanning it.
struct Frame {
  bool object = false;
  bool want_key = true;  // objects: the next token is a key
  std::string key;       // objects: the current key
  std::map<std::string, std::string> unions;  // "x_type" keys: their values
};

// The table (or struct) of the innermost object open at `end` in `json`,
// resolved through the schema from its root; nullptr when it cannot be
// (a union whose type is not given before it, an unknown key on the way).
const flatbuffers::StructDef* TableAt(const flatbuffers::Parser& schema,
                                      absl::string_view json, size_t end) {
  std::vector<Frame> stack;
  size_t i = 0;
  auto token = [&](std::string text) {
    if (stack.empty() || !stack.back().object) return;
    Frame& f = stack.back();
    if (f.want_key) {
      f.key = std::move(text);
      f.want_key = false;
    } else if (absl::EndsWith(f.key, flatbuffers::UnionTypeFieldSuffix())) {
      f.unions[f.key] = std::move(text);
    }
  };
  while (i < end && i < json.size()) {
    const char c = json[i];
    if (c == '{' || c == '[') {
      Frame f;
      f.object = c == '{';
      stack.push_back(std::move(f));
      ++i;
    } else if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
      ++i;
    } else if (c == ',') {
      if (!stack.empty() && stack.back().object) stack.back().want_key = true;
      ++i;
    } else if (c == '"') {
      std::string text;
      ++i;
      while (i < json.size() && json[i] != '"') {
        if (json[i] == '\\' && i + 1 < json.size()) ++i;
        text.push_back(json[i++]);
      }
      ++i;
      token(std::move(text));
    } else if (IsNameChar(c) || c == '-' || c == '+' || c == '.') {
      std::string text;
      while (i < json.size() && (IsNameChar(json[i]) || json[i] == '-' ||
                                 json[i] == '+' || json[i] == '.')) {
        text.push_back(json[i++]);
      }
      token(std::move(text));
    } else {
      ++i;
    }
  }
  const flatbuffers::StructDef* def = schema.root_struct_def_;
  std::vector<const Frame*> objects;
  for (const Frame& f : stack) {
    if (f.object) objects.push_back(&f);
  }
  if (objects.empty() || def == nullptr) return nullptr;
  // Every object but the innermost names, by its current key, the field
  // that holds the next one.
  for (size_t k = 0; k + 1 < objects.size(); ++k) {
    const Frame& f = *objects[k];
    const flatbuffers::FieldDef* field = def->fields.Lookup(f.key);
    if (field == nullptr) return nullptr;
    const flatbuffers::Type& t = field->value.type;
    if (t.base_type == flatbuffers::BASE_TYPE_UNION) {
      auto it = f.unions.find(f.key + flatbuffers::UnionTypeFieldSuffix());
      if (it == f.unions.end() || t.enum_def == nullptr) return nullptr;
      const flatbuffers::EnumVal* v = t.enum_def->Lookup(it->second);
      if (v == nullptr) return nullptr;
      def = v->union_type.struct_def;
    } else {
      def = t.struct_def;  // a table, a struct, or a vector of them
    }
    if (def == nullptr) return nullptr;
  }
  return def;
}

// "Command fields: id, actor, ...; did you mean 'params'?"
std::string ExplainUnknownField(const flatbuffers::Parser& schema,
                                absl::string_view json, absl::string_view error,
                                size_t pos) {
  const std::string name(absl::StripAsciiWhitespace(
      error.substr(pos + kUnknownField.size())));
  const size_t at = ErrorOffset(json, error);
  if (at == absl::string_view::npos) return "";
  const flatbuffers::StructDef* def = TableAt(schema, json, at);
  if (def == nullptr) return "";
  std::vector<std::string> fields;
  for (const flatbuffers::FieldDef* f : def->fields.vec) {
    if (!f->deprecated) fields.push_back(f->name);
  }
  std::string out = absl::StrCat(def->name, " fields: ", absl::StrJoin(fields, ", "));
  const std::string best = ClosestName(name, fields);
  if (!best.empty()) absl::StrAppend(&out, "; did you mean '", best, "'?");
  return out;
}

// "field 'role' takes one of System, GM, Player; did you mean 'GM'?"
std::string ExplainUnknownEnum(const flatbuffers::Parser& schema,
                               absl::string_view json, absl::string_view error,
                               size_t pos) {
  const std::string value(absl::StripAsciiWhitespace(
      error.substr(pos + kUnknownEnum.size())));
  const size_t at = ErrorOffset(json, error);
  if (at == absl::string_view::npos) return "";
  const std::string key = KeyBefore(json, at);
  if (key.empty()) return "";
  // The enum of that field of the table the value was given in; when the
  // table cannot be resolved, of every field of that name (no repeats).
  std::vector<const flatbuffers::EnumDef*> enums;
  auto add = [&](const flatbuffers::FieldDef* f) {
    const flatbuffers::EnumDef* e = f == nullptr ? nullptr : f->value.type.enum_def;
    if (e == nullptr || e->is_union) return;
    for (const auto* x : enums) {
      if (x == e) return;
    }
    enums.push_back(e);
  };
  if (const flatbuffers::StructDef* def = TableAt(schema, json, at); def != nullptr) {
    add(def->fields.Lookup(key));
  }
  if (enums.empty()) {
    for (const flatbuffers::StructDef* s : schema.structs_.vec) add(s->fields.Lookup(key));
  }
  if (enums.empty()) return "";
  std::vector<std::string> names;
  for (const flatbuffers::EnumDef* e : enums) {
    for (const flatbuffers::EnumVal* v : e->Vals()) names.push_back(v->name);
  }
  std::string out = absl::StrCat("field '", key, "' takes one of ",
                                 absl::StrJoin(names, ", "));
  const std::string best = ClosestName(value, names);
  if (!best.empty()) absl::StrAppend(&out, "; did you mean '", best, "'?");
  return out;
}

}  // namespace

std::string ExplainJsonError(const flatbuffers::Parser& schema,
                             absl::string_view json, absl::string_view error) {
  if (const size_t pos = error.find(kUnknownField); pos != absl::string_view::npos) {
    return ExplainUnknownField(schema, json, error, pos);
  }
  if (const size_t pos = error.find(kUnknownEnum); pos != absl::string_view::npos) {
    return ExplainUnknownEnum(schema, json, error, pos);
  }
  return "";
}

}  // namespace combat::events
