// The live stream of a branch: Server-Sent Events, one `event` per log
// event (id = its seq, data = the log page's item: seq, rendered line,
// event), resumable: a client sending Last-Event-ID: N (browsers do on
// reconnect) gets N+1.. and then the live ones. Each stream holds one
// server thread and reads the log itself; writers only announce heads
// (hub.h), so a slow watcher never holds a writer back.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/render.h"
#include "server/auth.h"
#include "server/context.h"
#include "server/http.h"
#include "server/json_out.h"

namespace combat::server {
namespace {

constexpr char kBranch[] = R"(/api/sessions/([^/]+)/branches/([^/]+))";
constexpr uint64_t kBatch = 256;                           // events per read
constexpr std::chrono::milliseconds kKeepAlive(10000);     // comment when idle

struct Stream {
  std::string session;
  std::string branch;
  uint64_t next = 1;  // the next seq to send
  std::string token_hash;  // the watcher's: the stream ends once revoked
};

// False once the stream's token no longer holds (revoked, or unreadable):
// then the stream says so and ends.
bool StillAdmitted(Context& ctx, const Stream& s, httplib::DataSink& sink) {
  auto p = ctx.participants.Find(s.session, s.token_hash);
  if (p.ok() && p->has_value()) return true;
  const std::string frame = absl::StrCat(
      "event: revoked\ndata: ",
      ErrorJson(p.ok() ? absl::UnauthenticatedError("the token was revoked; the stream ends")
                       : p.status()),
      "\n\n");
  sink.write(frame.data(), frame.size());
  sink.done();
  return false;
}

// Where a stream starts: after Last-Event-ID (header, or ?last_event_id=),
// else at ?from= (default 1: the whole log).
absl::StatusOr<uint64_t> StartAt(const httplib::Request& req) {
  std::string last = req.get_header_value("Last-Event-ID");
  if (last.empty()) last = Param(req, "last_event_id");
  if (!last.empty()) {
    uint64_t n = 0;
    if (!absl::SimpleAtoi(last, &n)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Last-Event-ID ('", last.substr(0, 40), "'): the seq of the last event seen"));
    }
    return n + 1;
  }
  ASSIGN_OR_RETURN(uint64_t from, NumberParam(req, "from", 1));
  return from == 0 ? 1 : from;
}

// Sends what the branch has from `s.next` on (one batch); false when the
// client is gone or the log cannot be read (the stream ends).
bool SendBatch(Context& ctx, Stream& s, httplib::DataSink& sink, bool* sent) {
  *sent = false;
  auto head = ctx.engine->log().GetHead(s.session, s.branch);
  if (!head.ok()) return false;
  if (s.next > head->seq) return true;
  const uint64_t to = std::min(head->seq, s.next + kBatch - 1);
  auto evs = ctx.engine->Events(s.session, s.branch, s.next, to);
  if (!evs.ok()) {
    const std::string frame =
        absl::StrCat("event: error\ndata: ", ErrorJson(evs.status()), "\n\n");
    sink.write(frame.data(), frame.size());
    return false;
  }
  for (const events::EventBuffer& e : *evs) {
    auto item = EventItemJson(e, replay::RenderEvent(e.event()));
    if (!item.ok()) return false;
    const uint64_t seq = e.event().seq();
    const std::string frame = absl::StrCat("id: ", seq, "\nevent: event\ndata: ", *item, "\n\n");
    if (!sink.write(frame.data(), frame.size())) return false;
    s.next = seq + 1;
    *sent = true;
  }
  return true;
}

void Watch(Context& ctx, const httplib::Request& req, httplib::Response& res,
           const std::string& session, const std::string& branch) {
  auto p = Admit(ctx, req, session, branch);
  if (!p.ok()) return ReplyError(res, p.status());
  auto start = StartAt(req);
  if (!start.ok()) return ReplyError(res, start.status());
  if (!ctx.hub.TakeWatcher()) {
    return ReplyError(res, absl::UnavailableError(
                               "too many open streams (the rest of the server's threads "
                               "serve writers); try again later"));
  }
  // An event stream must not be compressed: the library would buffer it
  // (it compresses text/* when the client accepts it). The request is the
  // library's own mutable object; only this header is dropped.
  const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
  auto s = std::make_shared<Stream>();
  s->session = session;
  s->branch = branch;
  s->next = *start;
  s->token_hash = TokenHash(TokenOf(req));
  res.set_header("Cache-Control", "no-cache");
  res.set_header("X-Accel-Buffering", "no");
  res.set_chunked_content_provider(
      "text/event-stream",
      [&ctx, s, first = std::make_shared<bool>(true)](size_t, httplib::DataSink& sink) {
        if (*first) {
          *first = false;
          const std::string hello = absl::StrCat("retry: 2000\n: session ", s->session,
                                                 " branch ", s->branch, " from ",
                                                 s->next, "\n\n");
          if (!sink.write(hello.data(), hello.size())) return false;
        }
        bool sent = false;
        if (!StillAdmitted(ctx, *s, sink)) return true;
        if (!SendBatch(ctx, *s, sink, &sent)) return false;
        if (sent) return true;
        if (!ctx.hub.WaitPast(s->session, s->branch, s->next - 1, kKeepAlive)) {
          sink.done();  // the server is stopping
          return true;
        }
        if (!StillAdmitted(ctx, *s, sink)) return true;
        if (!SendBatch(ctx, *s, sink, &sent)) return false;
        if (!sent) {
          static constexpr char kPing[] = ": keep-alive\n\n";
          if (!sink.write(kPing, sizeof(kPing) - 1)) return false;
        }
        return true;
      },
      [&ctx](bool) { ctx.hub.ReleaseWatcher(); });
}

}  // namespace

void AddStreamRoutes(httplib::Server& http, Context& ctx) {
  http.Get(absl::StrCat(kBranch, "/stream"),
           [&ctx](const httplib::Request& req, httplib::Response& res) {
             Watch(ctx, req, res, req.matches[1], req.matches[2]);
           });
}

}  // namespace combat::server
