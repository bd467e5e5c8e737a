#include "replay/progress.h"

#include <sstream>

#include "gtest/gtest.h"

namespace combat::replay {
namespace {

TEST(ProgressTest, QuietWhenDisabled) {
  std::ostringstream out;
  {
    Progress p("verify", &out, /*enabled=*/false);
    p.SetTotal(10);
    for (uint64_t i = 0; i < 5000; ++i) p.Update(i);
  }
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressTest, DrawsOneLineAndClearsIt) {
  std::ostringstream out;
  {
    Progress p("verify", &out, /*enabled=*/true);
    p.SetTotal(100);
    p.Update(1);
  }
  const std::string s = out.str();
  EXPECT_EQ(s.rfind("\rverify: 1/100 (1%)", 0), 0u) << s;
  EXPECT_EQ(s.find('\n'), std::string::npos) << "never scrolls";
  EXPECT_EQ(s.back(), '\r') << "the line is cleared at the end";
}

TEST(ProgressTest, Line) {
  EXPECT_EQ(Progress::Line("import", 5, 0, 0), "import: 5");
  EXPECT_EQ(Progress::Line("import", 50, 200, 1000), "import: 50/200 (25%) 1000/s");
}

TEST(ProgressTest, OnStderrIsOffWhenNotATerminal) {
  // Under bazel test, stderr is a file.
  EXPECT_FALSE(Progress::OnStderr("x").enabled());
}

}  // namespace
}  // namespace combat::replay
