#include "replay/bundle.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/bundle_generated.h"
#include "events/signature.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"
#include "replay/fork.h"

namespace combat::replay {
namespace {

// Format 2 adds later_secrets; a bundle without them is written as format
// 1 (readable by older builds), and both are read.
constexpr int kBundleFormat = 2;

std::vector<uint8_t> Vec(const flatbuffers::Vector<uint8_t>* v) {
  return v == nullptr ? std::vector<uint8_t>() : std::vector<uint8_t>(v->begin(), v->end());
}

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

// Every secret revealed in the branches' events (SeedRevealed), in order.
std::vector<std::vector<uint8_t>> RevealedSecrets(const Bundle& b) {
  std::vector<std::vector<uint8_t>> out;
  for (const BundleBranch& br : b.branches) {
    for (const events::EventBuffer& e : br.own) {
      if (e.event().body_type() != fb::Body::StateChange) continue;
      const auto* r = e.event().body_as_StateChange()->change_as_SeedRevealed();
      if (r != nullptr) out.push_back(Vec(r->secret()));
    }
  }
  return out;
}

}  // namespace

const BundleBranch* Bundle::Find(const std::string& branch) const {
  for (const BundleBranch& b : branches) {
    if (b.meta.branch == branch) return &b;
  }
  return nullptr;
}

absl::StatusOr<BranchSource> Bundle::Source(const std::string& name) const {
  const BundleBranch* b = Find(name);
  if (b == nullptr) {
    return absl::NotFoundError(absl::StrCat("the bundle has no branch ", name));
  }
  BranchSource s;
  s.session = meta.session;
  s.branch = name;
  s.head = b->head.seq;
  s.head_hash = b->head.hash;
  if (!b->meta.parent.empty()) s.fork = b->meta;
  s.scan = [this, name](uint64_t from, uint64_t to,
                        const std::function<absl::Status(const events::EventBuffer&)>&
                            visit) -> absl::Status {
    struct Seg {
      const BundleBranch* b;
      uint64_t lo, hi;
    };
    std::vector<Seg> segs;
    const BundleBranch* cur = Find(name);
    uint64_t limit = to;
    for (int depth = 0; cur != nullptr && limit > 0 && depth < 10000; ++depth) {
      if (limit > cur->meta.fork_seq) segs.push_back({cur, cur->meta.fork_seq + 1, limit});
      if (cur->meta.parent.empty()) break;
      limit = std::min(limit, cur->meta.fork_seq);
      cur = Find(cur->meta.parent);
    }
    std::reverse(segs.begin(), segs.end());
    for (const Seg& seg : segs) {
      for (uint64_t seq = std::max(seg.lo, from); seq <= seg.hi; ++seq) {
        const uint64_t i = seq - seg.b->meta.fork_seq - 1;
        if (i >= seg.b->own.size()) {
          return absl::DataLossError(absl::StrCat("bundle branch ", seg.b->meta.branch,
                                                  " has no event ", seq));
        }
        RETURN_IF_ERROR(visit(seg.b->own[i]));
      }
    }
    return absl::OkStatus();
  };
  return s;
}

absl::StatusOr<Bundle> ReadSession(const store::EventLog& log,
                                   const std::string& session, bool with_secret,
                                   const std::vector<std::string>& only) {
  Bundle out;
  ASSIGN_OR_RETURN(out.meta, log.GetSession(session));
  if (with_secret) {
    ASSIGN_OR_RETURN(out.secret, log.GetSecret(session));
    ASSIGN_OR_RETURN(std::vector<store::StoredSecret> stored, log.ListSecrets(session));
    for (store::StoredSecret& s : stored) {
      if (!s.first) out.later_secrets.push_back(std::move(s.secret));
    }
  }
  ASSIGN_OR_RETURN(std::vector<BranchInfo> tree, BranchTree(log, session));
  std::set<std::string> wanted(only.begin(), only.end());
  // With a selection, keep the ancestors of what is asked.
  if (!wanted.empty()) {
    std::map<std::string, std::string> parent;
    for (const BranchInfo& b : tree) parent[b.meta.branch] = b.meta.parent;
    for (const std::string& w : only) {
      if (parent.count(w) == 0) {
        return absl::NotFoundError(absl::StrCat("session ", session, " has no branch ", w));
      }
      for (std::string p = parent[w]; !p.empty(); p = parent[p]) wanted.insert(p);
    }
  }
  for (const BranchInfo& b : tree) {
    if (!wanted.empty() && wanted.count(b.meta.branch) == 0) continue;
    BundleBranch br;
    br.meta = b.meta;
    br.head = b.head;
    if (b.head.seq > b.meta.fork_seq) {
      ASSIGN_OR_RETURN(br.own, log.Read(session, b.meta.branch, b.meta.fork_seq + 1,
                                        b.head.seq));
    }
    out.branches.push_back(std::move(br));
  }
  if (!out.branches.empty() && !out.branches.front().own.empty()) {
    const fb::Event& first = out.branches.front().own.front().event();
    if (first.body_type() == fb::Body::StateChange) {
      if (const auto* s = first.body_as_StateChange()->change_as_SessionStarted()) {
        out.commitment = Vec(s->dice_commitment());
        out.schema_version = s->schema_version();
      }
    }
  }
  return out;
}

std::vector<uint8_t> EncodeBundle(const Bundle& b) {
  fb::BundleT t;
  t.format = b.later_secrets.empty() ? 1 : kBundleFormat;
  t.session = b.meta.session;
  t.title = b.meta.title;
  t.ruleset = b.meta.ruleset;
  t.ruleset_version = b.meta.ruleset_version;
  t.schema_version = b.schema_version;
  t.dice_commitment = b.commitment;
  t.secret = b.secret;
  for (const std::vector<uint8_t>& later : b.later_secrets) {
    auto one = std::make_unique<fb::BundleSecretT>();
    one->secret = later;
    t.later_secrets.push_back(std::move(one));
  }
  for (const BundleBranch& br : b.branches) {
    auto out = std::make_unique<fb::BundleBranchT>();
    out->name = br.meta.branch;
    out->parent = br.meta.parent;
    out->fork_seq = br.meta.fork_seq;
    out->author = br.meta.author;
    out->reason = br.meta.reason;
    out->head_seq = br.head.seq;
    out->head_hash.assign(br.head.hash.begin(), br.head.hash.end());
    for (const events::EventBuffer& e : br.own) {
      auto ev = std::make_unique<fb::BundleEventT>();
      ev->bytes = e.bytes();
      out->events.push_back(std::move(ev));
    }
    t.branches.push_back(std::move(out));
  }
  flatbuffers::FlatBufferBuilder fbb;
  fb::FinishBundleBuffer(fbb, fb::Bundle::Pack(fbb, &t));
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

absl::StatusOr<Bundle> DecodeBundle(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < 8 || !fb::BundleBufferHasIdentifier(bytes.data())) {
    return absl::InvalidArgumentError(
        "not a combat bundle (no \"CMBB\" file identifier)");
  }
  flatbuffers::Verifier v(bytes.data(), bytes.size(), /*max_depth=*/64,
                          /*max_tables=*/0xffffffffu);
  if (!fb::VerifyBundleBuffer(v)) {
    return absl::DataLossError("the bundle is malformed (FlatBuffers Verifier)");
  }
  const fb::Bundle* root = fb::GetBundle(bytes.data());
  if (root->format() < 1 || root->format() > kBundleFormat) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bundle format ", root->format(), ": this build reads formats 1..", kBundleFormat));
  }
  Bundle out;
  out.meta.session = S(root->session());
  out.meta.title = S(root->title());
  out.meta.ruleset = S(root->ruleset());
  out.meta.ruleset_version = root->ruleset_version();
  out.schema_version = root->schema_version();
  out.commitment = Vec(root->dice_commitment());
  out.secret = Vec(root->secret());
  if (root->later_secrets() != nullptr) {
    for (const fb::BundleSecret* later : *root->later_secrets()) {
      std::vector<uint8_t> secret = Vec(later->secret());
      if (secret.size() != 32) {
        return absl::DataLossError(absl::StrCat(
            "bundle: a later dice secret has ", secret.size(), " bytes; exactly 32"));
      }
      out.later_secrets.push_back(std::move(secret));
    }
  }
  if (!store::ValidId(out.meta.session)) {
    return absl::DataLossError(absl::StrCat("bundle: invalid session id '",
                                            out.meta.session.substr(0, 80), "'"));
  }
  if (root->branches() == nullptr || root->branches()->size() == 0) {
    return absl::DataLossError("bundle: no branches");
  }
  for (const fb::BundleBranch* b : *root->branches()) {
    BundleBranch br;
    br.meta.session = out.meta.session;
    br.meta.branch = S(b->name());
    br.meta.parent = S(b->parent());
    br.meta.fork_seq = b->fork_seq();
    br.meta.author = S(b->author());
    br.meta.reason = S(b->reason());
    br.head.seq = b->head_seq();
    const std::string where = absl::StrCat("bundle branch ", br.meta.branch);
    const std::vector<uint8_t> hash = Vec(b->head_hash());
    if (!store::ValidId(br.meta.branch) || out.Find(br.meta.branch) != nullptr) {
      return absl::DataLossError(absl::StrCat(where, ": invalid or repeated branch name"));
    }
    if (hash.size() != br.head.hash.size()) {
      return absl::DataLossError(absl::StrCat(where, ": head hash is not 32 bytes"));
    }
    std::copy(hash.begin(), hash.end(), br.head.hash.begin());
    if (out.branches.empty()) {
      if (br.meta.branch != "main" || !br.meta.parent.empty() || br.meta.fork_seq != 0) {
        return absl::DataLossError("bundle: the first branch must be main, with no parent");
      }
    } else {
      const BundleBranch* parent = out.Find(br.meta.parent);
      if (parent == nullptr || br.meta.fork_seq == 0 ||
          br.meta.fork_seq > parent->head.seq) {
        return absl::DataLossError(absl::StrCat(
            where, ": its parent '", br.meta.parent, "' must come before it and hold its "
            "fork seq ", br.meta.fork_seq));
      }
    }
    const uint64_t n = b->events() == nullptr ? 0 : b->events()->size();
    if (br.head.seq < br.meta.fork_seq || br.head.seq - br.meta.fork_seq != n) {
      return absl::DataLossError(absl::StrCat(where, ": ", n, " events for seqs ",
                                              br.meta.fork_seq + 1, "..", br.head.seq));
    }
    for (uint64_t i = 0; i < n; ++i) {
      const fb::BundleEvent* e = b->events()->Get(static_cast<flatbuffers::uoffset_t>(i));
      const auto* data = e->bytes();
      ASSIGN_OR_RETURN(
          events::EventBuffer ev,
          events::EventBuffer::FromBytes(data == nullptr ? nullptr : data->data(),
                                         data == nullptr ? 0 : data->size(),
                                         absl::StrCat(where, " seq ", br.meta.fork_seq + 1 + i)));
      br.own.push_back(std::move(ev));
    }
    out.branches.push_back(std::move(br));
  }
  return out;
}

