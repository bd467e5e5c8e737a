// Short and Long Rests (l.593-620).
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernel/energy_rounds/test_util.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT Tired() {
  std::vector<fb::CombatantSpecT> cs;
  // Aura Modifier 2 + 2 = 4: Strength 20 + 5 = 25 (l.298); surges 6 (l.308).
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"str", 2}, {"con", 2}, {"con_score", 12}, {"stamina", 4}, {"aura", 3}}));
  cs.push_back(Who("orc", "orcs", 9, 9, {{"con_score", 14}}));
  return Roster(std::move(cs));
}

// kara (Con 12) at 0 Aura, so a hit makes her roll on the Death table, and
// an orc with an axe beside her.
fb::RosterT KaraAtNoAuraAndAnOrc() {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5, {{"con_score", 12}, {"aura", 0}}));
  cs.push_back(Who("orc", "orcs", 6, 5, {{"str", 3}, {"con_score", 14}},
                   {W("axe", "1d10", "melee", "heavy")}));
  return Roster(std::move(cs));
}

const Combatant& K(const Table& t) { return *t.state().Find("kara"); }

// The GM Dazes the orc for `rounds` Rounds (l.670; reading 39's durations).
void GmDazesTheOrc(Table& u, int64_t rounds) {
  ASSERT_TRUE(u.Submit(GmAdds("orc", "Dazed", {{"rounds", rounds}})).ok());
}

// 002 l.49 "You regain all your Stamina after a Short Rest" (l.600): kara
// back to her Constitution Score, 12 (l.78).
TEST(Rest, ShortRestRestoresStaminaAndSpendsSurges) {
  Table t(EnergyRounds(), Tired());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Shaken")).ok());
  auto player = Cmd("kara", "short_rest");
  player.author = "ann";  // a player (kernel/testing/table.h)
  player.actor.clear();  // short_rest takes no actor (verbs.cc): only the role matters
  EXPECT_EQ(t.Submit(player).status().code(), absl::StatusCode::kPermissionDenied);
  // 002 l.599, l.602: "Every 5 minutes of a Short Rest: ... You may spend
  // 1 Recovery Surge": 5 surges in 10 minutes is refused, not capped.
  auto over = Gm("short_rest");
  over.targets = {"kara"};
  With(over, "minutes", 10);
  With(over, "surges", 3);
  auto refused = t.Submit(over);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(refused.status().message()).find("allows at most 2 Recovery Surges"),
            std::string::npos);
  EXPECT_EQ(K(t).Resource("surges"), 6);  // nothing spent
  auto r = Gm("short_rest");
  r.targets = {"kara"};
  With(r, "minutes", 10);
  With(r, "surges", 2);
  auto ev = t.Submit(r);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("stamina"), 12);
  EXPECT_EQ(K(t).Resource("surges"), 4);   // 2 per 10 minutes (l.602)
  EXPECT_EQ(K(t).Resource("aura"), 11);    // 3 + 4 + 4
  EXPECT_TRUE(K(t).Has("Shaken"));         // gm-added: not "until a rest"
  for (int64_t minutes : {0, 31}) {  // l.597 "5-30 minutes"; 1-4: interrupted (l.606)
    auto bad = Gm("short_rest");
    With(bad, "minutes", minutes);
    auto refused = t.Submit(bad);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << minutes;
    EXPECT_NE(std::string(refused.status().message()).find("params.minutes"), std::string::npos);
  }
}

