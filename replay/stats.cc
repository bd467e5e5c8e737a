#include "replay/stats.h"

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/fold.h"

namespace combat::replay {
namespace {

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

std::string Milli(int64_t x1000) {
  const int64_t whole = x1000 / 1000;
  const int64_t frac = (x1000 < 0 ? -x1000 : x1000) % 1000;
  std::string f = absl::StrCat(frac);
  while (f.size() < 3) f = "0" + f;
  return absl::StrCat(x1000 < 0 && whole == 0 ? "-" : "", whole, ".", f);
}

std::string Provenance(fb::Provenance p) {
  switch (p) {
    case fb::Provenance::Seeded:
      return "seeded";
    case fb::Provenance::Manual:
      return "manual (physical dice)";
    case fb::Provenance::GmOverride:
      return "GM override";
  }
  return "?";
}

void RenderGroup(const ByFaces& dice, std::string* out) {
  for (const auto& [faces, f] : dice) {
    absl::StrAppend(out, "    d", faces, "  n=", f.n, "  mean ", Milli(f.MeanX1000()),
                    " (expected ", Milli(f.ExpectedX1000()), ")  chi2 ",
                    Milli(f.ChiSquareX1000()), " (", faces - 1, " df)\n      ");
    for (int v = 1; v <= faces; ++v) {
      absl::StrAppend(out, v, ":", f.counts[v - 1], v == faces ? "\n" : " ");
    }
  }
}

}  // namespace

void FaceStats::Add(int value) {
  if (value < 1 || value > faces) return;
  if (counts.size() != static_cast<size_t>(faces)) counts.assign(faces, 0);
  ++counts[value - 1];
  ++n;
  sum += value;
}

int64_t FaceStats::MeanX1000() const {
  return n == 0 ? 0 : sum * 1000 / static_cast<int64_t>(n);
}

int64_t FaceStats::ExpectedX1000() const { return (faces + 1) * 500; }

int64_t FaceStats::ChiSquareX1000() const {
  if (n == 0 || faces <= 0) return 0;
  // sum (c - n/f)^2 / (n/f) = sum (c*f - n)^2 / (n*f)
  unsigned __int128 acc = 0;
  for (uint64_t c : counts) {
    const __int128 d = static_cast<__int128>(c) * faces - static_cast<__int128>(n);
    acc += static_cast<unsigned __int128>(d * d);
  }
  acc *= 1000;
  acc /= static_cast<unsigned __int128>(n) * static_cast<unsigned>(faces);
  return acc > static_cast<unsigned __int128>(INT64_MAX) ? INT64_MAX
                                                          : static_cast<int64_t>(acc);
}

absl::StatusOr<DiceStats> CollectDiceStats(store::EventLog& log,
                                           const std::string& session,
                                           const std::string& branch,
                                           bool include_voided,
                                           const SeekOptions& seek) {
  DiceStats stats;
  stats.session = session;
  stats.branch = branch;
  stats.voided_included = include_voided;
  ASSIGN_OR_RETURN(kernel::State head, Seek(log, session, branch, 0, seek));
  RETURN_IF_ERROR(log.Scan(session, branch, 1, 0, [&](const events::EventBuffer& b) {
    const fb::Event& e = b.event();
    if (e.body_type() != fb::Body::Roll) return absl::OkStatus();
    if (kernel::IsVoided(e, head.voided)) {
      ++stats.voided_rolls;
      if (!include_voided) return absl::OkStatus();
    }
    ++stats.rolls;
    const fb::Roll* r = e.body_as_Roll();
    if (r->dice() == nullptr) return absl::OkStatus();
    std::string author = S(e.author());
    if (author.empty()) author = "system";
    for (const fb::Die* d : *r->dice()) {
      for (ByFaces* group : {&stats.all, &stats.by_author[author],
                             &stats.by_provenance[Provenance(d->provenance())]}) {
        FaceStats& f = (*group)[d->faces()];
        f.faces = d->faces();
        f.Add(d->value());
      }
    }
    return absl::OkStatus();
  }));
  return stats;
}

std::string RenderDiceStats(const DiceStats& s) {
  std::string out = absl::StrCat("dice of ", s.session, "/", s.branch, ": ", s.rolls,
                                 " rolls");
  if (s.voided_rolls != 0) {
    absl::StrAppend(&out, " (", s.voided_rolls, " voided rolls ",
                    s.voided_included ? "included" : "left out", ")");
  }
  absl::StrAppend(&out, "\n  all dice\n");
  RenderGroup(s.all, &out);
  for (const auto& [author, dice] : s.by_author) {
    absl::StrAppend(&out, "  by ", author, "\n");
    RenderGroup(dice, &out);
  }
  for (const auto& [prov, dice] : s.by_provenance) {
    absl::StrAppend(&out, "  ", prov, "\n");
    RenderGroup(dice, &out);
  }
  return out;
}

}  // namespace combat::replay
