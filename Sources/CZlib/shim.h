// zlib, for reading gzip-compressed inputs (`events.jsonl.gz`, Cloud Storage sink exports).
#include <zlib.h>

// `inflateInit2` is a macro, which Swift does not import: this starts a stream that reads one
// gzip member (15 bits of window, plus 16 for the gzip header and trailer).
static inline int relaylint_inflateInitGzip(z_streamp stream) { return inflateInit2(stream, 15 + 16); }
