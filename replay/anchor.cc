#include "replay/anchor.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/json_line.h"
#include "events/signature.h"
#include "events/status_macros.h"

namespace combat::replay {
namespace {

std::optional<std::vector<uint8_t>> BytesFromHex(absl::string_view hex,
                                                 size_t bytes) {
  return events::FromHex(hex, bytes);
}

// main#1's SessionStarted.signing_key (empty when none).
absl::StatusOr<std::vector<uint8_t>> RecordedPublicKey(
    const store::EventLog& log, const std::string& session) {
  ASSIGN_OR_RETURN(std::vector<events::EventBuffer> first,
                   log.Read(session, "main", 1, 1));
  std::vector<uint8_t> key;
  if (first.empty()) return key;
  const fb::StateChange* sc = first.front().event().body_as_StateChange();
  const fb::SessionStarted* started =
      sc != nullptr ? sc->change_as_SessionStarted() : nullptr;
  if (started != nullptr && started->signing_key() != nullptr) {
    key.assign(started->signing_key()->begin(), started->signing_key()->end());
  }
  return key;
}

Mismatch Anchor(const PublishedHead& p, std::string summary) {
  return Mismatch{"anchor", p.branch, p.seq, std::move(summary),
                  absl::StrCat("    published head: ", p.session, " ", p.branch,
                               " #", p.seq, " ", events::Hex(p.hash), "\n")};
}

}  // namespace

std::string HeadMessage(const PublishedHead& h) {
  return absl::StrCat("combat-head-v1\n", h.session, "\n", h.branch, "\n",
                      h.seq, "\n", events::Hex(h.hash));
}

absl::Status SignHeads(const store::EventLog& log, const std::string& session,
                       std::vector<PublishedHead>& heads) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> key, log.GetSigningKey(session));
  if (key.empty()) return absl::OkStatus();
  for (PublishedHead& h : heads) {
    ASSIGN_OR_RETURN(h.signature, events::Sign(key, HeadMessage(h)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<PublishedHead>> ReadHeads(
    const store::EventLog& log, const std::string& session) {
  ASSIGN_OR_RETURN(std::vector<store::BranchMeta> branches,
                   log.ListBranches(session));
  std::vector<PublishedHead> out;
  for (const store::BranchMeta& b : branches) {
    ASSIGN_OR_RETURN(store::Head head, log.GetHead(session, b.branch));
    out.push_back({session, b.branch, head.seq, head.hash});
  }
  return out;
}

std::string RenderHeads(const std::vector<PublishedHead>& heads, bool json) {
  std::string out;
  if (!json) {
    for (const PublishedHead& h : heads) {
      absl::StrAppend(&out, "head ", h.session, " ", h.branch, " ", h.seq, " ",
                      events::Hex(h.hash));
      if (!h.signature.empty()) absl::StrAppend(&out, " ", events::Hex(h.signature));
      absl::StrAppend(&out, "\n");
    }
    return out;
  }
  // JSON Lines: one head per line, every field present ("" when unsigned).
  for (const PublishedHead& h : heads) {
    out += "{\"session\":";
    events::AppendJsonString(h.session, &out);
    out += ",\"branch\":";
    events::AppendJsonString(h.branch, &out);
    absl::StrAppend(&out, ",\"seq\":", h.seq, ",\"hash\":\"", events::Hex(h.hash),
                    "\",\"signature\":\"", events::Hex(h.signature), "\"}\n");
  }
  return out;
}

absl::StatusOr<std::vector<PublishedHead>> ParseHeads(absl::string_view text) {
  std::vector<PublishedHead> out;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::vector<absl::string_view> w = absl::StrSplit(line, ' ', absl::SkipEmpty());
    PublishedHead h;
    std::optional<std::vector<uint8_t>> d, sig;
    if (w.size() == 5 || w.size() == 6) d = BytesFromHex(w[4], 32);
    if (w.size() == 6) sig = BytesFromHex(w[5], 64);
    if ((w.size() != 5 && w.size() != 6) || w[0] != "head" ||
        !absl::SimpleAtoi(w[3], &h.seq) || !d.has_value() ||
        (w.size() == 6 && !sig.has_value())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "heads line ", line_no, ": '", line,
          "': expected 'head <session> <branch> <seq> <hash: 64 lower-case "
          "hex> [<signature: 128 lower-case hex>]' (as `combat head` prints)"));
    }
    h.session = std::string(w[1]);
    h.branch = std::string(w[2]);
    std::copy(d->begin(), d->end(), h.hash.begin());
    if (sig.has_value()) h.signature = *sig;
    out.push_back(std::move(h));
  }
  return out;
}

absl::StatusOr<std::optional<Mismatch>> CheckAgainst(
    const store::EventLog& log, const std::string& session,
    const std::vector<PublishedHead>& heads) {
  ASSIGN_OR_RETURN(std::vector<store::BranchMeta> branches,
                   log.ListBranches(session));
  ASSIGN_OR_RETURN(std::vector<uint8_t> public_key,
                   RecordedPublicKey(log, session));
  for (const PublishedHead& p : heads) {
    if (p.session != session) continue;
    if (!p.signature.empty() &&
        !events::SignatureValid(public_key, HeadMessage(p), p.signature)) {
      return Anchor(p, absl::StrCat(
          "signature: the head published for branch ", p.branch, " #", p.seq,
          public_key.empty()
              ? " is signed but the session records no signing key "
                "(SessionStarted.signing_key)"
              : " does not verify against SessionStarted.signing_key"));
    }
    bool found = false;
    for (const store::BranchMeta& b : branches) found |= b.branch == p.branch;
    if (!found) {
      return Anchor(p, absl::StrCat("branch ", p.branch, " had a published head at #",
                                    p.seq, " but is gone from the log"));
    }
    ASSIGN_OR_RETURN(store::Head head, log.GetHead(session, p.branch));
    if (head.seq < p.seq) {
      return Anchor(p, absl::StrCat(
          "rollback: branch ", p.branch, " ends at #", head.seq,
          " but a head published earlier is #", p.seq, ": events #",
          head.seq + 1, "..#", p.seq, " were removed"));
    }
    if (p.seq == 0) continue;
    ASSIGN_OR_RETURN(std::vector<events::EventBuffer> at,
                     log.Read(session, p.branch, p.seq, p.seq));
    const events::Digest now = at.empty() ? events::Digest{} : at.front().hash();
    if (now != p.hash) {
      return Anchor(p, absl::StrCat(
          "rewrite: event #", p.seq, " of branch ", p.branch, " hashes to ",
          events::Hex(now), " but the head published earlier is ",
          events::Hex(p.hash), ": an event at or before #", p.seq,
          " was changed and the chain rebuilt"));
    }
  }
  return std::optional<Mismatch>();
}

}  // namespace combat::replay
