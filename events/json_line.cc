#include "events/json_line.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "flatbuffers/idl.h"

namespace combat::events {
namespace {

using flatbuffers::BaseType;
using flatbuffers::FieldDef;
using flatbuffers::StructDef;
using flatbuffers::Type;

// The length of the valid UTF-8 sequence at `s[i]`, or 0 if there is none.
size_t Utf8Length(absl::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t c = b(0);
  size_t n;
  uint8_t lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(1) < lo || b(1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (b(k) < 0x80 || b(k) > 0xBF) return 0;
  }
  return n;
}

constexpr char kHex[] = "0123456789abcdef";

class Writer {
 public:
  explicit Writer(std::string* out) : out_(*out) {}

  void Table(const StructDef& def, const flatbuffers::Table* t) {
    out_.push_back('{');
    bool first = true;
    for (const FieldDef* f : def.fields.vec) {
      if (f->deprecated) continue;
      if (!first) out_.push_back(',');
      first = false;
      AppendJsonString(f->name, &out_);
      out_.push_back(':');
      TableField(def, *f, t);
    }
    out_.push_back('}');
  }

  void Struct(const StructDef& def, const uint8_t* p) {
    out_.push_back('{');
    bool first = true;
    for (const FieldDef* f : def.fields.vec) {
      if (!first) out_.push_back(',');
      first = false;
      AppendJsonString(f->name, &out_);
      out_.push_back(':');
      Inline(f->value.type, p + f->value.offset);
    }
    out_.push_back('}');
  }

 private:
  static const uint8_t* Deref(const uint8_t* p) {
    return p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p);
  }

  void TableField(const StructDef& def, const FieldDef& f,
                  const flatbuffers::Table* t) {
    const Type& type = f.value.type;
    const uint8_t* p = t->GetAddressOf(f.value.offset);
    switch (type.base_type) {
      case flatbuffers::BASE_TYPE_STRING:
        if (p == nullptr) {
          out_ += "\"\"";
        } else {
          String(Deref(p));
        }
        return;
      case flatbuffers::BASE_TYPE_VECTOR:
        if (p == nullptr) {
          out_ += IsHexBytes(type) ? "\"\"" : "[]";
        } else {
          Vector(type, Deref(p));
        }
        return;
      case flatbuffers::BASE_TYPE_STRUCT:
        if (p == nullptr) {
          out_ += "null";
        } else if (type.struct_def->fixed) {
          Struct(*type.struct_def, p);
        } else {
          Table(*type.struct_def,
                reinterpret_cast<const flatbuffers::Table*>(Deref(p)));
        }
        return;
      case flatbuffers::BASE_TYPE_UNION:
        Union(def, f, t, p);
        return;
      default:
        if (p == nullptr) {
          Default(type, f.value.constant);
        } else {
          Inline(type, p);
        }
    }
  }

  void Union(const StructDef& def, const FieldDef& f,
             const flatbuffers::Table* t, const uint8_t* p) {
    const FieldDef* tag =
        def.fields.Lookup(f.name + flatbuffers::UnionTypeFieldSuffix());
    const int64_t which =
        tag == nullptr ? 0 : t->GetField<uint8_t>(tag->value.offset, 0);
    const flatbuffers::EnumVal* v = f.value.type.enum_def->ReverseLookup(which, true);
    if (p == nullptr || v == nullptr || v->union_type.struct_def == nullptr) {
      out_ += "null";
      return;
    }
    Table(*v->union_type.struct_def,
          reinterpret_cast<const flatbuffers::Table*>(Deref(p)));
  }

  // [ubyte] that is not an enum: printed as hex.
  static bool IsHexBytes(const Type& type) {
    return type.element == flatbuffers::BASE_TYPE_UCHAR &&
           type.enum_def == nullptr;
  }

