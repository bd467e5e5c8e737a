#include "kernel/held_command.h"

#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "events/events_generated.h"
#include "flatbuffers/flatbuffers.h"
#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

// A command with every field of Command, Param and Ref set.
fb::CommandT Full() {
  fb::CommandT c;
  c.id = "cmd-000000000000000000042";
  c.actor = "fighter";
  c.author = "ann, who plays the fighter";
  c.role = fb::Role::GM;
  c.action = "opportunity_attack";
  c.targets = {"goblin", "a target with a long name, past the small-string buffer"};
  c.weapon = "longsword";
  c.path = {fb::Pos(1, 2), fb::Pos(3, -4)};
  auto p = std::make_unique<fb::ParamT>();
  p->key = "reduction";
  p->value = -7;
  p->text = "a text param";
  c.params.push_back(std::move(p));
  c.text = "when the goblin moves";
  c.dice = {6, 1, 20};
  c.window = 9;
  auto r = std::make_unique<fb::RefT>();
  r->key = "subject";
  r->seq = 0x1234567890ull;
  r->window = 3;
  r->pending = 5;
  c.refs.push_back(std::move(r));
  c.contribution = "mixed in";
  return c;
}

// The canonical bytes of `c` (equal objects pack to equal bytes).
std::string Bytes(const fb::CommandT& c) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Command::Pack(fbb, &c));
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

TEST(HeldCommandTest, ACopyOutOfAnEventUnpacksToTheSameCommand) {
  const fb::CommandT full = Full();
  HeldCommand held;
  {
    // The command inside a PendingOpened, with strings on both sides of it
    // in the buffer; the buffer is gone before the copy is read.
    fb::PendingOpenedT t;
    t.id = 1;
    t.kind = "held_back";
    t.actor = "fighter";
    t.decl = 4;
    t.command = std::make_unique<fb::CommandT>(full);
    t.budget = "ap";
    t.reacted = {"goblin"};
    auto fbb = std::make_unique<flatbuffers::FlatBufferBuilder>();
    fbb->Finish(fb::PendingOpened::Pack(*fbb, &t));
    const auto* opened = flatbuffers::GetRoot<fb::PendingOpened>(fbb->GetBufferPointer());
    flatbuffers::Verifier v(fbb->GetBufferPointer(), fbb->GetSize());
    ASSERT_TRUE(opened->Verify(v));
    held = HeldCommand::Copy(*opened->command());
    std::memset(fbb->GetBufferPointer(), 0xAB, fbb->GetSize());
  }
  ASSERT_NE(held.get(), nullptr);
  EXPECT_EQ(Bytes(held.object()), Bytes(full));
  EXPECT_EQ(held->refs[0]->seq, 0x1234567890ull);
  EXPECT_EQ(held.get()->params()->Get(0)->value(), -7);
}

TEST(HeldCommandTest, PackedFromAnObjectUnpacksToIt) {
  const fb::CommandT full = Full();
  const HeldCommand held = full;
  EXPECT_EQ(Bytes(held), Bytes(full));
  const fb::CommandT& c = held;
  EXPECT_EQ(c.action, "opportunity_attack");
}

TEST(HeldCommandTest, EmptyIsAnEmptyCommand) {
  const HeldCommand held;
  EXPECT_EQ(held.get(), nullptr);
  EXPECT_EQ(Bytes(held.object()), Bytes(fb::CommandT()));
  HeldCommand copy = held;
  EXPECT_EQ(copy.get(), nullptr);
}

TEST(HeldCommandTest, CopiesShareOneUnpackedObject) {
  const HeldCommand a = Full();
  HeldCommand b = a;
  HeldCommand c;
  c = b;
  EXPECT_EQ(&a.object(), &c.object());
  EXPECT_EQ(a.get(), c.get());
  HeldCommand moved = std::move(b);
  EXPECT_EQ(b.get(), nullptr);  // NOLINT: a moved-from command is empty
  EXPECT_EQ(moved.get(), a.get());
}

// A buffer holding `c` packed; its root table.
struct Packed {
  explicit Packed(const fb::CommandT& c) {
    fbb.Finish(fb::Command::Pack(fbb, &c));
  }
  const fb::Command& get() const {
    return *flatbuffers::GetRoot<fb::Command>(fbb.GetBufferPointer());
  }
  flatbuffers::FlatBufferBuilder fbb;
};

TEST(HeldCommandTest, AssignReusesItsOwnBlockWhenItIsTheOnlyOwner) {
  fb::CommandT first = Full();
  fb::CommandT second = Full();
  second.actor = "rogue";  // as long as "fighter"'s: the same layout
  second.action = "opportunity_strike";
  const Packed a(first), b(second);
  HeldCommand held;
  held.Assign(a.get());
  EXPECT_EQ(Bytes(held), Bytes(first));  // unpacked: the object is dropped below
  const fb::Command* table = held.get();
  held.Assign(b.get());
  // The same bytes' place (the same layout, in the same block), now holding
  // the second command, and its unpacked object is the second's.
  EXPECT_EQ(held.get(), table);
  EXPECT_EQ(Bytes(held), Bytes(second));
  EXPECT_EQ(held->actor, "rogue");
}

TEST(HeldCommandTest, AssignLeavesASharedBlockToItsOtherOwners) {
  fb::CommandT second = Full();
  second.action = "something else";
  const Packed b(second);
  HeldCommand held = Full();
  const HeldCommand other = held;
  held.Assign(b.get());
  EXPECT_NE(held.get(), other.get());
  EXPECT_EQ(Bytes(held), Bytes(second));
  EXPECT_EQ(Bytes(other), Bytes(Full()));
}

TEST(HeldCommandTest, AssignOfALongerCommandGetsAFittingBlock) {
  fb::CommandT small;
  small.action = "step";
  fb::CommandT big = Full();
  big.text.assign(500, 'x');
  const Packed a(small), b(big);
  HeldCommand held;
  held.Assign(a.get());
  held.Assign(b.get());
  EXPECT_EQ(Bytes(held), Bytes(big));
  held.Assign(*held.get());  // its own table: unchanged
  EXPECT_EQ(Bytes(held), Bytes(big));
  held.Assign(a.get());  // shorter: fits in the block
  EXPECT_EQ(Bytes(held), Bytes(small));
}

TEST(HeldCommandTest, ThreadsUnpackingAtOnceSeeOneObject) {
  const HeldCommand held = Full();
  std::vector<const fb::CommandT*> seen(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      const HeldCommand mine = held;
      seen[i] = &mine.object();
    });
  }
  for (auto& t : threads) t.join();
  for (const fb::CommandT* p : seen) EXPECT_EQ(p, &held.object());
}

}  // namespace
}  // namespace combat::kernel
