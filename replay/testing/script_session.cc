#include "replay/testing/script_session.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/status_macros.h"

namespace combat::replay::testing {

absl::StatusOr<std::unique_ptr<ScriptSession>> ScriptSession::Open(
    const std::string& script_json, const std::string& session, uint8_t secret_byte,
    const std::string& author) {
  std::unique_ptr<ScriptSession> s(new ScriptSession());
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string templ = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/script-XXXXXX");
  if (mkdtemp(templ.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp ", templ));
  }
  s->dir_ = templ;
  ASSIGN_OR_RETURN(s->engine_, Engine::Open(s->dir_ + "/db"));
  ASSIGN_OR_RETURN(fb::ScriptT script, events::ParseScript(script_json));
  s->script_ = std::move(script);
  if (s->script_.roster == nullptr) return absl::InvalidArgumentError("script has no roster");
  ASSIGN_OR_RETURN(s->setup_, s->engine_->CreateSession(
                                  session, *s->script_.roster,
                                  std::vector<uint8_t>(32, secret_byte), author,
                                  s->script_.setup_dice));
  return s;
}

ScriptSession::~ScriptSession() {
  engine_.reset();
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

std::string ReadWorkspaceFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace combat::replay::testing
