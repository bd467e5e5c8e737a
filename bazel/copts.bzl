"""The one place for warning flags. `--config=ci` adds -Werror."""

COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-unused-parameter",
    "-Wno-missing-field-initializers",
]

# Generated FlatBuffers code is not ours to warn about.
GENERATED_COPTS = ["-Wno-unused-parameter"]