// 002 l.597 "A Short Rest takes 5-30 minutes", l.606 "If you are
// interrupted in the middle of a Short Rest, you may have completed some
// things but not others", l.599 "Every 5 minutes of a Short Rest": a rest
// of 3 minutes (36 Rounds, l.103) gives no Stamina and no surge (none may
// be asked: at most 3 / 5 = 0) but its Rounds pass: the orc's Exposed
// "until the end of the Round" (l.460) ends; kara's Exhausted "until your
// next Short Rest" (Death roll 12, l.634) stays, the rest having given
// nothing. A rest of 7 minutes gives its one whole span: Stamina 4 -> 12,
// 1 surge (0 + 4 = 4 Aura, Recovery Value 2 + 2 = 4, l.312), and ends it.
TEST(Rest, AShortRestInterruptedInTheMiddleGivesOnlyItsWholeSpans) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"str", 2}, {"con", 2}, {"con_score", 12}, {"stamina", 4}, {"aura", 0}}));
  cs.push_back(Who("orc", "orcs", 6, 5, {{"str", 3}, {"con_score", 14}},
                   {W("axe", "1d10", "melee", "heavy")}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  ASSERT_TRUE(t.status().ok()) << t.status();
  // Combat roll 15, Evasion 1 + 8 = 9 < AV 16: a hit at 0 Aura; Death roll
  // 12: Exhausted until the next Short Rest (l.634).
  auto hit = Cmd("orc", "melee", {"kara"});
  ASSERT_TRUE(t.Submit(Now(hit), {15, 1, 5, 12}).ok());
  ASSERT_TRUE(K(t).Has("Exhausted"));
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Exposed")).ok());
  auto greedy = Gm("short_rest");
  With(greedy, "minutes", 3);
  With(greedy, "surges", 1);
  auto refused = t.Submit(greedy);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(refused.status().message()).find("allows at most 0"), std::string::npos);
  auto three = Gm("short_rest");
  With(three, "minutes", 3);
  auto ev = t.Submit(three);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("stamina"), 4);
  EXPECT_EQ(K(t).Resource("surges"), 6);
  EXPECT_TRUE(K(t).Has("Exhausted"));
  EXPECT_FALSE(t.state().Find("orc")->Has("Exposed"));
  EXPECT_EQ(NumOf(*ev, "rest_rounds"), 36);
  auto seven = Gm("short_rest");
  With(seven, "minutes", 7);
  With(seven, "surges", 1);
  ev = t.Submit(seven);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("stamina"), 12);
  EXPECT_EQ(K(t).Resource("surges"), 5);
  EXPECT_EQ(K(t).Resource("aura"), 4);
  EXPECT_FALSE(K(t).Has("Exhausted"));
  ExpectRulesKnown(t.log());
}

// 002 l.602 "You may spend 1 Recovery Surge to regain Aura" (l.306, l.310):
// a surge is spent to regain Aura. Kara (Aura 3 of 25, Recovery Value 4)
// and Bo (Aura 25 of 25) rest together 15 minutes, 3 surges asked of
// each: kara spends 3 (3 + 4 + 4 + 4 = 15; 6 - 3 = 3 left); Bo, with no
// Aura to regain, spends none (was: 3, for nothing). Ria (Aura 21 of 25)
// spends 1 (21 + 4 = 25) and then has none to regain. A Long Rest's
// surges (l.618) likewise.
TEST(Rest, ARestSpendsNoSurgeWithoutAuraToRegain) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5, {{"str", 2}, {"con", 2}, {"aura", 3}}));
  cs.push_back(Who("bo", "party", 6, 5, {{"str", 2}, {"con", 2}}));
  cs.push_back(Who("ria", "party", 7, 5, {{"str", 2}, {"con", 2}, {"aura", 21}}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto r = Gm("short_rest");
  With(r, "minutes", 15);
  With(r, "surges", 3);
  auto ev = t.Submit(r);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("aura"), 15);
  EXPECT_EQ(K(t).Resource("surges"), 3);
  EXPECT_EQ(t.state().Find("bo")->Resource("aura"), 25);
  EXPECT_EQ(t.state().Find("bo")->Resource("surges"), 6);
  EXPECT_EQ(t.state().Find("ria")->Resource("aura"), 25);
  EXPECT_EQ(t.state().Find("ria")->Resource("surges"), 5);
  auto l = Gm("long_rest");
  With(l, "hours", 1);
  With(l, "surges", 2);
  ASSERT_TRUE(t.Submit(l).ok());
  EXPECT_EQ(K(t).Resource("aura"), 23);  // 15 + 4 + 4
  EXPECT_EQ(K(t).Resource("surges"), 1);  // 3 - 2 = 1, + floor(6 x 60 / 480) = 0 (l.620)
  EXPECT_EQ(t.state().Find("bo")->Resource("surges"), 6);
  ExpectRulesKnown(t.log());
}

