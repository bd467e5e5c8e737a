#include "events/codec.h"

#include <algorithm>

#include <cstring>

#include "absl/strings/str_cat.h"

namespace combat::events {
namespace {

// The Verifier accepts a union whose type is set without a value (the
// generated Pack then dereferences null), a value without a type, and a
// type this schema does not know. None is a well-formed event.
bool UnionOk(bool has_value, uint8_t type, uint8_t max) {
  return has_value ? (type != 0 && type <= max) : type == 0;
}

bool UnionsOk(const fb::Event& e) {
  if (!UnionOk(e.body() != nullptr, static_cast<uint8_t>(e.body_type()),
               static_cast<uint8_t>(fb::Body::MAX))) {
    return false;
  }
  const fb::StateChange* sc = e.body_as_StateChange();
  return sc == nullptr || UnionOk(sc->change() != nullptr,
                                  static_cast<uint8_t>(sc->change_type()),
                                  static_cast<uint8_t>(fb::Change::MAX));
}

// Packs `event` into this thread's builder (reused: a cleared builder
// writes the same bytes as a fresh one, since FlatBuffers lays data out from
// the end of the buffer) and returns it, valid until the next call.
const flatbuffers::FlatBufferBuilder& Pack(const fb::EventT& event) {
  thread_local flatbuffers::FlatBufferBuilder fbb(1024);
  fbb.Clear();
  fbb.Finish(fb::Event::Pack(fbb, &event), fb::EventIdentifier());
  return fbb;
}

}  // namespace

std::vector<uint8_t> EncodeEvent(const fb::EventT& event) {
  const flatbuffers::FlatBufferBuilder& fbb = Pack(event);
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

absl::StatusOr<EventBuffer> EventBuffer::FromOwned(std::vector<uint8_t> bytes,
                                                   absl::string_view context) {
  if (bytes.size() < 8 || !fb::EventBufferHasIdentifier(bytes.data())) {
    return absl::DataLossError(
        absl::StrCat(context, ": not an event (", bytes.size(),
                     " bytes, no CMBE identifier)"));
  }
  flatbuffers::Verifier v(bytes.data(), bytes.size(), 64, 100000);
  if (!fb::VerifyEventBuffer(v)) {
    return absl::DataLossError(
        absl::StrCat(context, ": event bytes fail the FlatBuffers Verifier"));
  }
  if (!UnionsOk(*fb::GetEvent(bytes.data()))) {
    return absl::DataLossError(
        absl::StrCat(context,
                     ": event union type and value do not match (or the type "
                     "is unknown)"));
  }
  return EventBuffer(std::move(bytes));
}

absl::StatusOr<EventBuffer> EventBuffer::FromBytes(const void* data,
                                                   size_t size,
                                                   absl::string_view context) {
  // std::vector's storage comes from operator new: aligned for any scalar.
  // Built from the range: one copy, no zero-fill before it.
  const auto* first = static_cast<const uint8_t*>(data);
  return FromOwned(std::vector<uint8_t>(first, first + size), context);
}

absl::Status EventBuffer::SetStateHash(const Digest& state_hash) {
  const flatbuffers::Vector<uint8_t>* field = event().state_hash();
  if (field == nullptr || field->size() != state_hash.size()) {
    return absl::FailedPreconditionError(
        "SetStateHash: the event carries no 32-byte state_hash to overwrite");
  }
  const size_t offset = static_cast<size_t>(field->Data() - bytes_.data());
  std::copy(state_hash.begin(), state_hash.end(), bytes_.begin() + offset);
  hash_.reset();  // the bytes changed
  return absl::OkStatus();
}

absl::Status EventBuffer::CheckCanonical(absl::string_view context) const {
  fb::EventT object;
  event().UnPackTo(&object);
  const flatbuffers::FlatBufferBuilder& fbb = Pack(object);
  if (fbb.GetSize() != bytes_.size() ||
      std::memcmp(fbb.GetBufferPointer(), bytes_.data(), bytes_.size()) != 0) {
    return absl::DataLossError(
        absl::StrCat(context, ": event bytes are not canonical"));
  }
  return absl::OkStatus();
}

Digest CommandContentHash(const fb::CommandT& command) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Command::Pack(fbb, &command));
  return Sha256(fbb.GetBufferPointer(), fbb.GetSize());
}

Digest MarkerContent(absl::Span<const EventBuffer> events) {
  for (const EventBuffer& e : events) {
    const fb::Command* recorded = nullptr;
    if (const auto* d = e.event().body_as_Declaration(); d != nullptr) {
      recorded = d->command();
    } else if (const auto* in = e.event().body_as_Interrupt(); in != nullptr) {
      recorded = in->command();
    }
    if (recorded == nullptr) continue;
    fb::CommandT command;
    recorded->UnPackTo(&command);
    return CommandContentHash(command);
  }
  return events.empty() ? Digest{} : events.front().hash();
}

}  // namespace combat::events
