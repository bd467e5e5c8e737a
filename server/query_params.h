#ifndef COMBAT_SERVER_QUERY_PARAMS_H_
#define COMBAT_SERVER_QUERY_PARAMS_H_

// The query parameters each route takes, read from the served OpenAPI
// document (server/openapi.yaml): one list, the same the API's users read.
// A parameter a route does not take is refused before the route runs, as
// `combat` refuses a flag its verb does not take: a misspelt `expected_seq`
// or `setup_dice` must not pass silently as if it had not been given.

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace combat::server {

// One operation of the document: its method (upper case), its path as
// segments ("{x}" matches any one segment) and its query parameters, the
// query API key's name (`token`) included.
struct QueryRoute {
  std::string method;
  std::vector<std::string> segments;
  std::vector<std::string> params;
};

// Every operation of an OpenAPI document written as server/openapi.yaml
// is: paths at two spaces, methods at four, parameters as flow mappings
// `- {name: N, in: query, ...}`; the path's own `parameters:` line lists
// only path parameters. The `queryToken` security scheme's `name` is
// added to every operation.
std::vector<QueryRoute> QueryRoutesOf(absl::string_view openapi_yaml);

// OK when the route for `method` and `path` takes every name in `names`,
// or when the document has no such route (the router answers 404).
// Otherwise InvalidArgument: "no query parameter 'x'; did you mean 'y'?
// the query parameters METHOD /route takes: ...; nothing was written".
absl::Status CheckQueryParams(const std::vector<QueryRoute>& routes,
                              absl::string_view method, absl::string_view path,
                              const std::vector<std::string>& names);

// The routes of the document this server serves (kOpenApiYaml), read once.
const std::vector<QueryRoute>& ServedQueryRoutes();

}  // namespace combat::server

#endif  // COMBAT_SERVER_QUERY_PARAMS_H_
