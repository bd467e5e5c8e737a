#include "store/jetstream/url.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace combat::store::jetstream {
namespace {

bool PrefixOk(const std::string& p) {
  if (p.empty() || p.size() > 64) return false;
  for (char c : p) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '-')) {
      return false;
    }
  }
  return true;
}

}  // namespace

absl::StatusOr<Url> ParseUrl(const std::string& url) {
  constexpr char kScheme[] = "nats://";
  const std::string form =
      "; the form is nats://HOST:PORT[,HOST:PORT...][/PREFIX]"
      "[?replicas=N&dedup_ms=M]";
  if (!absl::StartsWith(url, kScheme)) {
    return absl::InvalidArgumentError(
        absl::StrCat("log ", url, ": not a nats:// URL", form));
  }
  std::string rest = url.substr(sizeof(kScheme) - 1);
  std::string query;
  if (size_t q = rest.find('?'); q != std::string::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  Url out;
  std::string hosts = rest;
  if (size_t slash = rest.find('/'); slash != std::string::npos) {
    hosts = rest.substr(0, slash);
    out.prefix = rest.substr(slash + 1);
    if (!PrefixOk(out.prefix)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "log ", url, ": prefix '", out.prefix,
          "' must be 1..64 characters of [A-Za-z0-9_-]", form));
    }
  }
  for (absl::string_view host : absl::StrSplit(hosts, ',')) {
    size_t colon = host.rfind(':');
    int port = 0;
    if (host.empty() || colon == absl::string_view::npos || colon == 0 ||
        !absl::SimpleAtoi(host.substr(colon + 1), &port) || port <= 0 ||
        port > 65535) {
      return absl::InvalidArgumentError(absl::StrCat(
          "log ", url, ": server '", host, "' is not HOST:PORT", form));
    }
    out.servers.push_back(absl::StrCat(kScheme, host));
  }
  for (absl::string_view kv : absl::StrSplit(query, '&', absl::SkipEmpty())) {
    std::pair<std::string, std::string> p = absl::StrSplit(kv, '=');
    int64_t n = 0;
    if (!absl::SimpleAtoi(p.second, &n)) n = -1;
    if (p.first == "replicas" && n >= 1 && n <= 5) {
      out.replicas = static_cast<int>(n);
    } else if (p.first == "dedup_ms" && n >= 1) {
      out.dedup_ms = n;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "log ", url, ": parameter '", kv,
          "' is not replicas=1..5 or dedup_ms=N (N >= 1)", form));
    }
  }
  return out;
}

std::string SubjectToken(const std::string& id) {
  std::string out;
  for (char c : id) {
    if (c == '_') {
      out += "__";
    } else if (c == '.') {
      out += "_d";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace combat::store::jetstream
