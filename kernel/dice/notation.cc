#include "kernel/dice/notation.h"

#include <cctype>
#include <cstddef>

#include "absl/strings/str_cat.h"

namespace combat::kernel::dice {
namespace {

constexpr int kMaxDice = 100;
constexpr int kMaxFaces = 1000;
constexpr size_t kMaxTerms = 8;
constexpr int64_t kMaxConstant = 1000000;

// One significant (non-space) character and where it stood in the input.
struct Char {
  char c;      // lower-cased
  size_t pos;  // 0-based offset into the original text
};

class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {
    for (size_t i = 0; i < text.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(text[i]);
      if (std::isspace(c)) continue;
      chars_.push_back({static_cast<char>(std::tolower(c)), i});
    }
  }

  absl::StatusOr<DiceExpr> Parse() {
    DiceExpr expr;
    size_t terms = 0;
    int sign = 1;
    while (true) {
      if (++terms > kMaxTerms) {
        return Error(absl::StrCat("at most ", kMaxTerms, " terms"));
      }
      absl::Status s = ParseTerm(sign, expr);
      if (!s.ok()) return s;
      if (AtEnd()) break;
      if (Peek() == '+') {
        sign = 1;
      } else if (Peek() == '-') {
        sign = -1;
      } else {
        return Error("'+', '-' or the end of the expression");
      }
      ++at_;
    }
    return expr;
  }

 private:
  bool AtEnd() const { return at_ >= chars_.size(); }
  char Peek() const { return AtEnd() ? '\0' : chars_[at_].c; }
  bool IsDigit() const {
    return !AtEnd() && std::isdigit(static_cast<unsigned char>(Peek()));
  }

  // InvalidArgument naming the position, what was expected and what was
  // found there.
  absl::Status ErrorAt(size_t pos, absl::string_view expected,
                       absl::string_view found) const {
    return absl::InvalidArgumentError(
        absl::StrCat("dice notation \"", text_, "\": at position ", pos,
                     ": expected ", expected, ", found ", found));
  }
  absl::Status Error(absl::string_view expected) const {
    if (AtEnd()) return ErrorAt(text_.size(), expected, "the end of the input");
    return ErrorAt(chars_[at_].pos, expected,
                   absl::StrCat("'", std::string(1, Peek()), "'"));
  }

  // Reads the digits at the current position (the caller has checked
  // IsDigit()) as a number in [min, max]; `what` names it in errors.
  absl::Status Number(int64_t min, int64_t max, absl::string_view what,
                      int64_t* out) {
    const size_t pos = chars_[at_].pos;
    std::string digits;
    int64_t v = 0;
    bool too_big = false;
    while (IsDigit()) {
      digits.push_back(Peek());
      if (!too_big) v = v * 10 + (Peek() - '0');
      if (v > kMaxConstant) too_big = true;
      ++at_;
    }
    if (too_big || v < min || v > max) {
      return ErrorAt(pos, absl::StrCat(what, " from ", min, " to ", max),
                     digits);
    }
    *out = v;
    return absl::OkStatus();
  }

  absl::Status ParseTerm(int sign, DiceExpr& expr) {
    const bool first = expr.text.empty();
    if (!IsDigit() && Peek() != 'd') return Error("a number or 'd'");
    int64_t n = 1;
    if (IsDigit()) {
      const size_t pos = chars_[at_].pos;
      absl::Status s = Number(0, kMaxConstant, "a number", &n);
      if (!s.ok()) return s;
      if (Peek() != 'd') {  // a constant
        expr.modifier += sign * n;
        absl::StrAppend(&expr.text, first ? "" : (sign > 0 ? "+" : "-"), n);
        return absl::OkStatus();
      }
      if (n < 1 || n > kMaxDice) {
        return ErrorAt(pos, absl::StrCat("a dice count from 1 to ", kMaxDice),
                       absl::StrCat(n));
      }
    }
    ++at_;  // 'd'
    DiceTerm term;
    term.sign = sign;
    term.count = static_cast<int>(n);
    if (!IsDigit()) return Error("the number of faces after 'd'");
    int64_t v = 0;
    absl::Status s = Number(1, kMaxFaces, "a number of faces", &v);
    if (!s.ok()) return s;
    term.faces = static_cast<int>(v);
    if (Peek() == 'k') {
      ++at_;
      char which = Peek();
      if (which != 'h' && which != 'l') return Error("'h' or 'l' after 'k'");
      ++at_;
      if (!IsDigit()) return Error("the number of dice to keep");
      s = Number(1, term.count, "a number of dice to keep", &v);
      if (!s.ok()) return s;
      (which == 'h' ? term.keep_high : term.keep_low) = static_cast<int>(v);
    }
    if (Peek() == '!') {
      if (term.faces == 1) return Error("no '!' (a d1 cannot explode)");
      term.explode = true;
      ++at_;
    }
    if (Peek() == '>') {
      ++at_;
      if (Peek() != '=') return Error("'=' after '>'");
      ++at_;
      if (!IsDigit()) return Error("a success threshold after '>='");
      s = Number(1, term.faces, "a success threshold", &v);
      if (!s.ok()) return s;
      term.pool_at = static_cast<int>(v);
    }
    absl::StrAppend(&expr.text, first ? "" : (sign > 0 ? "+" : "-"), term.count,
                    "d", term.faces);
    if (term.keep_high > 0) absl::StrAppend(&expr.text, "kh", term.keep_high);
    if (term.keep_low > 0) absl::StrAppend(&expr.text, "kl", term.keep_low);
    if (term.explode) absl::StrAppend(&expr.text, "!");
    if (term.pool_at > 0) absl::StrAppend(&expr.text, ">=", term.pool_at);
    expr.terms.push_back(term);
    return absl::OkStatus();
  }

  absl::string_view text_;
  std::vector<Char> chars_;
  size_t at_ = 0;
};

}  // namespace

absl::StatusOr<DiceExpr> ParseDice(absl::string_view text) {
  return Parser(text).Parse();
}

}  // namespace combat::kernel::dice