// A rest lets Rounds pass (l.103) and lapses only conditions' Round
// expiries (rest.cc LetRoundsPass): no pending act is left to lapse, since
// "You cannot start an action in one Round and complete it in another"
// (002 l.105) and a pending act lives exactly as long as its window. Both
// rests are refused while any window or pending act is open, and the
// refusal names it (`002.rounds.span`), as `end_round`'s does.
TEST(Rest, NoPendingActOutlivesItsWindowIntoARest) {
  Table t(EnergyRounds(), Tired());
  auto mv = Cmd("kara", "catch_breath");
  auto decl = t.Submit(mv);
  ASSERT_TRUE(decl.ok()) << decl.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  ASSERT_EQ(t.state().pending.size(), 1u);
  const uint32_t wid = t.state().windows.begin()->second.id;
  for (const char* verb : {"short_rest", "long_rest", "end_round"}) {
    auto r = Gm(verb);
    auto refused = t.Submit(r);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << verb;
    const std::string msg(refused.status().message());
    EXPECT_NE(msg.find(absl::StrCat("window ", wid, " ('")), std::string::npos) << verb << ": " << msg;
    EXPECT_NE(msg.find("is still open"), std::string::npos) << verb << ": " << msg;
    EXPECT_NE(msg.find("l.105"), std::string::npos) << verb << ": " << msg;
  }
  EXPECT_EQ(K(t).Resource("stamina"), 4);  // nothing rested
  ASSERT_TRUE(t.Submit(Cmd("kara", "resolve")).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(t.state().pending.empty());
  auto r = Gm("short_rest");
  r.targets = {"kara"};
  ASSERT_TRUE(t.Submit(r).ok());
}

TEST(Rest, ShortRestEndsUntilRestConditions) {
  // A Death roll of 12 leaves kara Exhausted until the next Short Rest.
  Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
  auto a = Cmd("orc", "melee", {"kara"});
  ASSERT_TRUE(u.Submit(Now(a), {15, 1, 5, 12}).ok());
  ASSERT_TRUE(u.state().Find("kara")->Has("Exhausted"));
  ASSERT_TRUE(u.Submit(Gm("short_rest")).ok());
  EXPECT_FALSE(u.state().Find("kara")->Has("Exhausted"));
}

TEST(Rest, ARestOutlastsTheRoundsDurations) {
  // 002 l.103 "A Round is about 5 seconds long", l.597 "A Short Rest takes
  // 5-30 minutes": 5 minutes are 60 Rounds, so "Exhausted until the end of
  // the next Round" (l.633) and "Exposed (until the end of the next Round)"
  // (l.173) have ended when the rest does; a GM's 100 Rounds have not.
  Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
  // Combat roll 2 (orc Exposed to the end of round 2), Evasion 1 + 8 = 9
  // against AV 16: a hit at 0 Aura; Death roll 16: Exhausted to the end of
  // round 2 (l.633).
  auto a = Cmd("orc", "melee", {"kara"});
  ASSERT_TRUE(u.Submit(Now(a), {2, 1, 5, 16}).ok());
  ASSERT_TRUE(u.state().Find("kara")->Has("Exhausted"));
  ASSERT_TRUE(u.state().Find("orc")->Has("Exposed"));
  GmDazesTheOrc(u, 100);
  auto r = Gm("short_rest");
  r.targets = {"kara"};
  ASSERT_TRUE(u.Submit(r).ok());
  EXPECT_FALSE(u.state().Find("kara")->Has("Exhausted"));
  EXPECT_TRUE(u.state().Find("orc")->Has("Dazed"));  // 100 Rounds: not yet
  ASSERT_TRUE(u.Submit(Gm("end_round")).ok());
  // l.53-62: 12 Stamina, 5 Energy; not 5 - 2 (l.668).
  EXPECT_EQ(u.state().Find("kara")->Resource("energy"), 5);
  // The orc is Exposed only as the Dazed's daughter now (l.670, l.688).
  int exposed = 0;
  for (const auto& [id, k] : u.state().Find("orc")->conditions) {
    if (k.name == "Exposed" && k.parent == 0) ++exposed;
  }
  EXPECT_EQ(exposed, 0);
}

// 002 l.103 "A Round is about 5 seconds long": a 5-minute rest (l.597)
// passes 60 Round boundaries, the end of rounds 1 to 60 and the start of
// rounds 2 to 61 (rest.cc LetRoundsPass; reading 39). A GM's Dazed of 60
// Rounds from round 1 ends when round 61 starts: within the rest, whether
// or not anyone rolls in its Rounds (was: only when someone bled out or
// rolled to wake; with nobody rolling it outlived the rest). Kara bleeds
// out in the second table: her Death Saves (l.635) are rolled Round by
// Round and the orc's Dazed ends the same.
TEST(Rest, ADurationEndingAtTheRestsLastRoundStartEndsInTheRest) {
  for (bool bleeding : {false, true}) {
    Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
    ASSERT_TRUE(u.status().ok()) << u.status();
    if (bleeding) {
      // Combat 15, Evasion 1 + 8 = 9 < AV 16: a hit at 0 Aura; Death roll 7:
      // bleeding out (l.635).
      auto a = Cmd("orc", "melee", {"kara"});
      ASSERT_TRUE(u.Submit(Now(a), {15, 1, 5, 7}).ok());
      ASSERT_TRUE(u.state().Find("kara")->Has("Bleeding"));
    }
    GmDazesTheOrc(u, 60);
    auto r = Gm("short_rest");
    r.targets = {"orc"};
    auto ev = bleeding ? u.Submit(r, std::vector<int>(60, 10)) : u.Submit(r);
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_FALSE(u.state().Find("orc")->Has("Dazed")) << "bleeding=" << bleeding;
    EXPECT_EQ(u.state().Find("kara")->Has("Bleeding"), bleeding);
  }
}

// 002 l.103 "A Round is about 5 seconds long", reading 39: a rest is
// Rounds passing for the whole scene. A GM's Dazed of 100 Rounds imposed
// in round 1 ends when round 101 starts; a 5-minute rest passes 60 Rounds
// of it (the session's counter stays at 1), so after the rest it ends
// when round 101 - 60 = 41 starts: 40 Rounds on (was: 101, 100 Rounds on,
// the rest's 60 not counted). Its daughter Exposed (l.670) comes with it.
// A 1-minute rest then passes 12 more: round 29.
TEST(Rest, ADurationOutlastingARestHasTheRestsRoundsCounted) {
  Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
  ASSERT_TRUE(u.status().ok()) << u.status();
  GmDazesTheOrc(u, 100);
  auto due = [&]() {
    int64_t round = -1;
    for (const auto& [id, k] : u.state().Find("orc")->conditions) {
      if (k.name == "Dazed") round = k.expiry.round;
    }
    return round;
  };
  ASSERT_EQ(due(), 101);
  auto ev = u.Submit(Gm("short_rest"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(u.state().round, 1);
  EXPECT_EQ(due(), 41);
  EXPECT_EQ(NumOf(*ev, "rounds_left"), 40);
  EXPECT_TRUE(u.state().Find("orc")->Has("Exposed"));  // Dazed's daughter (l.670)
  auto one = Gm("short_rest");
  With(one, "minutes", 1);
  ASSERT_TRUE(u.Submit(one).ok());
  EXPECT_EQ(due(), 29);
  ExpectRulesKnown(u.log());
}

TEST(Rest, LongRestRestoresEverything) {
  Table t(EnergyRounds(), Tired());
  auto s = Gm("surge", "kara");
  ASSERT_TRUE(t.Submit(s).ok());
  auto r = Gm("long_rest");
  ASSERT_TRUE(t.Submit(r).ok());
  EXPECT_EQ(K(t).Resource("aura"), 25);
  EXPECT_EQ(K(t).Resource("surges"), 6);
  EXPECT_EQ(K(t).Resource("stamina"), 12);
}

// l.620: "If you are interrupted in the middle of a Long Rest ... you may
// only have regained half your Recovery Surges": interrupted in its
// middle, after 4 of its 8 hours, it regains 6 x 240 / 480 = 3.
TEST(Rest, InterruptedLongRestRegainsHalfTheSurges) {
  Table t(EnergyRounds(), Tired());
  ASSERT_EQ(K(t).Resource("surges"), 6);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(t.Submit(Gm("surge", "kara")).ok());
  auto r = Gm("long_rest");
  With(r, "hours", 4);
  auto ev = t.Submit(r);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("surges"), 5);  // 2 left + 6 x 4 / 8 (l.620)
  EXPECT_EQ(NumOf(*ev, "regained_share"), 3);
  EXPECT_TRUE(Cites(*ev, "002.rest.interrupted"));
  EXPECT_LT(K(t).Resource("aura"), 25);  // Aura is a complete rest's (l.612)
  // A second interrupted rest: 5 + 3, up to the maximum 6.
  ASSERT_TRUE(t.Submit(r).ok());
  EXPECT_EQ(K(t).Resource("surges"), 6);
  ExpectRulesKnown(t.log());
}

// 002 l.620 "If you are interrupted in the middle of a Long Rest, you may
// have completed some things but not others (for instance you may only
// have regained half your Recovery Surges)"; l.306 "Once depleted, your
// Aura can restore itself, but only so much each day. This is represented
// by Recovery Surges": the surges come back over the 8 hours, an
// interrupted rest regaining its share, rounded down (l.384):
// floor(6 x minutes / 480), half in its middle. kara has 1 surge of 6
// (max 5 + 2 / 2 = 6, l.308). 79 minutes: floor(474 / 480) = 0 (was: 3,
// half whatever the time); 80 minutes: floor(480 / 480) = 1; 7 hours:
// floor(2520 / 480) = 5. 8 hours with only 5 asleep (l.610: not the "full
// benefits", not interrupted either): l.620's half, 3.
TEST(Rest, AnInterruptedLongRestRegainsItsShareOfTheSurges) {
  struct Case {
    const char* key;
    int value;
    int sleep;
    int regained;
  };
  for (const Case& c : {Case{"minutes", 79, 0, 0}, Case{"minutes", 80, 1, 1},
                        Case{"hours", 7, 6, 5}, Case{"hours", 8, 5, 3}}) {
    Table t(EnergyRounds(), Tired());
    auto one = Gm("gm_set", "kara");
    WithText(one, "resource", "surges");
    With(one, "value", 1);
    ASSERT_TRUE(t.Submit(one).ok());
    auto r = Gm("long_rest");
    With(r, c.key, c.value);
    With(r, "sleep_hours", c.sleep);
    auto ev = t.Submit(r);
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(K(t).Resource("surges"), 1 + c.regained) << c.key << " " << c.value;
    EXPECT_EQ(K(t).Resource("aura"), 3) << c.key << " " << c.value;  // l.613: a complete rest's
    if (c.regained > 0) {
      EXPECT_EQ(NumOf(*ev, "regained_share"), c.regained);
    }
    ExpectRulesKnown(t.log());
  }
}

// 002 l.618: "Anything you can do during a Short Rest, you can do during a
// Long Rest": an interrupted Long Rest may spend Recovery Surges (1 per 5
// minutes, l.602) before regaining its share of them (l.620: 1 hour of 8,
// 6 x 60 / 480 = 0.75, rounded down: none).
TEST(Rest, LongRestMaySpendSurgesLikeAShortRest) {
  Table t(EnergyRounds(), Tired());
  auto r = Gm("long_rest");
  With(r, "hours", 1);
  With(r, "surges", 2);
  auto ev = t.Submit(r);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("aura"), 11);   // 3 + 4 + 4 (Recovery Value 4, l.312)
  EXPECT_EQ(K(t).Resource("surges"), 4);  // 6 - 2 = 4, + floor(6 x 60 / 480) = 0
  EXPECT_TRUE(Cites(*ev, "002.rest.long_as_short"));
  auto bad = Gm("long_rest");
  With(bad, "surges", -1);
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kInvalidArgument);
  ExpectRulesKnown(t.log());
}

