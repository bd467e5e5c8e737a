// EventLog::Open: the backend a URL names (store/event_log.h).
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "store/event_log.h"
#include "store/rocks_log.h"

namespace combat::store {
namespace {

constexpr char kRocksScheme[] = "rocksdb:";

struct Registry {
  std::mutex mu;
  std::map<std::string, BackendOpener> openers;
};

Registry& Backends() {
  static Registry* registry = new Registry();
  return *registry;
}

}  // namespace

bool RegisterBackend(const char* scheme, BackendOpener opener) {
  Registry& r = Backends();
  std::lock_guard<std::mutex> lock(r.mu);
  r.openers[scheme] = opener;
  return true;
}

absl::StatusOr<std::unique_ptr<EventLog>> EventLog::Open(const std::string& url,
                                                         Options options) {
  if (absl::StartsWith(url, kRocksScheme)) {
    absl::StatusOr<std::unique_ptr<RocksEventLog>> log =
        RocksEventLog::Open(url.substr(sizeof(kRocksScheme) - 1), options);
    if (!log.ok()) return log.status();
    return std::unique_ptr<EventLog>(std::move(*log));
  }
  const size_t scheme_end = url.find("://");
  if (scheme_end != std::string::npos) {
    const std::string scheme = url.substr(0, scheme_end + 3);
    BackendOpener opener = nullptr;
    {
      Registry& r = Backends();
      std::lock_guard<std::mutex> lock(r.mu);
      auto it = r.openers.find(scheme);
      if (it != r.openers.end()) opener = it->second;
    }
    if (opener != nullptr) return opener(url, options);
    if (scheme == "nats://") {
      return absl::UnimplementedError(absl::StrCat(
          "log ", url, ": the JetStream backend is not linked into this "
          "binary (depend on //store/jetstream)"));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "log ", url, ": unknown backend '", scheme,
        "'; a log is a directory path, rocksdb:PATH or "
        "nats://HOST:PORT[,HOST:PORT...][/PREFIX]"));
  }
  absl::StatusOr<std::unique_ptr<RocksEventLog>> log =
      RocksEventLog::Open(url, options);
  if (!log.ok()) return log.status();
  return std::unique_ptr<EventLog>(std::move(*log));
}

}  // namespace combat::store
