#include "kernel/id_table.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

struct Value {
  std::string name;
  std::vector<int> list;
  friend bool operator==(const Value& a, const Value& b) {
    return a.name == b.name && a.list == b.list;
  }
};

std::vector<uint32_t> Ids(const IdTable<Value>& t) {
  std::vector<uint32_t> ids;
  for (const auto& [id, v] : t) ids.push_back(id);
  return ids;
}

TEST(IdTableTest, KeepsIdOrderWhateverTheInsertionOrder) {
  IdTable<Value> t;
  t[5].name = "e";
  t[2].name = "b";
  t[9].name = "i";
  t[1].name = "a";
  t.try_emplace(7, Value{"g", {}});
  EXPECT_EQ(Ids(t), (std::vector<uint32_t>{1, 2, 5, 7, 9}));
  std::vector<uint32_t> back;
  for (auto it = t.rbegin(); it != t.rend(); ++it) back.push_back(it->first);
  EXPECT_EQ(back, (std::vector<uint32_t>{9, 7, 5, 2, 1}));
  EXPECT_EQ(t.at(5).name, "e");
  EXPECT_EQ(t.find(7)->second.name, "g");
  EXPECT_EQ(t.size(), 5u);
}

TEST(IdTableTest, FindCountEraseAsAMap) {
  IdTable<Value> t;
  for (uint32_t id : {1u, 2u, 3u, 4u}) t[id].name = std::to_string(id);
  EXPECT_EQ(t.count(3), 1u);
  EXPECT_EQ(t.count(5), 0u);
  EXPECT_EQ(t.count(0), 0u);
  EXPECT_TRUE(t.find(5) == t.end());
  EXPECT_TRUE(t.find(0) == t.end());
  auto next = t.erase(t.find(2));
  ASSERT_TRUE(next != t.end());
  EXPECT_EQ(next->first, 3u);
  EXPECT_EQ(t.erase(4u), 1u);
  EXPECT_EQ(t.erase(4u), 0u);
  EXPECT_EQ(Ids(t), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(t.at(3).name, "3");
  EXPECT_FALSE(t.try_emplace(3, Value{"x", {}}).second);
  EXPECT_EQ(t.at(3).name, "3");
  t.clear();
  EXPECT_TRUE(t.empty());
  EXPECT_TRUE(t.begin() == t.end());
}

TEST(IdTableTest, ReferencesStayValidAcrossOtherInsertsAndErases) {
  IdTable<Value> t;
  t[10].name = "ten";
  const Value* ten = &t.at(10);
  for (uint32_t id = 11; id < 100; ++id) t[id].name = "x";
  t[5].name = "five";  // in the middle: the later entries shift
  t.erase(50u);
  EXPECT_EQ(ten, &t.at(10));
  EXPECT_EQ(ten->name, "ten");
}

TEST(IdTableTest, RecycleReusesAnErasedEntryWithItsCapacity) {
  IdTable<Value> t;
  Value& first = t.Recycle(1)->second;
  first.name.assign(100, 'n');  // past any small-string buffer
  first.list.assign(50, 7);
  const char* name_buffer = first.name.data();
  const int* list_buffer = first.list.data();
  t.erase(t.find(1));
  EXPECT_EQ(t.spares(), 1u);
  // The next entry is the erased one, values and buffers as left.
  Value& second = t.Recycle(2)->second;
  EXPECT_EQ(&second, &first);
  EXPECT_EQ(t.spares(), 0u);
  EXPECT_EQ(second.name.size(), 100u);
  second.name.clear();
  second.list.clear();
  second.name.append(80, 'm');
  second.list.push_back(1);
  EXPECT_EQ(second.name.data(), name_buffer);
  EXPECT_EQ(second.list.data(), list_buffer);
  EXPECT_EQ(Ids(t), std::vector<uint32_t>{2});
  // Recycle of a present id is that entry.
  EXPECT_EQ(&t.Recycle(2)->second, &second);
}

TEST(IdTableTest, InsertingResetsAReusedEntry) {
  IdTable<Value> t;
  t[1] = Value{"old", {1, 2}};
  t.erase(1u);
  EXPECT_EQ(t[2], Value{});
  EXPECT_EQ(t.spares(), 0u);
}

TEST(IdTableTest, ReusesASpareForAnInsertInTheMiddle) {
  IdTable<Value> t;
  t[1].name = "a";
  t[3].name = "c";
  t[4].name = "d";
  const Value* d = &t.at(4);
  t.erase(4u);
  t.Recycle(2)->second.name = "b";
  EXPECT_EQ(&t.at(2), d);
  EXPECT_EQ(Ids(t), (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(t.at(3).name, "c");
}

TEST(IdTableTest, CopiesHoldTheLiveEntriesOnly) {
  IdTable<Value> t;
  t[1].name = "a";
  t[2].name = "b";
  t[3].name = "c";
  t.erase(2u);
  IdTable<Value> copy(t);
  EXPECT_EQ(copy.spares(), 0u);
  EXPECT_EQ(Ids(copy), (std::vector<uint32_t>{1, 3}));
  EXPECT_TRUE(copy == t);
  copy.at(3).name = "changed";
  EXPECT_EQ(t.at(3).name, "c");
  EXPECT_FALSE(copy == t);

  IdTable<Value> assigned;
  for (uint32_t id = 10; id < 15; ++id) assigned[id].name = "z";
  assigned = t;
  EXPECT_EQ(Ids(assigned), (std::vector<uint32_t>{1, 3}));
  EXPECT_TRUE(assigned == t);

  IdTable<Value> moved(std::move(assigned));
  EXPECT_EQ(Ids(moved), (std::vector<uint32_t>{1, 3}));
  EXPECT_TRUE(assigned.empty());  // NOLINT: a moved-from table is empty
}

TEST(IdTableTest, EqualityComparesIdsAndValues) {
  IdTable<Value> a, b;
  a[1].name = "x";
  b[2].name = "x";
  EXPECT_FALSE(a == b);
  b.erase(2u);
  b[1].name = "x";
  EXPECT_TRUE(a == b);
}

}  // namespace
}  // namespace combat::kernel