// 002 l.618: "Anything you can do during a Short Rest, you can do during a
// Long Rest", and l.599-600 "Every 5 minutes of a Short Rest: You regain
// all your Stamina"; l.620 "If you are interrupted in the middle of a Long
// Rest, you may have completed some things but not others": a Long Rest
// cut short after 1 hour, none of it asleep, has passed its first 5
// minutes, so kara's Stamina is 4 -> 12 (Constitution Score 12, l.78),
// recorded after 5 minutes; it is not the complete rest's (l.612, l.615).
TEST(Rest, AnInterruptedLongRestRestoresStaminaAfterItsFirstFiveMinutes) {
  Table t(EnergyRounds(), Tired());
  ASSERT_EQ(K(t).Resource("stamina"), 4);
  auto r = Gm("long_rest");
  With(r, "hours", 1);
  With(r, "sleep_hours", 0);
  auto ev = t.Submit(r);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("stamina"), 12);
  EXPECT_EQ(NumOf(*ev, "after_minutes"), 5);
  EXPECT_EQ(K(t).Resource("aura"), 3);  // no Aura: only a complete rest's (l.613)
  ExpectRulesKnown(t.log());
}

// 002 l.620 "If you are interrupted in the middle of a Long Rest, you may
// have completed some things but not others": a Long Rest may be cut short
// at any time, before its first hour too, so `minutes` gives the time
// rested (1 to 480). l.610 "A Long Rest usually takes about 8 hours ... at
// least 6 of the 8 hours": more than 8 hours is refused, saying why and
// what is allowed. kara (Stamina 4, Aura 3, surges 6, Recovery Value 4):
// 30 minutes = 6 whole spans of 5 (l.599): Stamina 12 after 5 minutes
// (l.600, l.618), 2 surges asked: Aura 3 + 4 + 4 = 11 (l.602, l.312),
// surges 6 - 2 = 4, + floor(6 x 30 / 480) = 0 (l.620, reading 25) = 4.
// 3 minutes: no whole span, nothing but its 36 Rounds (l.103); an
// Exhausted "until your next Short Rest" (l.634) stays.
TEST(Rest, ALongRestInterruptedBeforeItsFirstHourIsARestToo) {
  Table t(EnergyRounds(), Tired());
  auto r = Gm("long_rest");
  With(r, "minutes", 30);
  With(r, "surges", 2);
  auto ev = t.Submit(r);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("stamina"), 12);
  EXPECT_EQ(K(t).Resource("aura"), 11);
  EXPECT_EQ(K(t).Resource("surges"), 4);
  EXPECT_EQ(NumOf(*ev, "minutes"), 30);
  // 7 surges in 30 minutes: 1 per 5 minutes allows 6 (l.602, l.618).
  auto greedy = Gm("long_rest");
  With(greedy, "minutes", 30);
  With(greedy, "surges", 7);
  EXPECT_EQ(t.Submit(greedy).status().code(), absl::StatusCode::kFailedPrecondition);
  // Both `hours` and `minutes`, or more than 8 hours: refused, naming the
  // field and why (l.610).
  auto both = Gm("long_rest");
  With(both, "minutes", 90);
  With(both, "hours", 1);
  EXPECT_EQ(t.Submit(both).status().code(), absl::StatusCode::kInvalidArgument);
  for (auto [key, value] : {std::pair{"hours", 9}, std::pair{"minutes", 481}}) {
    auto over = Gm("long_rest");
    With(over, key, value);
    auto st = t.Submit(over).status();
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << key;
    EXPECT_NE(st.message().find(absl::StrCat("params.", key)), std::string::npos) << st;
    EXPECT_NE(st.message().find("l.610"), std::string::npos) << st;
    EXPECT_NE(st.message().find("another rest"), std::string::npos) << st;
  }
  // 3 minutes: no whole span passes, so kara's Exhausted "until your next
  // Short Rest" (a Death roll of 12, l.634) stays; 5 minutes end it.
  Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
  auto hit = Cmd("orc", "melee", {"kara"});
  ASSERT_TRUE(u.Submit(Now(hit), {15, 1, 5, 12}).ok());
  ASSERT_TRUE(K(u).Has("Exhausted"));
  auto three = Gm("long_rest");
  With(three, "minutes", 3);
  auto ev3 = u.Submit(three);
  ASSERT_TRUE(ev3.ok()) << ev3.status();
  EXPECT_TRUE(K(u).Has("Exhausted"));
  auto five = Gm("long_rest");
  With(five, "minutes", 5);
  ASSERT_TRUE(u.Submit(five).ok());
  EXPECT_FALSE(K(u).Has("Exhausted"));
  ExpectRulesKnown(u.log());
  ExpectRulesKnown(t.log());
}

