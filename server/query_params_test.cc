#include "server/query_params.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace combat::server {
namespace {

const QueryRoute* Find(const std::vector<QueryRoute>& routes, const std::string& method,
                       const std::string& path) {
  for (const QueryRoute& r : routes) {
    std::string p;
    for (const std::string& s : r.segments) p += "/" + s;
    if (r.method == method && (p.empty() ? "/" : p) == path) return &r;
  }
  return nullptr;
}

TEST(QueryParamsTest, TheServedDocumentGivesEachOperationItsQueryParameters) {
  const std::vector<QueryRoute>& routes = ServedQueryRoutes();
  const QueryRoute* create = Find(routes, "POST", "/api/sessions");
  ASSERT_NE(create, nullptr);
  EXPECT_EQ(create->params,
            (std::vector<std::string>{"session", "gm", "seed", "setup_dice", "token"}));
  const QueryRoute* submit =
      Find(routes, "POST", "/api/sessions/{session}/branches/{branch}/commands");
  ASSERT_NE(submit, nullptr);
  EXPECT_EQ(submit->params, (std::vector<std::string>{"expected_seq", "token"}));
  // The stream's header parameter is not a query parameter.
  const QueryRoute* stream =
      Find(routes, "GET", "/api/sessions/{session}/branches/{branch}/stream");
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(stream->params, (std::vector<std::string>{"from", "last_event_id", "token"}));
  const QueryRoute* root = Find(routes, "GET", "/");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->params, (std::vector<std::string>{"token"}));
}

TEST(QueryParamsTest, AParameterTheRouteDoesNotTakeIsRefusedNamingIt) {
  const std::vector<QueryRoute>& routes = ServedQueryRoutes();
  const absl::Status st = CheckQueryParams(
      routes, "POST", "/api/sessions/s1/branches/main/commands", {"expected_sq"});
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "no query parameter 'expected_sq'; did you mean 'expected_seq'? the query "
            "parameters POST /api/sessions/{session}/branches/{branch}/commands takes: "
            "expected_seq, token; nothing was written");
  // Another method of the same path has its own list.
  EXPECT_FALSE(CheckQueryParams(routes, "GET", "/api/sessions", {"setup_dice"}).ok());
}

TEST(QueryParamsTest, KnownParametersAndUnknownRoutesPass) {
  const std::vector<QueryRoute>& routes = ServedQueryRoutes();
  EXPECT_TRUE(CheckQueryParams(routes, "POST", "/api/sessions",
                               {"session", "setup_dice", "token", "session"})
                  .ok());
  EXPECT_TRUE(CheckQueryParams(routes, "GET", "/api/sessions/s1/branches/b2/explain",
                               {"event", "at"})
                  .ok());
  // No route: the router's 404 names it.
  EXPECT_TRUE(CheckQueryParams(routes, "GET", "/api/nowhere", {"x"}).ok());
  EXPECT_TRUE(CheckQueryParams(routes, "GET", "/api/sessions/s1/nothing", {"x"}).ok());
}

TEST(QueryParamsTest, ADocumentsPathsMethodsAndTokenSchemeAreRead) {
  const std::vector<QueryRoute> routes = QueryRoutesOf(R"(components:
  securitySchemes:
    queryToken:
      type: apiKey
      in: query
      name: key
paths:
  /a/{id}:
    parameters: [{$ref: "#/components/parameters/id"}]
    get:
      parameters:
        - {name: x, in: query, schema: {type: integer}}
        - {name: H, in: header}
    delete:
      summary: no parameters
security:
  - queryToken: []
)");
  ASSERT_EQ(routes.size(), 2u);
  EXPECT_EQ(routes[0].method, "GET");
  EXPECT_EQ(routes[0].segments, (std::vector<std::string>{"a", "{id}"}));
  EXPECT_EQ(routes[0].params, (std::vector<std::string>{"x", "key"}));
  EXPECT_EQ(routes[1].method, "DELETE");
  EXPECT_EQ(routes[1].params, (std::vector<std::string>{"key"}));
  EXPECT_TRUE(CheckQueryParams(routes, "GET", "/a/7", {"x", "key"}).ok());
  EXPECT_FALSE(CheckQueryParams(routes, "DELETE", "/a/7", {"x"}).ok());
}

}  // namespace
}  // namespace combat::server
