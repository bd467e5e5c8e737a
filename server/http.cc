#include "server/http.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "server/json_out.h"

namespace combat::server {

int HttpStatusFor(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kAlreadyExists:
      return 409;
    case absl::StatusCode::kResourceExhausted:
      return 413;
    case absl::StatusCode::kFailedPrecondition:
      return 422;
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

std::string ErrorJson(const absl::Status& status, const std::string& extra) {
  const std::string error = JsonObject()
                                .Int("status", HttpStatusFor(status.code()))
                                .Str("code", absl::StatusCodeToString(status.code()))
                                .Str("message", status.message())
                                .Done();
  return absl::StrCat("{\"error\":", error, extra, "}");
}

void ReplyJson(httplib::Response& res, int code, const std::string& json) {
  res.status = code;
  res.set_content(json + "\n", "application/json");
}

void ReplyError(httplib::Response& res, const absl::Status& status,
                const std::string& extra) {
  ReplyJson(res, HttpStatusFor(status.code()), ErrorJson(status, extra));
}

void Answer(httplib::Response& res, const absl::StatusOr<std::string>& body, int code) {
  if (!body.ok()) return ReplyError(res, body.status());
  ReplyJson(res, code, *body);
}

std::string Param(const httplib::Request& req, const std::string& name,
                  const std::string& fallback) {
  return req.has_param(name.c_str()) ? req.get_param_value(name.c_str()) : fallback;
}

absl::StatusOr<std::string> RequiredParam(const httplib::Request& req,
                                          const std::string& name) {
  std::string v = Param(req, name);
  if (v.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("query parameter '", name, "' is required"));
  }
  return v;
}

absl::StatusOr<uint64_t> NumberParam(const httplib::Request& req,
                                     const std::string& name, uint64_t fallback) {
  if (!req.has_param(name.c_str())) return fallback;
  const std::string v = req.get_param_value(name.c_str());
  uint64_t n = 0;
  if (!absl::SimpleAtoi(v, &n)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "query parameter '", name, "' ('", v.substr(0, 40), "'): a number >= 0"));
  }
  return n;
}

bool FlagParam(const httplib::Request& req, const std::string& name) {
  if (!req.has_param(name.c_str())) return false;
  const std::string v = req.get_param_value(name.c_str());
  return v != "0" && v != "false";
}

absl::Status CheckBodySize(const httplib::Request& req, size_t limit,
                           const std::string& what) {
  if (req.body.size() <= limit) return absl::OkStatus();
  return absl::ResourceExhaustedError(absl::StrCat(
      what, ": the body is ", req.body.size(), " bytes; the limit is ", limit,
      " bytes; nothing was written"));
}

}  // namespace combat::server