// 002 l.72: unconscious from Stamina loss, "you roll a 1d20 each Round
// until you get a 20, in which case you wake up"; l.657: "regaining 1
// Stamina if you were at 0". A rest restores the Stamina (l.600) but does
// not wake: the wake rolls go on in the rest's Rounds (l.103: 5 minutes
// are 60 Rounds), and the rest's Stamina change says it is still
// unconscious when none of them was a 20.
TEST(Rest, RestRestoresStaminaButDoesNotWakeTheUnconscious) {
  Table t(EnergyRounds(), Tired());
  auto zero = Gm("gm_set", "kara");
  WithText(zero, "resource", "stamina");
  With(zero, "value", 0);
  ASSERT_TRUE(t.Submit(zero).ok());
  ASSERT_TRUE(K(t).Has("Unconscious"));
  auto r = Gm("short_rest");
  r.targets = {"kara"};
  auto ev = t.Submit(r, std::vector<int>(60, 19));  // 60 wake rolls, no 20
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("stamina"), 12);
  EXPECT_TRUE(K(t).Has("Unconscious"));
  EXPECT_EQ(NumOf(*ev, "still_unconscious"), 1);
  EXPECT_EQ(NumOf(*ev, "wake_roll_causes"), 1);  // Stamina loss (l.657)
  EXPECT_EQ(NumOf(*ev, "rest_round"), 60);       // the last wake roll's Round
  ExpectRulesKnown(t.log());
}

