// The table server against a real RocksDB database and a real HTTP server
// on loopback (port 0), driven by httplib's client: create, submit, stale
// writer, retry, roles (401/403), 404, 400, 413, the stream resumed from
// Last-Event-ID, and the read routes a browser draws from.
#include "server/server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "httplib.h"
#include "replay/engine.h"
#include "server/auth.h"
#include "store/participants.h"

namespace combat::server {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The "roster" object of an example script.
std::string ExampleRoster() {
  const std::string script = ReadText("replay/examples/d20_ambush.json");
  size_t at = script.find("\"roster\"");
  at = script.find('{', at);
  int depth = 0;
  for (size_t i = at; i < script.size(); ++i) {
    if (script[i] == '{') ++depth;
    if (script[i] == '}' && --depth == 0) return script.substr(at, i - at + 1);
  }
  return "";
}

// (No std::regex here: GCC 12 warns inside it under the sanitizers' -O1.)
// The string value of the first `"key":"..."` in `json` ("" when none).
std::string Str(const std::string& json, const std::string& key) {
  const std::string open = "\"" + key + "\":\"";
  const size_t at = json.find(open);
  if (at == std::string::npos) return "";
  const size_t from = at + open.size();
  return json.substr(from, json.find('"', from) - from);
}

// The number after the first `prefix` in `text` (0 when none).
uint64_t NumAfter(const std::string& text, const std::string& prefix) {
  const size_t at = text.find(prefix);
  if (at == std::string::npos) return 0;
  uint64_t n = 0;
  for (size_t i = at + prefix.size(); i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    n = n * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  return n;
}

// The seq of an SSE frame's `id:` line ("" when it has none).
std::string FrameId(const std::string& frame) {
  const size_t at = frame.rfind("id: ", 0) == 0 ? 0 : frame.find("\nid: ");
  if (at == std::string::npos) return "";
  const size_t from = frame.find("id: ", at) + 4;
  size_t end = from;
  while (end < frame.size() && frame[end] >= '0' && frame[end] <= '9') ++end;
  return frame.substr(from, end - from);
}

// The text between `"events":` and `,"duplicate"`.
std::string EventsOf(const std::string& json) {
  const size_t from = json.find("\"events\":");
  const size_t to = json.find(",\"duplicate\"");
  return from == std::string::npos || to == std::string::npos ? "" : json.substr(from, to - from);
}

uint64_t HeadSeq(const std::string& json) { return NumAfter(json, "\"head\":{\"seq\":"); }

std::string Note(const std::string& id, const std::string& text = "a ruling") {
  return R"({"id":")" + id +
         R"(","action":"gm_note","params":[{"key":"kind","text":"ruling"}],"text":")" +
         text + R"("})";
}

constexpr char kSeed[] = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
// The operator's token of every test server (Boot records its hash).
constexpr char kOperator[] = "0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e";

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Boot(&server_, ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }

  void Boot(std::unique_ptr<TableServer>* server, const std::string& name) {
    const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/" + name;
    auto engine = replay::Engine::Open(dir);
    ASSERT_TRUE(engine.ok()) << engine.status();
    {
      store::ParticipantTable table((*engine)->log());
      ASSERT_TRUE(table.AddOperator("op", TokenHash(kOperator)).ok());
    }
    ServeOptions o;
    o.threads = 16;
    o.max_watchers = 4;
    auto s = TableServer::Start(std::move(*engine), o);
    ASSERT_TRUE(s.ok()) << s.status();
    *server = std::move(*s);
  }

  httplib::Client Client() const {
    httplib::Client c("127.0.0.1", server_->port());
    c.set_read_timeout(20, 0);
    return c;
  }

  static httplib::Headers Bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
  }

  // Creates session `s` (seeded); returns the GM's token.
  std::string Create(const std::string& s) {
    auto r = Client().Post(("/api/sessions?session=" + s + "&seed=" + kSeed).c_str(),
                           Bearer(kOperator), ExampleRoster(), "application/json");
    EXPECT_TRUE(r);
    if (!r) return "";
    EXPECT_EQ(r->status, 201) << r->body;
    return Str(r->body, "token");
  }

  std::string Add(const std::string& s, const std::string& gm, const std::string& role,
                  const std::string& name) {
    auto r = Client().Post(
        ("/api/sessions/" + s + "/participants?role=" + role + "&name=" + name).c_str(),
        Bearer(gm), "", "application/json");
    EXPECT_TRUE(r);
    if (!r) return "";
    EXPECT_EQ(r->status, 201) << r->body;
    return Str(r->body, "token");
  }

  uint64_t Head(const std::string& s, const std::string& token,
                const std::string& branch = "main") {
    auto r = Client().Get(("/api/sessions/" + s + "/branches/" + branch + "/head").c_str(),
                          Bearer(token));
    EXPECT_TRUE(r);
    if (!r) return 0;
    EXPECT_EQ(r->status, 200) << r->body;
    return NumAfter(r->body, "\"seq\":");
  }

  httplib::Result Submit(const std::string& s, const std::string& token, uint64_t expected,
                         const std::string& body, const std::string& branch = "main") {
    return Client().Post(("/api/sessions/" + s + "/branches/" + branch +
                          "/commands?expected_seq=" + std::to_string(expected))
                             .c_str(),
                         Bearer(token), body, "application/json");
  }

  std::unique_ptr<TableServer> server_;
};

