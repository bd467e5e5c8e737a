// A gtest fixture for JetStream log tests on one real nats-server: the node
// is started once per test suite (Cluster::Start(1), bounded) and stopped
// after it; each test has a stream of its own, named by the test.
//
// Not thread-safe across suites run in parallel in one process (gtest runs
// suites one after another).
#ifndef COMBAT_STORE_JETSTREAM_TESTING_ONE_NODE_H_
#define COMBAT_STORE_JETSTREAM_TESTING_ONE_NODE_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "store/event_log.h"
#include "store/jetstream/testing/cluster.h"

namespace combat::store::jetstream::testing {

class OneNodeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto c = Cluster::Start(1);
    ASSERT_TRUE(c.ok()) << c.status();
    cluster_ = c->release();
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  // The URL of this test's own stream (prefix = the test's name), with
  // `params` ("replicas=1": one node holds every replica).
  static std::string Url(const std::string& params = "replicas=1") {
    return cluster_->Url(absl::StrCat(
        "/", ::testing::UnitTest::GetInstance()->current_test_info()->name(), "?", params));
  }
  // Opens `url`; nullptr (and a test failure) when it cannot.
  static std::unique_ptr<EventLog> OpenLog(const std::string& url, Options o = {}) {
    auto log = EventLog::Open(url, o);
    EXPECT_TRUE(log.ok()) << log.status();
    return log.ok() ? *std::move(log) : nullptr;
  }
  static inline Cluster* cluster_ = nullptr;
};

}  // namespace combat::store::jetstream::testing

#endif  // COMBAT_STORE_JETSTREAM_TESTING_ONE_NODE_H_
