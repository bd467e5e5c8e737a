#include "kernel/keys.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

const std::vector<std::string>& Keys() {
  static const auto* keys = new std::vector<std::string>{
      "", "a", "ab", "abc", "abcd", "abcde", "abcdefg", "abcdefgh", "abcdefghi",
      "abcdefgh\x01", "abcdefgzz", std::string("a\0", 2), std::string("a\0b", 3),
      "hp", "hero0", "hero1", "gob0", "bleed_penalty", "turn_round", "turn_seq",
      "item_damage:axe", "item_damage:bow", "\xff", "\x80z", "zzzzzzzzzzzzzzzzzz"};
  return *keys;
}

int Sign(int v) { return (v > 0) - (v < 0); }

TEST(Keys, CompareKeysIsStdStringOrder) {
  for (const std::string& a : Keys()) {
    for (const std::string& b : Keys()) {
      EXPECT_EQ(Sign(CompareKeys(a, b)), Sign(a.compare(b))) << a << " vs " << b;
      EXPECT_EQ(KeyLess()(a, b), std::less<std::string>()(a, b));
    }
  }
}

TEST(Keys, HeadsOrderAsKeysWhereTheyDiffer) {
  for (const std::string& a : Keys()) {
    for (const std::string& b : Keys()) {
      if (KeyHead(a) != KeyHead(b)) {
        EXPECT_EQ(KeyHead(a) < KeyHead(b), a < b) << a << " vs " << b;
      }
    }
  }
}

TEST(Keys, PrefixedHeadIsKeyHead) {
  for (const std::string& k : Keys()) {
    // As in a FlatBuffers string: a 4-byte length, then the bytes.
    std::vector<char> buf(4 + k.size() + 1, '\x7f');
    std::copy(k.begin(), k.end(), buf.begin() + 4);
    EXPECT_EQ(PrefixedKeyHead(buf.data() + 4, k.size()), KeyHead(k)) << k;
  }
}

TEST(Keys, IndexFindsEveryKeyAndNothingElse) {
  std::map<std::string, int64_t> m;
  SlotIndex index;
  int64_t n = 0;
  for (const std::string& k : Keys()) {
    EXPECT_EQ(index.Find(m, k, KeyHead(k)), nullptr) << k;
    index.Insert(m, k, ++n);
  }
  n = 0;
  for (const std::string& k : Keys()) {
    int64_t* v = index.Find(m, k, KeyHead(k));
    ASSERT_NE(v, nullptr) << k;
    EXPECT_EQ(*v, ++n);
    EXPECT_EQ(v, &m.at(k));
  }
  EXPECT_EQ(index.Find(m, "abcdefgh\x02", KeyHead("abcdefgh\x02")), nullptr);
  EXPECT_EQ(index.Find(m, "hero", KeyHead("hero")), nullptr);
}

TEST(Keys, TheKeyFoundLastIsNotTakenForAnother) {
  std::map<std::string, int64_t> m;
  SlotIndex index;
  int64_t n = 0;
  for (const std::string& k : Keys()) index.Insert(m, k, ++n);
  // Every key right after every other (the index checks the key it found
  // last first), and absent keys that share a found key's head and size.
  for (const std::string& a : Keys()) {
    for (const std::string& b : Keys()) {
      ASSERT_EQ(index.Find(m, a, KeyHead(a)), &m.at(a)) << a;
      EXPECT_EQ(index.Find(m, b, KeyHead(b)), &m.at(b)) << a << " then " << b;
    }
  }
  const std::vector<std::pair<std::string, std::string>> near = {
      {"abcdefgh\x01", "abcdefgh\x02"},
      {"abcdefghi", "abcdefghj"},
      {"zzzzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzzzzzy"},
      {"item_damage:axe", "item_damage:axa"}};
  for (const auto& [found, absent] : near) {
    ASSERT_NE(index.Find(m, found, KeyHead(found)), nullptr) << found;
    EXPECT_EQ(index.Find(m, absent, KeyHead(absent)), nullptr) << absent;
  }
  // An insertion moves the slots: the key found last is looked up anew.
  ASSERT_NE(index.Find(m, "hp", KeyHead("hp")), nullptr);
  index.Insert(m, "a_new_key", 99);
  EXPECT_EQ(index.Find(m, "hp", KeyHead("hp")), &m.at("hp"));
  EXPECT_EQ(*index.Find(m, "a_new_key", KeyHead("a_new_key")), 99);
}

TEST(Keys, IndexSeesEntriesAddedToTheMapElsewhere) {
  std::map<std::string, int64_t> m = {{"hp", 3}};
  SlotIndex index;
  ASSERT_NE(index.Find(m, "hp", KeyHead("hp")), nullptr);
  m["actions"] = 2;
  int64_t* v = index.Find(m, "actions", KeyHead("actions"));
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(*v, 2);
}

TEST(Keys, ACopiedIndexPointsIntoItsOwnMap) {
  struct Owner {
    std::map<std::string, int64_t> m = {{"hp", 3}};
    SlotIndex index;
  };
  Owner a;
  ASSERT_NE(a.index.Find(a.m, "hp", KeyHead("hp")), nullptr);
  Owner b = a;
  int64_t* v = b.index.Find(b.m, "hp", KeyHead("hp"));
  EXPECT_EQ(v, &b.m.at("hp"));
  Owner c;
  c = b;
  EXPECT_EQ(c.index.Find(c.m, "hp", KeyHead("hp")), &c.m.at("hp"));
}

}  // namespace
}  // namespace combat::kernel