TEST_F(ServerTest, CreateListsTheSessionAndGivesTheGmATokenOnce) {
  const std::string gm = Create("s1");
  ASSERT_EQ(gm.size(), 64u);
  auto list = Client().Get("/api/sessions");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200);
  EXPECT_NE(list->body.find(R"("session":"s1")"), std::string::npos) << list->body;
  EXPECT_EQ(list->body.find(gm), std::string::npos);  // tokens are never listed
  auto me = Client().Get("/api/sessions/s1/me", Bearer(gm));
  ASSERT_TRUE(me);
  EXPECT_NE(me->body.find(R"("role":"gm")"), std::string::npos) << me->body;
  // Again: 409, nothing changed.
  auto again = Client().Post("/api/sessions?session=s1", Bearer(kOperator), ExampleRoster(),
                             "application/json");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 409) << again->body;
  auto spec = Client().Get("/openapi.yaml");
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->status, 200);
  EXPECT_NE(spec->body.find("openapi: 3"), std::string::npos);
  // The browser view, compiled in; scripts only from this origin.
  auto page = Client().Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find(R"(<script src="/app.js">)"), std::string::npos);
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("script-src 'self'"),
            std::string::npos);
  auto script = Client().Get("/app.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_NE(script->body.find("EventSource"), std::string::npos);
  // Nothing else is served as a file.
  auto outside = Client().Get("/../BUILD.bazel");
  ASSERT_TRUE(outside);
  EXPECT_EQ(outside->status, 404);
}

// energy_rounds: kara comes in at 0 Stamina and rolls 1d20 to wake when
// Round 1 begins (l.72): a set-up with one physical die to give.
constexpr char kSleeper[] = R"({"ruleset": "energy_rounds", "map": {"width": 8, "height": 8},
    "combatants": [{"id": "kara", "side": "party", "at": {"x": 1, "y": 1},
                    "stats": [{"key": "stamina", "value": 0}]},
                   {"id": "orc", "side": "orcs", "at": {"x": 5, "y": 5}}]})";

// `setup_dice`, as `combat new --setup-dice`: seed 002 l.72, l.657: a
// creature the roster brings in at 0 Stamina rolls 1d20 to wake when Round
// 1 begins; the table gives that die. A bad list is a 400 naming the
// parameter and the die, and nothing is created.
TEST_F(ServerTest, CreateTakesTheSetUpsPhysicalDice) {
  auto bad = Client().Post("/api/sessions?session=s2&setup_dice=20,x", Bearer(kOperator), kSleeper,
                           "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400) << bad->body;
  EXPECT_NE(bad->body.find("query parameter 'setup_dice': die 2 'x' is not a whole number"), std::string::npos)
      << bad->body;
  auto extra = Client().Post("/api/sessions?session=s2&setup_dice=20,7", Bearer(kOperator), kSleeper,
                             "application/json");
  ASSERT_TRUE(extra);
  EXPECT_EQ(extra->status, 400) << extra->body;
  auto list = Client().Get("/api/sessions");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->body.find(R"("session":"s2")"), std::string::npos) << list->body;
  auto made = Client().Post("/api/sessions?session=s2&setup_dice=20", Bearer(kOperator), kSleeper,
                            "application/json");
  ASSERT_TRUE(made);
  EXPECT_EQ(made->status, 201) << made->body;
  const std::string gm = Str(made->body, "token");
  auto state = Client().Get("/api/sessions/s2/branches/main/state", Bearer(gm));
  ASSERT_TRUE(state);
  EXPECT_EQ(state->status, 200) << state->body;
  EXPECT_EQ(state->body.find("Unconscious"), std::string::npos) << "the 20 woke kara: " << state->body;
}

TEST_F(ServerTest, AQueryParameterTheRouteDoesNotTakeIsRefused) {
  // Misspelt, the set-up dice would have passed silently: a session made
  // with no set-up dice.
  auto typo = Client().Post("/api/sessions?session=s3&setup_die=20", Bearer(kOperator), kSleeper,
                            "application/json");
  ASSERT_TRUE(typo);
  EXPECT_EQ(typo->status, 400) << typo->body;
  EXPECT_NE(typo->body.find("no query parameter 'setup_die'; did you mean 'setup_dice'?"),
            std::string::npos)
      << typo->body;
  auto list = Client().Get("/api/sessions");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->body.find(R"("session":"s3")"), std::string::npos) << list->body;
  const std::string gm = Create("s1");
  auto state = Client().Get("/api/sessions/s1/branches/main/state?at=0&token=" + gm);
  ASSERT_TRUE(state);
  EXPECT_EQ(state->status, 200) << state->body;
  auto stray = Client().Get("/api/sessions/s1/branches/main/state?seq=3", Bearer(gm));
  ASSERT_TRUE(stray);
  EXPECT_EQ(stray->status, 400) << stray->body;
}