absl::StatusOr<VerifyReport> VerifyBundle(const Bundle& bundle,
                                          const kernel::Ruleset* rules,
                                          Progress* progress) {
  VerifyOptions options;
  options.progress = progress;
  // The secret of the session's commitment (carried or revealed) and the
  // later ones (carried, or revealed in the events): each serves its epoch.
  options.secret = bundle.secret;
  options.later_secrets = bundle.later_secrets;
  for (std::vector<uint8_t>& r : RevealedSecrets(bundle)) {
    if (options.secret.empty() &&
        kernel::dice::SeededDice::Commitment(r) == bundle.commitment) {
      options.secret = std::move(r);
    } else {
      options.later_secrets.push_back(std::move(r));
    }
  }
  VerifyReport total;
  total.session = bundle.meta.session;
  total.seed_known = !options.secret.empty() || !options.later_secrets.empty();
  for (const BundleBranch& br : bundle.branches) {
    ASSIGN_OR_RETURN(BranchSource source, bundle.Source(br.meta.branch));
    ASSIGN_OR_RETURN(VerifyReport one,
                     VerifyBranchEvents(source, bundle.meta, rules, options));
    total.branches.push_back(br.meta.branch);
    total.events += one.events;
    total.commands_redecided += one.commands_redecided;
    total.seeded_dice_checked += one.seeded_dice_checked;
    for (std::string& n : one.notes) {
      if (std::find(total.notes.begin(), total.notes.end(), n) == total.notes.end()) {
        total.notes.push_back(std::move(n));
      }
    }
    if (one.mismatch.has_value()) {
      total.mismatch = std::move(one.mismatch);
      return total;
    }
    // A command id may appear once per branch (idempotent commands).
    std::map<std::string, uint64_t> seen;
    std::string last;
    for (const events::EventBuffer& e : br.own) {
      const std::string id = S(e.event().command_id());
      if (id == last) continue;
      last = id;
      auto [it, fresh] = seen.emplace(id, e.event().seq());
      if (!fresh || !store::ValidId(id)) {
        total.mismatch = Mismatch{
            "command ids", br.meta.branch, e.event().seq(),
            absl::StrCat("event #", e.event().seq(), " of branch ", br.meta.branch,
                         ": command id '", id.substr(0, 80), "' ",
                         fresh ? "is not a valid id"
                               : absl::StrCat("was already used at #", it->second)),
            ""};
        return total;
      }
    }
  }
  const BundleBranch& main = bundle.branches.front();
  if (!main.own.empty()) {
    const fb::Event& first = main.own.front().event();
    const auto* started = first.body_type() == fb::Body::StateChange
                              ? first.body_as_StateChange()->change_as_SessionStarted()
                              : nullptr;
    if (started == nullptr || Vec(started->dice_commitment()) != bundle.commitment) {
      total.mismatch = Mismatch{"bundle header", "main", 1,
                                "the bundle's dice commitment is not the one event #1 records",
                                ""};
    }
  }
  if (!bundle.secret.empty() &&
      kernel::dice::SeededDice::Commitment(bundle.secret) != bundle.commitment) {
    total.mismatch = Mismatch{"bundle header", "main", 1,
                              "the bundle's dice secret does not match the commitment", ""};
  }
  return total;
}