// 002 l.72, l.657: "you roll a 1d20 each Round until you get a 20, in
// which case you wake up, regaining 1 Stamina if you were at 0"; a rest is
// Rounds passing (l.103, l.597): a 20 in its second Round wakes kara with
// 1 Stamina, the 5 minutes then give all of it (l.600), and no more wake
// rolls are made (2 dice, not 60).
TEST(Rest, TheUnconsciousRollToWakeInTheRestsRounds) {
  Table t(EnergyRounds(), Tired());
  auto zero = Gm("gm_set", "kara");
  WithText(zero, "resource", "stamina");
  With(zero, "value", 0);
  ASSERT_TRUE(t.Submit(zero).ok());
  auto r = Gm("short_rest");
  r.targets = {"kara"};
  auto ev = t.Submit(r, {7, 20});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_FALSE(K(t).Has("Unconscious"));
  EXPECT_EQ(K(t).Resource("wake_roll"), 20);
  EXPECT_EQ(NumOf(*ev, "rest_round"), 2);
  EXPECT_TRUE(Cites(*ev, "002.unconscious.stamina"));
  EXPECT_EQ(K(t).Resource("stamina"), 12);
  EXPECT_EQ(K(t).Resource("energy"), 5);  // awake in the Round after the rest (l.53-62)
  ExpectRulesKnown(t.log());
}