TEST_F(ServerTest, SubmitStaleWriterAndRetry) {
  const std::string gm = Create("s1");
  const uint64_t h0 = Head("s1", gm);
  auto first = Submit("s1", gm, h0, Note("n1"));
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 201) << first->body;
  const uint64_t h1 = HeadSeq(first->body);
  EXPECT_GT(h1, h0);
  EXPECT_NE(first->body.find(R"("duplicate":false)"), std::string::npos);
  // The GM's events carry the token's name and role.
  EXPECT_NE(first->body.find(R"("author":"gm")"), std::string::npos) << first->body;

  // A stale writer: 409 with the current head, nothing written.
  auto stale = Submit("s1", gm, h0, Note("n2"));
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 409) << stale->body;
  EXPECT_EQ(HeadSeq(stale->body), h1) << stale->body;
  EXPECT_NE(stale->body.find("expected head seq"), std::string::npos);
  EXPECT_EQ(Head("s1", gm), h1);

  // A retry of n1 (even with its old expected seq) is applied once and
  // returns the same events.
  auto retry = Submit("s1", gm, h0, Note("n1"));
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->status, 200) << retry->body;
  EXPECT_NE(retry->body.find(R"("duplicate":true)"), std::string::npos);
  EXPECT_FALSE(EventsOf(first->body).empty());
  EXPECT_EQ(EventsOf(retry->body), EventsOf(first->body));
  EXPECT_EQ(Head("s1", gm), h1);
  // The same id with another content: 409, nothing written.
  auto clash = Submit("s1", gm, h1, Note("n1", "something else"));
  ASSERT_TRUE(clash);
  EXPECT_EQ(clash->status, 409) << clash->body;
  EXPECT_EQ(Head("s1", gm), h1);
}

TEST_F(ServerTest, NoTokenOrABadTokenIs401AndWritesNothing) {
  const std::string gm = Create("s1");
  const std::string other = Create("s2");
  const uint64_t h = Head("s1", gm);
  auto none = Client().Post("/api/sessions/s1/branches/main/commands?expected_seq=" +
                                std::to_string(h),
                            Note("x"), "application/json");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 401) << none->body;
  auto bad = Submit("s1", std::string(64, 'a'), h, Note("x"));
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 401) << bad->body;
  auto wrong_session = Submit("s1", other, h, Note("x"));
  ASSERT_TRUE(wrong_session);
  EXPECT_EQ(wrong_session->status, 401) << wrong_session->body;
  auto read = Client().Get("/api/sessions/s1/branches/main/state");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->status, 401);
  EXPECT_EQ(Head("s1", gm), h);
}

TEST_F(ServerTest, RolesHold403) {
  const std::string gm = Create("s1");
  const std::string ann = Add("s1", gm, "player", "ann");  // plays aria
  const std::string eve = Add("s1", gm, "observer", "eve");
  ASSERT_EQ(ann.size(), 64u);
  const uint64_t h = Head("s1", gm);
  // A player commands another's combatant (bo is ben's; gob is the GM's).
  for (const char* actor : {"bo", "gob"}) {
    auto r = Submit("s1", ann, h,
                    std::string(R"({"id":"p1","action":"end_turn","actor":")") + actor +
                        R"(","author":"ben","role":"GM"})");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 403) << actor << ": " << r->body;
  }
  // A player asks a GM verb.
  auto gm_verb = Submit("s1", ann, h, Note("p2"));
  ASSERT_TRUE(gm_verb);
  EXPECT_EQ(gm_verb->status, 403) << gm_verb->body;
  // An observer submits.
  auto obs = Submit("s1", eve, h, R"({"id":"o1","action":"end_turn","actor":"aria"})");
  ASSERT_TRUE(obs);
  EXPECT_EQ(obs->status, 403) << obs->body;
  // GM-only routes.
  auto undo = Client().Post("/api/sessions/s1/branches/main/undo?reason=x", Bearer(ann), "",
                            "application/json");
  ASSERT_TRUE(undo);
  EXPECT_EQ(undo->status, 403) << undo->body;
  auto add = Client().Post("/api/sessions/s1/participants?role=observer&name=zed",
                           Bearer(ann), "", "application/json");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->status, 403) << add->body;
  auto fork = Client().Post("/api/sessions/s1/branches?name=alt&reason=x", Bearer(eve), "",
                            "application/json");
  ASSERT_TRUE(fork);
  EXPECT_EQ(fork->status, 403) << fork->body;
  auto secret = Client().Get("/api/sessions/s1/export?with_secret=1", Bearer(ann));
  ASSERT_TRUE(secret);
  EXPECT_EQ(secret->status, 403) << secret->body;
  auto whatif = Client().Post("/api/sessions/s1/whatif?name=w&reason=x", Bearer(ann), "",
                              "application/json");
  ASSERT_TRUE(whatif);
  EXPECT_EQ(whatif->status, 403) << whatif->body;
  auto me = Client().Get("/api/sessions/s1/me", Bearer(ann));
  ASSERT_TRUE(me);
  EXPECT_NE(me->body.find(R"("name":"ann","role":"player","plays":["aria"])"), std::string::npos)
      << me->body;
  EXPECT_EQ(Head("s1", gm), h);
  // Observers read.
  auto status = Client().Get("/api/sessions/s1/branches/main/status?for=aria", Bearer(eve));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->status, 200) << status->body;
  // A player must be one of the roster's.
  auto stranger = Client().Post("/api/sessions/s1/participants?role=player&name=zed",
                                Bearer(gm), "", "application/json");
  ASSERT_TRUE(stranger);
  EXPECT_EQ(stranger->status, 400) << stranger->body;
}

