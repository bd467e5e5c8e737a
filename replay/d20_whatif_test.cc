// What-if with the real d20_three_action ruleset (seed 000): the opening of
// the bundled ambush (replay/examples/d20_ambush.json, first two rounds).
// Changing bo's critical attack roll into a miss leaves the goblin sentry
// standing, so exactly one later declaration becomes illegal: the
// sentry's crawl (only the Prone crawl). The what-if branch verifies, with
// every re-run declaration re-decided to identical events.
#include "gtest/gtest.h"
#include "replay/engine.h"
#include "replay/testing/script_session.h"
#include "replay/verify.h"
#include "replay/whatif.h"

namespace combat::replay {
namespace {

constexpr char kScript[] = R"JSON(
{
 "roster": {
  "title": "Ambush at the ford (seed 000, d20_three_action)",
  "ruleset": "d20_three_action",
  "map": {
   "width": 10,
   "height": 10,
   "cells": [
    {
     "at": {
      "x": 2,
      "y": 2
     },
     "terrain": "difficult"
    },
    {
     "at": {
      "x": 2,
      "y": 3
     },
     "terrain": "water"
    },
    {
     "at": {
      "x": 0,
      "y": 9
     },
     "terrain": "wall"
    }
   ]
  },
  "combatants": [
   {
    "id": "aria",
    "name": "Aria",
    "side": "party",
    "at": {
     "x": 4,
     "y": 5
    },
    "stats": [
     {
      "key": "level",
      "value": 2
     },
     {
      "key": "str",
      "value": 3
     },
     {
      "key": "dex",
      "value": 2
     },
     {
      "key": "ess",
      "value": 0
     },
     {
      "key": "hp",
      "value": 24
     },
     {
      "key": "speed",
      "value": 30
     },
     {
      "key": "physical_defense",
      "value": 13
     },
     {
      "key": "mental_defense",
      "value": 11
     }
    ],
    "weapons": [
     {
      "name": "spear",
      "damage": "1d8",
      "kind": "melee",
      "category": "medium",
      "reach": 5
     }
    ],
    "tags": [
     "undetected"
    ]
   },
   {
    "id": "bo",
    "name": "Bo",
    "side": "party",
    "at": {
     "x": 6,
     "y": 5
    },
    "stats": [
     {
      "key": "level",
      "value": 2
     },
     {
      "key": "str",
      "value": 1
     },
     {
      "key": "dex",
      "value": 4
     },
     {
      "key": "ess",
      "value": 0
     },
     {
      "key": "hp",
      "value": 18
     },
     {
      "key": "speed",
      "value": 30
     },
     {
      "key": "physical_defense",
      "value": 14
     },
     {
      "key": "mental_defense",
      "value": 12
     }
    ],
    "weapons": [
     {
      "name": "dagger",
      "damage": "1d4",
      "kind": "melee",
      "category": "light",
      "reach": 5
     }
    ],
    "tags": [
     "undetected"
    ]
   },
   {
    "id": "gob",
    "name": "Goblin sentry",
    "side": "goblins",
    "at": {
     "x": 5,
     "y": 5
    },
    "stats": [
     {
      "key": "level",
      "value": 1
     },
     {
      "key": "str",
      "value": 1
     },
     {
      "key": "dex",
      "value": 2
     },
     {
      "key": "ess",
      "value": 0
     },
     {
      "key": "hp",
      "value": 10
     },
     {
      "key": "speed",
      "value": 25
     },
     {
      "key": "physical_defense",
      "value": 11
     },
     {
      "key": "mental_defense",
      "value": 9
     }
    ],
    "weapons": [
     {
      "name": "club",
      "damage": "1d6",
      "kind": "melee",
      "category": "medium",
      "reach": 5
     }
    ],
    "tags": [
     "unaware"
    ]
   },
   {
    "id": "grk",
    "name": "Goblin cook",
    "side": "goblins",
    "at": {
     "x": 8,
     "y": 8
    },
    "stats": [
     {
      "key": "level",
      "value": 1
     },
     {
      "key": "str",
      "value": 1
     },
     {
      "key": "dex",
      "value": 1
     },
     {
      "key": "ess",
      "value": 0
     },
     {
      "key": "hp",
      "value": 10
     },
     {
      "key": "speed",
      "value": 25
     },
     {
      "key": "physical_defense",
      "value": 11
     },
     {
      "key": "mental_defense",
      "value": 9
     }
    ],
    "weapons": [
     {
      "name": "club",
      "damage": "1d6",
      "kind": "melee",
      "category": "medium",
      "reach": 5
     }
    ],
    "tags": [
     "unaware"
    ]
   }
  ]
 },
 "setup_dice": [
  14,
  15,
  9,
  3
 ],
 "commands": [
  {
   "id": "r1-bo-draw",
   "actor": "bo",
   "action": "interact",
   "text": "draws a dagger"
  },
  {
   "id": "r1-bo-stab",
   "actor": "bo",
   "action": "attack",
   "targets": [
    "gob"
   ],
   "weapon": "dagger",
   "text": "undetected and flanking: advantage; 17 + 6 = 23 is a critical",
   "dice": [
    4,
    17,
    3
   ]
  },
  {
   "id": "r1-bo-end",
   "actor": "bo",
   "action": "end_turn"
  },
  {
   "id": "r1-aria-spear",
   "actor": "aria",
   "action": "attack",
   "targets": [
    "gob"
   ],
   "weapon": "spear",
   "text": "the sentry drops: incapacitated, prone, bleeding",
   "dice": [
    9,
    6,
    2
   ]
  },
  {
   "id": "r1-aria-end",
   "actor": "aria",
   "action": "end_turn",
   "text": "the unaware goblins' round 1 turns, without acting: gob bleeds: table 13 - 2 = 11, no effect; 2d6 = 2; round 2 starts with bo",
   "dice": [
    13,
    1,
    1
   ]
  },
  {
   "id": "r2-bo-move",
   "actor": "bo",
   "action": "move",
   "path": [
    {
     "x": 7,
     "y": 6
    },
    {
     "x": 7,
     "y": 7
    }
   ]
  },
  {
   "id": "r2-bo-stab",
   "actor": "bo",
   "action": "attack",
   "targets": [
    "grk"
   ],
   "weapon": "dagger",
   "dice": [
    13,
    2
   ]
  },
  {
   "id": "r2-bo-end",
   "actor": "bo",
   "action": "end_turn"
  },
  {
   "id": "r2-aria-move",
   "actor": "aria",
   "action": "move",
   "path": [
    {
     "x": 5,
     "y": 6
    },
    {
     "x": 6,
     "y": 7
    },
    {
     "x": 7,
     "y": 8
    },
    {
     "x": 8,
     "y": 9
    },
    {
     "x": 9,
     "y": 9
    }
   ]
  },
  {
   "id": "r2-aria-spear",
   "actor": "aria",
   "action": "attack",
   "targets": [
    "grk"
   ],
   "weapon": "spear",
   "text": "flanking with bo",
   "dice": [
    11,
    3,
    5
   ]
  },
  {
   "id": "r2-aria-end",
   "actor": "aria",
   "action": "end_turn",
   "text": "gob bleeds: table 9 - 3 = 6, deteriorate; 2d6 = 3",
   "dice": [
    9,
    1,
    2
   ]
  },
  {
   "id": "r2-gob-crawl",
   "actor": "gob",
   "action": "crawl",
   "path": [
    {
     "x": 5,
     "y": 4
    }
   ]
  },
  {
   "id": "r2-gob-end",
   "actor": "gob",
   "action": "end_turn",
   "text": "grk bleeds: table 14 - 2 = 12, no effect; 2d6 = 6",
   "dice": [
    14,
    3,
    3
   ]
  },
  {
   "id": "r2-grk-crawl",
   "actor": "grk",
   "action": "crawl",
   "path": [
    {
     "x": 9,
     "y": 7
    }
   ]
  },
  {
   "id": "r2-grk-end",
   "actor": "grk",
   "action": "end_turn"
  }
 ]
}
)JSON";

class D20WhatIfTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto session = testing::ScriptSession::Open(kScript, "ambush");
    ASSERT_TRUE(session.ok()) << session.status();
    session_ = *std::move(session);
    engine_ = &session_->engine();
    for (const auto& c : session_->script().commands) {
      auto r = engine_->Submit("ambush", "main", *c);
      ASSERT_TRUE(r.ok()) << c->id << ": " << r.status();
      for (const auto& e : r->events) {
        if (c->id == "r1-bo-stab" && e.event().body_type() == fb::Body::Roll &&
            e.event().body_as_Roll()->purpose()->str() == "attack") {
          bo_attack_roll_ = e.event().seq();
        }
      }
    }
    ASSERT_NE(bo_attack_roll_, 0u);
  }

  std::unique_ptr<testing::ScriptSession> session_;
  Engine* engine_ = nullptr;
  uint64_t bo_attack_roll_ = 0;
};