// 002 l.635: "You also must make a Death Save at the beginning of every
// Round until you are Stabilized"; l.641 ">=20 You are Stabilized", l.644
// "<=1 You die". A rest is Rounds passing (l.103): a bleeding creature
// makes its Death Saves in them, for the whole scene (the orc, who does
// not rest, would too). Death roll 7 (l.635: 5-9, bleeding out).
TEST(Rest, TheDyingMakeDeathSavesInTheRestsRounds) {
  {
    Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
    auto a = Cmd("orc", "melee", {"kara"});
    ASSERT_TRUE(u.Submit(Now(a), {15, 1, 5, 7}).ok());
    ASSERT_TRUE(u.state().Find("kara")->Has("Bleeding"));
    auto r = Gm("short_rest");
    r.targets = {"kara"};
    auto ev = u.Submit(r, {10, 20});  // Round 1: 10 bleeds on; Round 2: 20
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_FALSE(u.state().Find("kara")->Has("Bleeding"));
    EXPECT_FALSE(u.state().Find("kara")->Has("Dead"));
    EXPECT_EQ(u.state().Find("kara")->Resource("death_save"), 20);
    EXPECT_EQ(NumOf(*ev, "rest_round"), 2);
    EXPECT_TRUE(Cites(*ev, "002.death.stabilize"));
    // "Exhausted until your next Short Rest" (l.634) ends with it.
    EXPECT_FALSE(u.state().Find("kara")->Has("Exhausted"));
    ExpectRulesKnown(u.log());
  }
  {
    Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
    auto a = Cmd("orc", "melee", {"kara"});
    ASSERT_TRUE(u.Submit(Now(a), {15, 1, 5, 7}).ok());
    auto r = Gm("short_rest");
    auto ev = u.Submit(r, {10, 3, 1});  // 10; 3: falls unconscious; 1: dies
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_TRUE(u.state().Find("kara")->Has("Dead"));
    EXPECT_FALSE(u.state().Find("kara")->Has("Bleeding"));
    EXPECT_EQ(NumOf(*ev, "rest_round"), 3);
    EXPECT_EQ(u.state().Find("kara")->Resource("energy"), 0);
    ExpectRulesKnown(u.log());
  }
}

