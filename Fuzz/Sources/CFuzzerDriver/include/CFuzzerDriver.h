#ifndef RELAYLINT_CFUZZERDRIVER_H
#define RELAYLINT_CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked with -sanitize=fuzzer): parses libFuzzer's flags and
/// runs `callback` on each input. Called from the fuzz targets' own `main`, which SwiftPM needs
/// (it links an executable's entry point by the module's name).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
