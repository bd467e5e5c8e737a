#include "replay/testing/fixture.h"

#include <stdlib.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "events/hash.h"

namespace combat::replay::testing {

std::vector<SeededDie> SeededOf(const std::vector<events::EventBuffer>& events) {
  std::vector<SeededDie> out;
  for (const events::EventBuffer& b : events) {
    const fb::Roll* r = b.event().body_as_Roll();
    if (r == nullptr || r->dice() == nullptr) continue;
    for (const fb::Die* d : *r->dice()) {
      if (d->provenance() != fb::Provenance::Seeded) continue;
      out.push_back({b.event().branch()->str(),
                     r->contribution() ? r->contribution()->str() : "",
                     static_cast<int64_t>(d->index()), d->faces(), d->value()});
    }
  }
  return out;
}

std::vector<uint8_t> FixtureSecret() {
  std::vector<uint8_t> s(32);
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(i * 7 + 3);
  return s;
}

std::string FixtureSecretHex() { return events::Hex(FixtureSecret()); }

void ToyFixture::SetUp() {
  std::string templ = ::testing::TempDir() + "/replay-XXXXXX";
  ASSERT_NE(mkdtemp(templ.data()), nullptr);
  dir_ = templ;
  db_ = dir_ + "/db";
  Reopen();
  auto setup = engine_->CreateSession("s1", ToyRoster({"a", "b"}),
                                      FixtureSecret(), "dana");
  ASSERT_TRUE(setup.ok()) << setup.status();
}

void ToyFixture::TearDown() {
  engine_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void ToyFixture::Reopen() {
  engine_.reset();
  auto engine = Engine::Open(db_);
  ASSERT_TRUE(engine.ok()) << engine.status();
  engine_ = *std::move(engine);
}

std::vector<events::EventBuffer> ToyFixture::Do(const fb::CommandT& c,
                                                const std::string& branch) {
  fb::CommandT cmd = c;
  if (cmd.id.empty()) cmd.id = absl::StrCat("t", next_id_++);
  auto r = engine_->Submit("s1", branch, cmd);
  EXPECT_TRUE(r.ok()) << r.status() << " (" << cmd.action << " by " << cmd.actor
                      << ")";
  return r.ok() ? r->events : std::vector<events::EventBuffer>();
}

kernel::State ToyFixture::StateOf(const std::string& branch, uint64_t seq) {
  auto s = engine_->StateAt("s1", branch, seq);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : kernel::State();
}

uint64_t ToyFixture::HeadOf(const std::string& branch) {
  auto h = engine_->log().GetHead("s1", branch);
  EXPECT_TRUE(h.ok()) << h.status();
  return h.ok() ? h->seq : 0;
}

std::string ToyFixture::Active(const std::string& branch) {
  return StateOf(branch).active;
}

uint64_t ToyFixture::AttackAndEnd(std::vector<int> dice,
                                  const std::string& branch) {
  const std::string me = Active(branch);
  auto evs = Do(ToyCmd("", me, "attack", {Other(me)}, std::move(dice)), branch);
  Do(ToyCmd("", me, "end_turn"), branch);
  return evs.empty() ? 0 : evs.front().event().seq();
}

}  // namespace combat::replay::testing