// 002 l.599, l.602: "Every 5 minutes of a Short Rest: ... You may spend 1
// Recovery Surge to regain Aura"; l.647 "A creature can be stabilized by
// gaining Aura". The surge comes as its 5 minutes pass (l.606: an
// interrupted rest "may have completed some things but not others"): 60
// Death Saves of 10 first (l.635), then the surge stabilises; the second
// 5 minutes roll none.
TEST(Rest, ARestsSurgeStabilisesTheDyingAfterItsFiveMinutes) {
  Table u(EnergyRounds(), KaraAtNoAuraAndAnOrc());
  auto a = Cmd("orc", "melee", {"kara"});
  ASSERT_TRUE(u.Submit(Now(a), {15, 1, 5, 7}).ok());
  auto r = Gm("short_rest");
  r.targets = {"kara"};
  With(r, "minutes", 10);
  With(r, "surges", 1);
  auto short_dice = u.Submit(r, std::vector<int>(59, 10));
  EXPECT_FALSE(short_dice.ok());  // 60 Death Saves are rolled
  auto ev = u.Submit(r, std::vector<int>(60, 10));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_FALSE(u.state().Find("kara")->Has("Bleeding"));
  EXPECT_EQ(NumOf(*ev, "rest_round"), 60);
  EXPECT_EQ(u.state().Find("kara")->Resource("aura"), 1);  // Recovery Value: min 1 (l.312)
  EXPECT_TRUE(Cites(*ev, "002.death.stabilize"));
  ExpectRulesKnown(u.log());
}

// 002 l.657-660: only Stamina loss (l.657) and non-lethal damage (l.658)
// "roll a 1d20 each Round until you get a 20"; the dying make Death Saves
// and "It is up to the GM to decide when you awaken" (l.659), and waking
// from sleep is "up to the GM, common sense, and your Awareness" (l.660).
// The rest's Stamina change says which: no wake roll for the dying kara.
TEST(Rest, RestNoteNamesNoWakeRollForTheDyingOrAsleep) {
  Table t(EnergyRounds(), Tired());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Unconscious", {}, "dying")).ok());
  auto r = Gm("short_rest");
  r.targets = {"kara"};
  auto ev = t.Submit(r);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("stamina"), 12);
  EXPECT_TRUE(K(t).Has("Unconscious"));
  EXPECT_EQ(NumOf(*ev, "still_unconscious"), 1);
  EXPECT_EQ(NumOf(*ev, "wake_roll_causes"), 0);
  ExpectRulesKnown(t.log());
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