TEST_F(D20WhatIfTest, ChangingAnAttackRollReportsExactlyTheDeclarationsThatBecameIllegal) {
  auto main_state = engine_->StateAt("ambush", "main");
  ASSERT_TRUE(main_state.ok());
  ASSERT_TRUE(main_state->Find("gob")->Has("prone")) << "the sentry dropped";

  WhatIfRequest req;
  req.session = "ambush";
  req.branch = "bo-misses";
  req.author = "dana";
  req.reason = "what if bo's critical had been a miss";
  req.change.kind = WhatIfChange::Kind::kDie;
  req.change.seq = bo_attack_roll_;
  req.change.die = 1;   // the kept 17 of 2d20kh1 [4, 17]
  req.change.value = 1;  // kept die becomes the 4: 4 + 6 = 10 < 11, a miss
  auto r = engine_->WhatIf(req);
  ASSERT_TRUE(r.ok()) << r.status();
  auto gone = r->NoLongerApply();
  ASSERT_EQ(gone.size(), 1u) << RenderWhatIf(*r);
  EXPECT_EQ(gone[0]->command_id, "r2-gob-crawl");
  EXPECT_EQ(gone[0]->code, absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(gone[0]->why.find("not Prone"), std::string::npos) << gone[0]->why;
  for (const Rerun& x : r->reruns) {
    if (x.command_id == "r2-gob-crawl") continue;
    EXPECT_EQ(x.outcome, Rerun::Outcome::kApplied) << x.description << ": " << x.why;
  }
  auto alt = engine_->StateAt("ambush", "bo-misses");
  ASSERT_TRUE(alt.ok());
  EXPECT_FALSE(alt->Find("gob")->Has("prone"));
  EXPECT_EQ(alt->Find("gob")->Resource("hp"), 5) << "only aria's 5 damage";

  auto rules = engine_->RulesetOf("ambush");
  ASSERT_TRUE(rules.ok());
  auto v = VerifySession(engine_->log(), *rules, "ambush", "", true, {});
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->ok()) << RenderVerifyReport(*v);
  EXPECT_GE(v->commands_redecided, 25u) << RenderVerifyReport(*v);
}

}  // namespace
}  // namespace combat::replay
