// zlib, for reading gzip-compressed inputs (`events.jsonl.gz`, Cloud Storage sink exports).
#include <zlib.h>