TEST_F(ServerTest, APlayersCommandIsRecordedWithTheTokensAuthorAndRole) {
  const std::string gm = Create("s1");
  auto st = Client().Get("/api/sessions/s1/branches/main/status", Bearer(gm));
  ASSERT_TRUE(st);
  const std::string active = Str(st->body, "active");
  ASSERT_FALSE(active.empty()) << st->body;
  const std::string player = active == "aria" ? "ann" : active == "bo" ? "ben" : "";
  const std::string token = player.empty() ? gm : Add("s1", gm, "player", player);
  const uint64_t h = Head("s1", gm);
  // The body claims another author and the GM's role: the token decides.
  auto r = Submit("s1", token, h,
                  R"({"id":"t1","action":"end_turn","actor":")" + active +
                      R"(","author":"mallory","role":"GM"})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 201) << r->body;
  EXPECT_EQ(r->body.find("mallory"), std::string::npos) << r->body;
  const std::string who = player.empty() ? "gm" : player;
  EXPECT_NE(r->body.find(R"("author":")" + who + R"(")"), std::string::npos) << r->body;
  if (!player.empty()) {
    EXPECT_NE(r->body.find(R"("role":"Player")"), std::string::npos) << r->body;
  }
}

TEST_F(ServerTest, UnknownNames404MalformedJson400BigBodies413) {
  const std::string gm = Create("ambush");
  const uint64_t h = Head("ambush", gm);
  auto session = Client().Get("/api/sessions/amush/branches/main/head", Bearer(gm));
  ASSERT_TRUE(session);
  EXPECT_EQ(session->status, 404);
  EXPECT_NE(session->body.find("did you mean 'ambush'"), std::string::npos) << session->body;
  auto branch = Client().Get("/api/sessions/ambush/branches/mian/head", Bearer(gm));
  ASSERT_TRUE(branch);
  EXPECT_EQ(branch->status, 404);
  EXPECT_NE(branch->body.find("did you mean 'main'"), std::string::npos) << branch->body;
  // Malformed: the field is named.
  auto bogus = Submit("ambush", gm, h, R"({"id":"b1","action":"end_turn","bogus":1})");
  ASSERT_TRUE(bogus);
  EXPECT_EQ(bogus->status, 400);
  EXPECT_NE(bogus->body.find("bogus"), std::string::npos) << bogus->body;
  auto enum_value = Submit("ambush", gm, h, R"({"id":"b2","action":"end_turn","role":"Boss"})");
  ASSERT_TRUE(enum_value);
  EXPECT_EQ(enum_value->status, 400);
  EXPECT_NE(enum_value->body.find("field 'role' takes one of"), std::string::npos)
      << enum_value->body;
  auto no_seq = Client().Post("/api/sessions/ambush/branches/main/commands", Bearer(gm),
                              Note("b3"), "application/json");
  ASSERT_TRUE(no_seq);
  EXPECT_EQ(no_seq->status, 400);
  EXPECT_NE(no_seq->body.find("expected_seq"), std::string::npos) << no_seq->body;
  // Over the command limit (64 KiB).
  auto big = Submit("ambush", gm, h, Note("b4", std::string(100 << 10, 'x')));
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413) << big->body.substr(0, 200);
  EXPECT_EQ(Head("ambush", gm), h);
}

// Reads the stream until an event with id `until` arrives; returns the ids
// seen. `live` (may be empty) runs once the stream is open.
std::vector<uint64_t> Watch(httplib::Client& c, const std::string& path,
                            const httplib::Headers& headers, uint64_t until,
                            std::function<void()> live) {
  std::vector<uint64_t> ids;
  std::string buffer;
  bool started = false;
  std::thread writer;
  c.Get(path.c_str(), headers, [&](const char* data, size_t n) {
    buffer.append(data, n);
    if (!started && live) {
      started = true;
      writer = std::thread(live);
    }
    size_t end;
    while ((end = buffer.find("\n\n")) != std::string::npos) {
      const std::string frame = buffer.substr(0, end);
      buffer.erase(0, end + 2);
      const std::string id = FrameId(frame);
      if (!id.empty()) ids.push_back(std::stoull(id));
      if (!id.empty() && std::stoull(id) >= until) return false;
    }
    return true;
  });
  if (writer.joinable()) writer.join();
  return ids;
}

TEST_F(ServerTest, StreamResumesAfterLastEventIdThenGoesLive) {
  const std::string gm = Create("s1");
  uint64_t h = Head("s1", gm);
  for (const char* id : {"a1", "a2"}) {
    auto r = Submit("s1", gm, h, Note(id));
    ASSERT_TRUE(r && r->status == 201);
    h = HeadSeq(r->body);
  }
  const uint64_t seen = h - 1;  // the client saw all but the last event
  httplib::Client c = Client();
  httplib::Headers headers = Bearer(gm);
  headers.emplace("Last-Event-ID", std::to_string(seen));
  std::atomic<uint64_t> live_head{0};
  const std::vector<uint64_t> ids =
      Watch(c, "/api/sessions/s1/branches/main/stream", headers, h + 1, [&] {
        auto r = Submit("s1", gm, h, Note("a3"));
        if (r && r->status == 201) live_head = HeadSeq(r->body);
      });
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), seen + 1);  // nothing before what was asked
  for (size_t i = 1; i < ids.size(); ++i) EXPECT_EQ(ids[i], ids[i - 1] + 1);
  EXPECT_EQ(ids.back(), h + 1);  // the live command's first event arrived
  EXPECT_GT(live_head.load(), h);
  // ?token= serves clients that cannot set headers (EventSource).
  httplib::Client c2 = Client();
  const std::vector<uint64_t> all =
      Watch(c2, "/api/sessions/s1/branches/main/stream?from=1&token=" + gm, {}, 2, nullptr);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), 1u);
}

