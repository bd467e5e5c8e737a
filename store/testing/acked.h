// Tests' access to <db>/COMBAT-ACKED (store/ack_log.h: records of
// "CMBA" | be32 length | payload | be32 CRC-32C).
#ifndef COMBAT_STORE_TESTING_ACKED_H_
#define COMBAT_STORE_TESTING_ACKED_H_

#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>

namespace combat::store {

inline constexpr char kAckedFile[] = "COMBAT-ACKED";

// Removes the last record of <db>/COMBAT-ACKED, as a kill -9 between a
// RocksDB write and its record leaves it (the write never acknowledged).
// Returns false when the file holds no record.
inline bool DropLastAckRecord(const std::string& db) {
  const std::string path = db + "/" + kAckedFile;
  std::string data;
  {
    std::ifstream in(path, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), {});
  }
  size_t at = 0, last = std::string::npos;
  while (at + 8 <= data.size() && data.compare(at, 4, "CMBA") == 0) {
    size_t len = 0;
    for (int i = 0; i < 4; ++i) {
      len = (len << 8) | static_cast<unsigned char>(data[at + 4 + i]);
    }
    last = at;
    at += 4 + 4 + len + 4;
  }
  if (last == std::string::npos) return false;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(last));
  return true;
}

}  // namespace combat::store

#endif  // COMBAT_STORE_TESTING_ACKED_H_