namespace {

// `signing_key` against the public key the session's SessionStarted chains.
absl::Status CheckSigningKey(const Bundle& bundle,
                             const std::vector<uint8_t>& signing_key) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> public_key, events::PublicKeyOf(signing_key));
  std::vector<uint8_t> chained;
  const BundleBranch* main = bundle.Find("main");
  if (main != nullptr && !main->own.empty()) {
    const fb::StateChange* sc = main->own.front().event().body_as_StateChange();
    const fb::SessionStarted* started =
        sc != nullptr ? sc->change_as_SessionStarted() : nullptr;
    if (started != nullptr && started->signing_key() != nullptr) {
      chained.assign(started->signing_key()->begin(), started->signing_key()->end());
    }
  }
  if (chained.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bundle ", bundle.meta.session, ": the signing key: the session chains "
        "no signing key (SessionStarted.signing_key is empty)"));
  }
  if (chained != public_key) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bundle ", bundle.meta.session, ": the signing key is not the session's: its "
        "public key is ", events::Hex(public_key.data(), public_key.size()),
        ", SessionStarted chains ", events::Hex(chained.data(), chained.size())));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ImportResult> ImportBundle(store::EventLog& log, const Bundle& bundle,
                                          const kernel::Ruleset* rules,
                                          Progress* progress,
                                          const std::vector<uint8_t>& signing_key) {
  ImportResult result;
  if (!signing_key.empty()) RETURN_IF_ERROR(CheckSigningKey(bundle, signing_key));
  if (auto existing = log.GetSession(bundle.meta.session); existing.ok()) {
    return absl::AlreadyExistsError(absl::StrCat(
        "session ", bundle.meta.session, " already exists in this database"));
  } else if (!absl::IsNotFound(existing.status())) {
    return existing.status();
  }
  ASSIGN_OR_RETURN(result.verify, VerifyBundle(bundle, rules, progress));
  if (!result.verify.ok()) return result;

  // One step, all or nothing, durable on return (store::EventLog::
  // ImportSession): the store repeats the chain and command-id checks;
  // canonical bytes were just checked by VerifyBundle.
  std::vector<store::ImportBranch> branches;
  branches.reserve(bundle.branches.size());
  uint64_t total = 0;
  for (const BundleBranch& br : bundle.branches) {
    branches.push_back(store::ImportBranch{br.meta, &br.own});
    total += br.own.size();
  }
  if (progress != nullptr) {
    progress->SetLabel(absl::StrCat("import ", bundle.meta.session));
    progress->SetTotal(total);
  }
  absl::StatusOr<uint64_t> written =
      log.ImportSession(bundle.meta, bundle.secret, branches,
                        store::EventLog::Canonical::kCallerChecked, signing_key,
                        bundle.later_secrets);
  if (!written.ok()) {
    // The bundle passed verification, so a refusal here is the store's
    // (its own checks, or I/O): say which bundle it was.
    return absl::Status(written.status().code(),
                        absl::StrCat("bundle ", bundle.meta.session, ": ",
                                     written.status().message()));
  }
  result.events = *written;
  if (progress != nullptr) progress->Update(result.events);
  if (progress != nullptr) progress->Finish();
  result.imported = true;
  return result;
}

}  // namespace combat::replay