TEST_F(ServerTest, ReadRoutesForkWhatIfDiffVerifyExportImport) {
  const std::string gm = Create("s1");
  uint64_t h = Head("s1", gm);
  auto note = Submit("s1", gm, h, Note("n1"));
  ASSERT_TRUE(note && note->status == 201);
  h = HeadSeq(note->body);
  auto c = Client();
  auto page = c.Get("/api/sessions/s1/branches/main/events?from=1&limit=2", Bearer(gm));
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200) << page->body;
  EXPECT_NE(page->body.find(R"("next":3)"), std::string::npos) << page->body;
  auto ranged = c.Get("/api/sessions/s1/branches/main/events?from=2&to=3", Bearer(gm));
  ASSERT_TRUE(ranged);
  EXPECT_NE(ranged->body.find(R"("seq":3,"line")"), std::string::npos) << ranged->body;
  EXPECT_EQ(ranged->body.find(R"("seq":4,"line")"), std::string::npos) << ranged->body;
  EXPECT_NE(ranged->body.find(R"("next":null)"), std::string::npos) << ranged->body;
  EXPECT_NE(page->body.find(R"("line":")"), std::string::npos);
  auto state = c.Get("/api/sessions/s1/branches/main/state?at=1", Bearer(gm));
  ASSERT_TRUE(state);
  EXPECT_EQ(state->status, 200) << state->body;
  EXPECT_NE(state->body.find("combatant_view"), std::string::npos);
  auto far = c.Get("/api/sessions/s1/branches/main/state?at=9999", Bearer(gm));
  ASSERT_TRUE(far);
  EXPECT_EQ(far->status, 400) << far->body;
  auto explain = c.Get("/api/sessions/s1/branches/main/explain?event=" + std::to_string(h),
                       Bearer(gm));
  ASSERT_TRUE(explain);
  EXPECT_EQ(explain->status, 200) << explain->body;
  auto fork = c.Post("/api/sessions/s1/branches?name=alt&at=" + std::to_string(h - 1) +
                         "&reason=what%20if",
                     Bearer(gm), "", "application/json");
  ASSERT_TRUE(fork);
  EXPECT_EQ(fork->status, 201) << fork->body;
  auto branches = c.Get("/api/sessions/s1/branches", Bearer(gm));
  ASSERT_TRUE(branches);
  EXPECT_NE(branches->body.find(R"("branch":"alt")"), std::string::npos) << branches->body;
  auto whatif = c.Post("/api/sessions/s1/whatif?name=alt2&reason=drop%20it&change=drop&seq=" +
                           std::to_string(h),
                       Bearer(gm), "", "application/json");
  ASSERT_TRUE(whatif);
  EXPECT_EQ(whatif->status, 201) << whatif->body;
  auto diff = c.Get("/api/sessions/s1/diff?a=main&b=alt", Bearer(gm));
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->status, 200) << diff->body;
  EXPECT_NE(diff->body.find(R"("shared":)"), std::string::npos);
  auto verify = c.Get("/api/sessions/s1/verify", Bearer(gm));
  ASSERT_TRUE(verify);
  EXPECT_EQ(verify->status, 200) << verify->body;
  EXPECT_NE(verify->body.find(R"("ok":true)"), std::string::npos) << verify->body;
  auto heads = c.Get("/api/sessions/s1/heads", Bearer(gm));
  ASSERT_TRUE(heads);
  EXPECT_EQ(heads->status, 200) << heads->body;
  auto undo = c.Post("/api/sessions/s1/branches/main/undo?reason=oops", Bearer(gm), "",
                     "application/json");
  ASSERT_TRUE(undo);
  EXPECT_EQ(undo->status, 201) << undo->body;
  // Export, then import into another server's database: a new GM token.
  auto bundle = c.Get("/api/sessions/s1/export", Bearer(gm));
  ASSERT_TRUE(bundle);
  ASSERT_EQ(bundle->status, 200) << bundle->body;
  // Importing is the operator's: no token, or a GM's, is 401.
  auto anonymous = c.Post("/api/import", bundle->body, "application/octet-stream");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 401) << anonymous->body;
  auto as_gm = c.Post("/api/import", Bearer(gm), bundle->body, "application/octet-stream");
  ASSERT_TRUE(as_gm);
  EXPECT_EQ(as_gm->status, 401) << as_gm->body;
  auto again = c.Post("/api/import", Bearer(kOperator), bundle->body, "application/octet-stream");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 409) << again->body;  // s1 exists here
  std::unique_ptr<TableServer> other;
  Boot(&other, "other_db");
  httplib::Client oc("127.0.0.1", other->port());
  auto imported =
      oc.Post("/api/import", Bearer(kOperator), bundle->body, "application/octet-stream");
  ASSERT_TRUE(imported);
  EXPECT_EQ(imported->status, 201) << imported->body;
  const std::string gm2 = Str(imported->body, "token");
  // A bundle altered anywhere is refused whole (400 undecodable, 422 does
  // not verify), nothing written.
  std::unique_ptr<TableServer> third;
  Boot(&third, "third_db");
  httplib::Client tc("127.0.0.1", third->port());
  for (size_t at : {bundle->body.size() / 3, bundle->body.size() / 2, bundle->body.size() - 40}) {
    std::string altered = bundle->body;
    altered[at] = static_cast<char>(altered[at] ^ 0x01);
    auto refused = tc.Post("/api/import", Bearer(kOperator), altered, "application/octet-stream");
    ASSERT_TRUE(refused);
    EXPECT_TRUE(refused->status == 400 || refused->status == 422)
        << at << ": " << refused->status << " " << refused->body;
  }
  auto none = tc.Get("/api/sessions");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->body.find("\"s1\""), std::string::npos) << none->body;
  third->Stop();
  auto head2 = oc.Get("/api/sessions/s1/branches/main/head", Bearer(gm2));
  ASSERT_TRUE(head2);
  EXPECT_EQ(head2->status, 200) << head2->body;
  other->Stop();
}

