// The browser view (web/index.html, web/app.js), compiled in and served at
// / and /app.js: no files are read at run time, so nothing outside them can
// be served. Scripts only from this origin (Content-Security-Policy).
#include "httplib.h"
#include "server/context.h"

namespace combat::server {

extern const char kWebIndexHtml[];
extern const char kWebAppJs[];

namespace {

void Static(httplib::Response& res, const char* body, const char* type) {
  res.set_header("Content-Security-Policy",
                 "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                 "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_content(body, type);
}

}  // namespace

void AddWebRoutes(httplib::Server& http, Context&) {
  http.Get("/", [](const httplib::Request&, httplib::Response& res) {
    Static(res, kWebIndexHtml, "text/html; charset=utf-8");
  });
  http.Get("/app.js", [](const httplib::Request&, httplib::Response& res) {
    Static(res, kWebAppJs, "text/javascript; charset=utf-8");
  });
}

}  // namespace combat::server
