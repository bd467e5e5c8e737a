#include "kernel/param_types.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

fb::CommandT With(const std::string& key, int64_t value, const std::string& text) {
  fb::CommandT c;
  c.action = "attack";
  auto p = std::make_unique<fb::ParamT>();
  p->key = key;
  p->value = value;
  p->text = text;
  c.params.push_back(std::move(p));
  return c;
}

const ParamTypes kTypes = {{"skill", "skill_*"}, {"miss"}, {"tier"}};

TEST(ParamTypesTest, AcceptsWellTypedParams) {
  EXPECT_TRUE(CheckParamTypes(With("skill", 0, "athletics"), kTypes).ok());
  EXPECT_TRUE(CheckParamTypes(With("skill_aria", 0, "stealth"), kTypes).ok());
  EXPECT_TRUE(CheckParamTypes(With("miss", 1, ""), kTypes).ok());
  EXPECT_TRUE(CheckParamTypes(With("tier", 2, ""), kTypes).ok());
  EXPECT_TRUE(CheckParamTypes(With("dc", -3, ""), kTypes).ok());
}

TEST(ParamTypesTest, RefusesNamingTheField) {
  auto r = CheckParamTypes(With("skill", 3, ""), kTypes);
  EXPECT_EQ(r.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.message().find("params.skill"), std::string::npos);
  EXPECT_NE(r.message().find("text expected"), std::string::npos);
  r = CheckParamTypes(With("miss", 0, "yes"), kTypes);
  EXPECT_NE(r.message().find("a number expected"), std::string::npos);
  r = CheckParamTypes(With("miss", 2, ""), kTypes);
  EXPECT_NE(r.message().find("0 or 1"), std::string::npos);
  r = CheckParamTypes(With("tier", -1, ""), kTypes);
  EXPECT_NE(r.message().find(">= 0"), std::string::npos);
}

}  // namespace
}  // namespace combat::kernel