// Many writers at once on one head: exactly one is applied, the others are
// stale (409 with the head); many retries of one id at once: applied once.
TEST_F(ServerTest, ConcurrentWritersOneWinsRetriesApplyOnce) {
  const std::string gm = Create("s1");
  const uint64_t h = Head("s1", gm);
  constexpr int kWriters = 8;
  std::atomic<int> created{0}, stale{0}, duplicate{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      auto r = Submit("s1", gm, h, Note("w" + std::to_string(i)));
      if (!r) return (void)++other;
      if (r->status == 201) ++created;
      else if (r->status == 409) ++stale;
      else ++other;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(created.load(), 1);
  EXPECT_EQ(stale.load(), kWriters - 1);
  EXPECT_EQ(other.load(), 0);
  const uint64_t h1 = Head("s1", gm);
  threads.clear();
  created = 0;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&] {
      auto r = Submit("s1", gm, h1, Note("same"));
      if (!r) return (void)++other;
      if (r->status == 201) ++created;
      else if (r->status == 200) ++duplicate;
      else ++other;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(created.load(), 1);
  EXPECT_EQ(duplicate.load(), kWriters - 1);
  EXPECT_EQ(other.load(), 0);
  auto page = Client().Get("/api/sessions/s1/branches/main/events?from=1&limit=1000",
                           Bearer(gm));
  ASSERT_TRUE(page);
  size_t applied = 0;
  for (size_t at = 0; (at = page->body.find(R"("command_id":"same")", at)) != std::string::npos;
       ++at) {
    ++applied;
  }
  EXPECT_GT(applied, 0u);
  EXPECT_EQ(Head("s1", gm), h1 + (h1 - h));  // one note's events, once
}

// Streams hold at most max_watchers threads (4 here): one more is 503, and
// a writer is served while they are all open; each of them gets its event.
TEST_F(ServerTest, WatchersDoNotBlockWriters) {
  const std::string gm = Create("s1");
  const uint64_t h = Head("s1", gm);
  constexpr int kWatchers = 4;
  std::atomic<int> open{0};
  std::vector<std::vector<uint64_t>> seen(kWatchers);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWatchers; ++i) {
    threads.emplace_back([&, i] {
      httplib::Client c = Client();
      std::string buffer;
      bool counted = false;
      c.Get(("/api/sessions/s1/branches/main/stream?from=" + std::to_string(h + 1) +
             "&token=" + gm)
                .c_str(),
            [&](const char* data, size_t n) {
              if (!counted) {
                counted = true;
                ++open;
              }
              buffer.append(data, n);
              const std::string id = FrameId(buffer);
              if (!id.empty()) seen[i].push_back(std::stoull(id));
              return id.empty();
            });
    });
  }
  while (open.load() < kWatchers) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto extra = Client().Get(("/api/sessions/s1/branches/main/stream?token=" + gm).c_str());
  ASSERT_TRUE(extra);
  EXPECT_EQ(extra->status, 503) << extra->body;
  auto r = Submit("s1", gm, h, Note("while-watched"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 201) << r->body;
  for (auto& t : threads) t.join();
  for (const auto& ids : seen) {
    ASSERT_EQ(ids.size(), 1u);
    EXPECT_EQ(ids[0], h + 1);
  }
}

// Creating a session is the operator's act: no token, a bad one or a GM's
// is 401, nothing written; the operator names the GM, whose token comes
// back once.
TEST_F(ServerTest, OnlyTheOperatorCreatesSessions) {
  const std::string gm = Create("s1");
  for (const httplib::Headers& h : {httplib::Headers{}, Bearer(gm), Bearer(std::string(64, '1'))}) {
    auto r = Client().Post("/api/sessions?session=s2", h, ExampleRoster(), "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 401) << r->body;
  }
  auto list = Client().Get("/api/sessions");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->body.find("\"s2\""), std::string::npos) << list->body;
  // The operator's token is no participant's: it reads nothing of s1.
  auto read = Client().Get("/api/sessions/s1/branches/main/head", Bearer(kOperator));
  ASSERT_TRUE(read);
  EXPECT_EQ(read->status, 401) << read->body;
  // The operator may give a session another GM (a GM's token lost); a GM may not.
  auto by_gm = Client().Post("/api/sessions/s1/participants?role=gm&name=gm2", Bearer(gm), "",
                             "application/json");
  ASSERT_TRUE(by_gm);
  EXPECT_EQ(by_gm->status, 400) << by_gm->body;
  auto by_op = Client().Post("/api/sessions/s1/participants?role=gm&name=gm2",
                             Bearer(kOperator), "", "application/json");
  ASSERT_TRUE(by_op);
  ASSERT_EQ(by_op->status, 201) << by_op->body;
  auto me = Client().Get("/api/sessions/s1/me", Bearer(Str(by_op->body, "token")));
  ASSERT_TRUE(me);
  EXPECT_NE(me->body.find(R"("role":"gm")"), std::string::npos) << me->body;
}

// The GM revokes a player's token: the next request with it is 401, its
// open stream ends; a player cannot revoke, a GM cannot revoke a GM, the
// operator can.
TEST_F(ServerTest, ARevokedTokenIs401AndItsStreamEnds) {
  const std::string gm = Create("s1");
  const std::string ann = Add("s1", gm, "player", "ann");
  const std::string eve = Add("s1", gm, "observer", "eve");
  ASSERT_EQ(Head("s1", ann) > 0, true);
  // ann watches; the stream must end on its own once revoked.
  std::atomic<bool> opened{false};
  std::string received;
  std::thread watcher([&] {
    httplib::Client c = Client();
    c.Get(("/api/sessions/s1/branches/main/stream?token=" + ann).c_str(),
          [&](const char* data, size_t n) {
            received.append(data, n);
            opened = true;
            return true;  // only the server ends it
          });
  });
  while (!opened.load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto by_player = Client().Delete("/api/sessions/s1/participants/eve", Bearer(ann));
  ASSERT_TRUE(by_player);
  EXPECT_EQ(by_player->status, 403) << by_player->body;
  auto gm_on_gm = Client().Delete("/api/sessions/s1/participants/gm", Bearer(gm));
  ASSERT_TRUE(gm_on_gm);
  EXPECT_EQ(gm_on_gm->status, 403) << gm_on_gm->body;
  auto nobody = Client().Delete("/api/sessions/s1/participants/zed", Bearer(gm));
  ASSERT_TRUE(nobody);
  EXPECT_EQ(nobody->status, 404) << nobody->body;
  auto revoked = Client().Delete("/api/sessions/s1/participants/ann", Bearer(gm));
  ASSERT_TRUE(revoked);
  EXPECT_EQ(revoked->status, 200) << revoked->body;
  watcher.join();  // returns only because the server ended the stream
  EXPECT_NE(received.find("event: revoked"), std::string::npos) << received;
  auto after = Client().Get("/api/sessions/s1/branches/main/head", Bearer(ann));
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 401) << after->body;
  const uint64_t h = Head("s1", gm);
  auto submit = Submit("s1", ann, h, R"({"id":"a1","actor":"aria","action":"end_turn"})");
  ASSERT_TRUE(submit);
  EXPECT_EQ(submit->status, 401) << submit->body;
  EXPECT_EQ(Head("s1", gm), h);
  // Revoking again: 404; the operator revokes the GM's token.
  auto twice = Client().Delete("/api/sessions/s1/participants/ann", Bearer(gm));
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->status, 404) << twice->body;
  auto op = Client().Delete("/api/sessions/s1/participants/gm", Bearer(kOperator));
  ASSERT_TRUE(op);
  EXPECT_EQ(op->status, 200) << op->body;
  auto gone = Client().Get("/api/sessions/s1/me", Bearer(gm));
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->status, 401) << gone->body;
  auto still = Client().Get("/api/sessions/s1/me", Bearer(eve));
  ASSERT_TRUE(still);
  EXPECT_EQ(still->status, 200) << still->body;
}

