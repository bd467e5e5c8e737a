#include "server/query_params.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "events/nearest.h"
#include "server/server.h"

namespace combat::server {
namespace {

std::vector<std::string> SegmentsOf(absl::string_view path) {
  return absl::StrSplit(path, '/', absl::SkipEmpty());
}

// "N" from a line "... {name: N, ..." (empty when the line has none).
std::string NameIn(absl::string_view line) {
  const size_t at = line.find("name: ");
  if (at == absl::string_view::npos) return "";
  absl::string_view rest = line.substr(at + 6);
  const size_t end = rest.find_first_of(",}");
  return std::string(absl::StripAsciiWhitespace(rest.substr(0, end)));
}

bool Matches(const QueryRoute& route, absl::string_view method,
             const std::vector<std::string>& segments) {
  if (route.method != method || route.segments.size() != segments.size()) return false;
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& s = route.segments[i];
    const bool any = s.size() > 2 && s.front() == '{' && s.back() == '}';
    if (!any && s != segments[i]) return false;
  }
  return true;
}

}  // namespace

std::vector<QueryRoute> QueryRoutesOf(absl::string_view openapi_yaml) {
  std::vector<QueryRoute> routes;
  std::string path, token;
  bool in_token_scheme = false;
  for (absl::string_view line : absl::StrSplit(openapi_yaml, '\n')) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent == absl::string_view::npos) continue;
    absl::string_view text = absl::StripTrailingAsciiWhitespace(line.substr(indent));
    if (indent == 4 && text == "queryToken:") {
      in_token_scheme = true;
      continue;
    }
    if (in_token_scheme) {
      if (indent <= 4) {
        in_token_scheme = false;
      } else if (absl::StartsWith(text, "name: ")) {
        token = NameIn(text);
      }
    }
    if (indent == 2 && absl::StartsWith(text, "/") && absl::EndsWith(text, ":")) {
      path = std::string(absl::StripSuffix(text, ":"));
      continue;
    }
    if (path.empty()) continue;
    if (indent < 2) {
      path.clear();
      continue;
    }
    if (indent == 4 && absl::EndsWith(text, ":") && text != "parameters:") {
      const std::string method = absl::AsciiStrToUpper(absl::StripSuffix(text, ":"));
      routes.push_back(QueryRoute{method, SegmentsOf(path), {}});
      continue;
    }
    if (indent > 4 && !routes.empty() && absl::StartsWith(text, "- {name: ") &&
        absl::StrContains(text, "in: query")) {
      routes.back().params.push_back(NameIn(text));
    }
  }
  if (!token.empty()) {
    for (QueryRoute& r : routes) r.params.push_back(token);
  }
  return routes;
}

absl::Status CheckQueryParams(const std::vector<QueryRoute>& routes,
                              absl::string_view method, absl::string_view path,
                              const std::vector<std::string>& names) {
  const std::vector<std::string> segments = SegmentsOf(path);
  for (const QueryRoute& route : routes) {
    if (!Matches(route, method, segments)) continue;
    for (const std::string& name : names) {
      bool known = false;
      for (const std::string& p : route.params) known = known || p == name;
      if (known) continue;
      return absl::InvalidArgumentError(absl::StrCat(
          events::NoSuchName("query parameter",
                             absl::StrCat("the query parameters ", method, " /",
                                          absl::StrJoin(route.segments, "/"), " takes"),
                             name, route.params),
          "; nothing was written"));
    }
    return absl::OkStatus();
  }
  return absl::OkStatus();
}

const std::vector<QueryRoute>& ServedQueryRoutes() {
  static const std::vector<QueryRoute>* const routes =
      new std::vector<QueryRoute>(QueryRoutesOf(kOpenApiYaml));
  return *routes;
}

}  // namespace combat::server