  void Vector(const Type& type, const uint8_t* vec) {
    const auto n = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(vec);
    const uint8_t* e = vec + sizeof(flatbuffers::uoffset_t);
    if (IsHexBytes(type)) {
      out_.push_back('"');
      for (size_t i = 0; i < n; ++i) {
        out_.push_back(kHex[e[i] >> 4]);
        out_.push_back(kHex[e[i] & 15]);
      }
      out_.push_back('"');
      return;
    }
    const Type elem = type.VectorType();
    const bool by_offset = elem.base_type == flatbuffers::BASE_TYPE_STRING ||
                           flatbuffers::IsTable(elem);
    const size_t step =
        by_offset ? sizeof(flatbuffers::uoffset_t) : flatbuffers::InlineSize(elem);
    out_.push_back('[');
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) out_.push_back(',');
      const uint8_t* p = e + i * step;
      if (elem.base_type == flatbuffers::BASE_TYPE_STRING) {
        String(Deref(p));
      } else if (flatbuffers::IsTable(elem)) {
        Table(*elem.struct_def,
              reinterpret_cast<const flatbuffers::Table*>(Deref(p)));
      } else {
        Inline(elem, p);
      }
    }
    out_.push_back(']');
  }

  void String(const uint8_t* s) {
    const auto n = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(s);
    AppendJsonString(
        absl::string_view(reinterpret_cast<const char*>(s + sizeof(n)), n),
        &out_);
  }

  // A value stored in place: a scalar, a struct, or a fixed array.
  void Inline(const Type& type, const uint8_t* p) {
    using flatbuffers::ReadScalar;
    switch (type.base_type) {
      case flatbuffers::BASE_TYPE_STRUCT:
        Struct(*type.struct_def, p);
        return;
      case flatbuffers::BASE_TYPE_ARRAY: {
        const Type elem = type.VectorType();
        out_.push_back('[');
        for (size_t i = 0; i < type.fixed_length; ++i) {
          if (i > 0) out_.push_back(',');
          Inline(elem, p + i * flatbuffers::InlineSize(elem));
        }
        out_.push_back(']');
        return;
      }
      case flatbuffers::BASE_TYPE_BOOL:
        out_ += ReadScalar<uint8_t>(p) != 0 ? "true" : "false";
        return;
      case flatbuffers::BASE_TYPE_FLOAT:
        Float(ReadScalar<float>(p));
        return;
      case flatbuffers::BASE_TYPE_DOUBLE:
        Float(ReadScalar<double>(p));
        return;
      case flatbuffers::BASE_TYPE_ULONG:
        Integer(type, static_cast<int64_t>(ReadScalar<uint64_t>(p)),
                absl::StrCat(ReadScalar<uint64_t>(p)));
        return;
      default: {
        int64_t v = 0;
        switch (type.base_type) {
          case flatbuffers::BASE_TYPE_UTYPE:
          case flatbuffers::BASE_TYPE_UCHAR: v = ReadScalar<uint8_t>(p); break;
          case flatbuffers::BASE_TYPE_CHAR: v = ReadScalar<int8_t>(p); break;
          case flatbuffers::BASE_TYPE_SHORT: v = ReadScalar<int16_t>(p); break;
          case flatbuffers::BASE_TYPE_USHORT: v = ReadScalar<uint16_t>(p); break;
          case flatbuffers::BASE_TYPE_INT: v = ReadScalar<int32_t>(p); break;
          case flatbuffers::BASE_TYPE_UINT: v = ReadScalar<uint32_t>(p); break;
          case flatbuffers::BASE_TYPE_LONG: v = ReadScalar<int64_t>(p); break;
          default: out_ += "null"; return;
        }
        Integer(type, v, absl::StrCat(v));
      }
    }
  }

  // A scalar absent from a table: its schema default.
  void Default(const Type& type, const std::string& constant) {
    if (type.base_type == flatbuffers::BASE_TYPE_BOOL) {
      out_ += constant == "0" || constant == "false" ? "false" : "true";
    } else if (flatbuffers::IsFloat(type.base_type)) {
      double d = 0;
      Float(absl::SimpleAtod(constant, &d) ? d : NAN);
    } else if (type.base_type == flatbuffers::BASE_TYPE_ULONG) {
      uint64_t u = 0;
      (void)absl::SimpleAtoi(constant, &u);
      Integer(type, static_cast<int64_t>(u), absl::StrCat(u));
    } else {
      int64_t v = 0;
      (void)absl::SimpleAtoi(constant, &v);
      Integer(type, v, absl::StrCat(v));
    }
  }

  // An enum by name (when the value has one), else the number.
  void Integer(const Type& type, int64_t value, const std::string& number) {
    if (type.enum_def != nullptr) {
      const flatbuffers::EnumVal* v = type.enum_def->ReverseLookup(value, false);
      if (v != nullptr) {
        AppendJsonString(v->name, &out_);
        return;
      }
    }
    out_ += number;
  }

  void Float(double d) {
    if (!std::isfinite(d)) {
      out_ += "null";
    } else {
      out_ += absl::StrCat(d);
    }
  }

  std::string& out_;
};

}  // namespace

void AppendJsonString(absl::string_view text, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x80) {
      const size_t n = Utf8Length(text, i);
      if (n == 0) {
        *out += "\\ufffd";
        ++i;
      } else {
        out->append(text.data() + i, n);
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\t': *out += "\\t"; break;
      case '\r': *out += "\\r"; break;
      case '\b': *out += "\\b"; break;
      case '\f': *out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          *out += "\\u00";
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

void AppendTableJson(const flatbuffers::StructDef& def, const uint8_t* table,
                     std::string* out) {
  Writer(out).Table(def, reinterpret_cast<const flatbuffers::Table*>(table));
}

}  // namespace combat::events