// The verb schemas and the rule table a form or an explanation is drawn
// from (no token: they are the build's, not a session's).
TEST_F(ServerTest, RulesetVerbsAndRules) {
  auto verbs = Client().Get("/api/rulesets/d20_three_action/verbs");
  ASSERT_TRUE(verbs);
  ASSERT_EQ(verbs->status, 200) << verbs->body;
  EXPECT_NE(verbs->body.find(R"("verb":"attack")"), std::string::npos);
  EXPECT_NE(verbs->body.find(R"("path":"required")"), std::string::npos);  // move
  EXPECT_NE(verbs->body.find(R"("key":"kind")"), std::string::npos);       // gm_note's
  auto rules = Client().Get("/api/rulesets/d20_three_action/rules");
  ASSERT_TRUE(rules);
  ASSERT_EQ(rules->status, 200) << rules->body;
  EXPECT_NE(rules->body.find(R"("id":"000.attack.critical")"), std::string::npos);
  EXPECT_NE(rules->body.find(R"("line":)"), std::string::npos);
  auto none = Client().Get("/api/rulesets/d20_three_actoin/verbs");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 404);
  EXPECT_NE(none->body.find("d20_three_action"), std::string::npos) << none->body;  // the nearest
}

// A POST the library refuses before any route (no body and no
// Content-Length) is a 400 whose body says so, with the same status.
TEST_F(ServerTest, ALibrary400IsAnErrorBodyNamingIt) {
  const std::string gm = Create("s1");
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(server_->port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  const std::string request = "POST /api/sessions/s1/branches/main/undo?reason=x HTTP/1.1\r\n"
                              "Host: x\r\nAuthorization: Bearer " + gm +
                              "\r\nConnection: close\r\n\r\n";
  ASSERT_EQ(send(fd, request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  std::string reply;
  char buf[4096];
  ssize_t n;
  while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) reply.append(buf, static_cast<size_t>(n));
  close(fd);
  EXPECT_EQ(reply.rfind("HTTP/1.1 400", 0), 0u) << reply;
  EXPECT_NE(reply.find(R"("status":400,"code":"INVALID_ARGUMENT")"), std::string::npos) << reply;
  EXPECT_NE(reply.find("Content-Length: 0"), std::string::npos) << reply;
}

// The served OpenAPI document is YAML a parser takes: a plain scalar (a
// summary) holding ': ' must be quoted (a broken document once passed the
// route check below).
TEST_F(ServerTest, TheOpenApiSummariesAreValidYamlScalars) {
  auto spec = Client().Get("/openapi.yaml");
  ASSERT_TRUE(spec);
  std::istringstream lines(spec->body);
  std::string line;
  int summaries = 0;
  while (std::getline(lines, line)) {
    const size_t at = line.find("summary: ");
    if (at == std::string::npos || line.find_first_not_of(' ') != at) continue;
    ++summaries;
    const std::string value = line.substr(at + 9);
    if (!value.empty() && value[0] == '"') continue;
    EXPECT_EQ(value.find(": "), std::string::npos) << "unquoted ': ' in: " << line;
    EXPECT_EQ(value.find(" #"), std::string::npos) << "unquoted ' #' in: " << line;
  }
  EXPECT_GT(summaries, 20);
}

// Every path and method the served OpenAPI document lists is routed (no
// "no route" 404), and the document lists every route the server has.
TEST_F(ServerTest, TheOpenApiDocumentListsTheRoutesTheServerHas) {
  Create("s1");
  auto spec = Client().Get("/openapi.yaml");
  ASSERT_TRUE(spec);
  std::istringstream lines(spec->body);
  std::string line, path;
  std::set<std::string> documented;
  while (std::getline(lines, line)) {
    // "  /path:" opens a path; "    get:" / "    post:" is one of its methods.
    if (line.size() > 3 && line.rfind("  /", 0) == 0 && line.back() == ':') {
      path = line.substr(2, line.size() - 3);
    }
    std::string method;
    if (line == "    get:") method = "get";
    if (line == "    post:") method = "post";
    if (line == "    delete:") method = "delete";
    if (method.empty()) continue;
    documented.insert(method + " " + path);
    std::string url = path;
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"{session}", "s1"},
                                   {"{branch}", "main"}, {"{name}", "ann"},
                                   {"{ruleset}", "d20_three_action"}}) {
      const size_t at = url.find(from);
      if (at != std::string::npos) url.replace(at, from.size(), to);
    }
    if (url.find("/stream") != std::string::npos) url += "?token=bad";  // 401, not a stream
    auto r = method == "get"    ? Client().Get(url.c_str())
             : method == "post" ? Client().Post(url.c_str(), "", "application/json")
                                : Client().Delete(url.c_str());
    ASSERT_TRUE(r) << url;
    EXPECT_EQ(r->body.find("no route"), std::string::npos) << method << " " << url;
  }
  const std::set<std::string> routes = {
      "get /",
      "get /app.js",
      "get /openapi.yaml",
      "get /api/rulesets",
      "get /api/rulesets/{ruleset}/verbs",
      "get /api/rulesets/{ruleset}/rules",
      "get /api/sessions",
      "post /api/sessions",
      "post /api/import",
      "get /api/sessions/{session}/participants",
      "post /api/sessions/{session}/participants",
      "delete /api/sessions/{session}/participants/{name}",
      "get /api/sessions/{session}/me",
      "get /api/sessions/{session}/heads",
      "get /api/sessions/{session}/branches",
      "post /api/sessions/{session}/branches",
      "post /api/sessions/{session}/whatif",
      "get /api/sessions/{session}/diff",
      "get /api/sessions/{session}/verify",
      "get /api/sessions/{session}/export",
      "get /api/sessions/{session}/branches/{branch}/head",
      "get /api/sessions/{session}/branches/{branch}/status",
      "get /api/sessions/{session}/branches/{branch}/state",
      "get /api/sessions/{session}/branches/{branch}/events",
      "get /api/sessions/{session}/branches/{branch}/explain",
      "post /api/sessions/{session}/branches/{branch}/commands",
      "post /api/sessions/{session}/branches/{branch}/undo",
      "get /api/sessions/{session}/branches/{branch}/stream",
  };
  EXPECT_EQ(documented, routes);
}

}  // namespace
}  // namespace combat::server
