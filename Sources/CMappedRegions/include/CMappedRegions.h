#ifndef CMAPPEDREGIONS_H
#define CMAPPEDREGIONS_H

#include <stddef.h>

/// Guards mapped input files against being cut short while they are read.
///
/// A page of a mapping that lies past the end of a file truncated after it was mapped raises
/// SIGBUS when touched, which kills the process. A region registered here is instead given
/// zero-filled pages from the faulting page to its end, and marked cut: the reader goes on over
/// bytes that are no longer the file's, and the file's owner, told the region was cut, reports
/// the file as changed while it was read. SIGBUS outside every region keeps its earlier meaning.
///
/// The handler is written in C because it runs inside a signal: it may only touch memory
/// that needs no allocation or lazy initialisation, which Swift's globals do not promise.

/// Registers `[start, start + count)`, a read-only private mapping of a file; installs the
/// handler the first time. Returns a slot to pass to the other functions, or -1 when every slot
/// is taken (the region is then unguarded, as it was before this existed).
int relaylint_guard_region(const void *start, size_t count);

/// Whether SIGBUS replaced pages of the region in `slot` (the file was cut short under it).
int relaylint_region_was_cut(int slot);

/// Forgets the region in `slot`; call before unmapping it.
void relaylint_unguard_region(int slot);

#endif
