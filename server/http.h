// How the server answers: absl::Status codes as HTTP statuses, errors as a
// JSON body, and the query parameters routes read.
//
//   InvalidArgument, OutOfRange  400   Unauthenticated     401
//   PermissionDenied             403   NotFound            404
//   Aborted, AlreadyExists       409   ResourceExhausted   413
//   FailedPrecondition           422 (the rules refuse: an illegal act)
//   Unavailable                  503   DataLoss, others    500
//
// An error body: {"error":{"status":409,"code":"ABORTED","message":"..."}},
// plus route-specific fields (a stale writer's "head").
#ifndef COMBAT_SERVER_HTTP_H_
#define COMBAT_SERVER_HTTP_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "httplib.h"

namespace combat::server {

int HttpStatusFor(absl::StatusCode code);

// The error body for `status` (not OK), with `extra` (",\"head\":{...}" or
// "") appended inside the outer object.
std::string ErrorJson(const absl::Status& status, const std::string& extra = "");

// Sets `res` to `json` (application/json) with HTTP `code`.
void ReplyJson(httplib::Response& res, int code, const std::string& json);
// Sets `res` to the error for `status` (not OK).
void ReplyError(httplib::Response& res, const absl::Status& status,
                const std::string& extra = "");

// Replies `body` (JSON) with `code`, or the error `body` holds.
void Answer(httplib::Response& res, const absl::StatusOr<std::string>& body, int code);

// The query parameter `name`, or `fallback` when absent.
std::string Param(const httplib::Request& req, const std::string& name,
                  const std::string& fallback = "");
// A required query parameter: InvalidArgument naming it when absent or empty.
absl::StatusOr<std::string> RequiredParam(const httplib::Request& req,
                                          const std::string& name);
// A non-negative integer query parameter; `fallback` when absent;
// InvalidArgument naming it when not a number.
absl::StatusOr<uint64_t> NumberParam(const httplib::Request& req,
                                     const std::string& name, uint64_t fallback = 0);
// A flag parameter: present and not "0"/"false".
bool FlagParam(const httplib::Request& req, const std::string& name);

// ResourceExhausted (413) when the body is longer than `limit` bytes,
// naming `what` and the limit.
absl::Status CheckBodySize(const httplib::Request& req, size_t limit,
                           const std::string& what);

}  // namespace combat::server

#endif  // COMBAT_SERVER_HTTP_H_
