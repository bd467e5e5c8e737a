// The text of the .fbs schemas, compiled into the binary so that JSON input
// and output need no files at run time.
#ifndef COMBAT_EVENTS_SCHEMA_TEXT_H_
#define COMBAT_EVENTS_SCHEMA_TEXT_H_

#include <vector>

namespace combat::events {

struct SchemaFile {
  const char* name;  // "events.fbs"
  const char* text;  // the whole file
};

// Every schema file, in include order (common.fbs first).
const std::vector<SchemaFile>& SchemaFiles();

}  // namespace combat::events

#endif  // COMBAT_EVENTS_SCHEMA_TEXT_H_
