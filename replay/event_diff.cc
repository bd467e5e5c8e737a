#include "replay/event_diff.h"

#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/status_macros.h"

namespace combat::replay {
namespace {

class Flattener {
 public:
  explicit Flattener(absl::string_view s) : s_(s) {}

  absl::Status Run(std::vector<std::pair<std::string, std::string>>* out) {
    out_ = out;
    RETURN_IF_ERROR(Value(""));
    Space();
    if (i_ != s_.size()) return Error("trailing text");
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("JSON: ", what, " at offset ", i_));
  }
  void Space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' ||
                              s_[i_] == '\t' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool Peek(char c) {
    Space();
    return i_ < s_.size() && s_[i_] == c;
  }
  // A scalar's text as written.
  absl::StatusOr<std::string> Scalar() {
    Space();
    const size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '"') {
      ++i_;
      while (i_ < s_.size() && s_[i_] != '"') i_ += s_[i_] == '\\' ? 2 : 1;
      if (i_ >= s_.size()) return Error("unterminated string");
      ++i_;
    } else {
      while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' &&
             s_[i_] != ']' && s_[i_] != ' ' && s_[i_] != '\n') {
        ++i_;
      }
      if (i_ == start) return Error("value expected");
    }
    return std::string(s_.substr(start, i_ - start));
  }
  absl::Status Value(const std::string& path) {
    if (++depth_ > 100) return Error("too deep");
    absl::Status st = ValueInner(path);
    --depth_;
    return st;
  }
  absl::Status ValueInner(const std::string& path) {
    if (Peek('{')) {
      ++i_;
      if (Peek('}')) {
        ++i_;
        out_->push_back({path, "{}"});
        return absl::OkStatus();
      }
      while (true) {
        ASSIGN_OR_RETURN(std::string key, Scalar());
        if (key.size() < 2 || key.front() != '"') return Error("key expected");
        key = key.substr(1, key.size() - 2);
        if (!Peek(':')) return Error("':' expected");
        ++i_;
        RETURN_IF_ERROR(Value(path.empty() ? key : absl::StrCat(path, ".", key)));
        if (Peek(',')) {
          ++i_;
          continue;
        }
        if (Peek('}')) {
          ++i_;
          return absl::OkStatus();
        }
        return Error("',' or '}' expected");
      }
    }
    if (Peek('[')) {
      ++i_;
      if (Peek(']')) {
        ++i_;
        out_->push_back({path, "[]"});
        return absl::OkStatus();
      }
      if (!Peek('{') && !Peek('[')) {  // an array of scalars: one value
        std::string joined = "[";
        while (true) {
          ASSIGN_OR_RETURN(std::string v, Scalar());
          absl::StrAppend(&joined, joined.size() > 1 ? "," : "", v);
          if (Peek(',')) {
            ++i_;
            continue;
          }
          if (Peek(']')) {
            ++i_;
            out_->push_back({path, joined + "]"});
            return absl::OkStatus();
          }
          return Error("',' or ']' expected");
        }
      }
      for (int n = 0;; ++n) {
        RETURN_IF_ERROR(Value(absl::StrCat(path, "[", n, "]")));
        if (Peek(',')) {
          ++i_;
          continue;
        }
        if (Peek(']')) {
          ++i_;
          return absl::OkStatus();
        }
        return Error("',' or ']' expected");
      }
    }
    ASSIGN_OR_RETURN(std::string v, Scalar());
    out_->push_back({path, v});
    return absl::OkStatus();
  }

  absl::string_view s_;
  size_t i_ = 0;
  int depth_ = 0;
  std::vector<std::pair<std::string, std::string>>* out_ = nullptr;
};

// Arrays of bytes named like hashes are shown in hex.
std::string Compact(const std::string& path, const std::string& value) {
  const bool bytes_field = absl::EndsWith(path, "hash") ||
                           absl::EndsWith(path, "commitment") ||
                           absl::EndsWith(path, "secret");
  if (!bytes_field || value.size() < 2 || value.front() != '[') return value;
  std::string hex;
  int byte = 0;
  bool any = false;
  for (size_t i = 1; i < value.size(); ++i) {
    const char c = value[i];
    if (c >= '0' && c <= '9') {
      byte = byte * 10 + (c - '0');
      any = true;
      if (byte > 255) return value;
    } else if (c == ',' || c == ']') {
      if (!any) return value;
      static const char kHex[] = "0123456789abcdef";
      hex.push_back(kHex[byte >> 4]);
      hex.push_back(kHex[byte & 15]);
      byte = 0;
      any = false;
    } else {
      return value;
    }
  }
  return hex;
}

}  // namespace

absl::StatusOr<std::vector<std::pair<std::string, std::string>>> FlattenJson(
    absl::string_view json) {
  std::vector<std::pair<std::string, std::string>> out;
  Flattener f(json);
  RETURN_IF_ERROR(f.Run(&out));
  for (auto& [path, value] : out) value = Compact(path, value);
  return out;
}

absl::StatusOr<std::string> EventFields(const events::EventBuffer& event,
                                        absl::string_view indent) {
  ASSIGN_OR_RETURN(std::string json, events::EventToJson(event));
  ASSIGN_OR_RETURN(auto fields, FlattenJson(json));
  std::string out;
  for (const auto& [path, value] : fields) {
    absl::StrAppend(&out, indent, path, ": ", value, "\n");
  }
  return out;
}

absl::StatusOr<std::vector<FieldDiff>> DiffEvents(const events::EventBuffer& a,
                                                  const events::EventBuffer& b) {
  ASSIGN_OR_RETURN(std::string ja, events::EventToJson(a));
  ASSIGN_OR_RETURN(std::string jb, events::EventToJson(b));
  ASSIGN_OR_RETURN(auto fa, FlattenJson(ja));
  ASSIGN_OR_RETURN(auto fb, FlattenJson(jb));
  // Keep document order: a's paths first, then paths only b has.
  std::map<std::string, std::string> vb(fb.begin(), fb.end());
  std::map<std::string, std::string> va(fa.begin(), fa.end());
  std::vector<FieldDiff> out;
  for (const auto& [path, value] : fa) {
    auto it = vb.find(path);
    const std::string other = it == vb.end() ? "-" : it->second;
    if (other != value) out.push_back({"event", path, value, other});
  }
  for (const auto& [path, value] : fb) {
    if (va.count(path) == 0) out.push_back({"event", path, "-", value});
  }
  return out;
}

}  // namespace combat::replay
