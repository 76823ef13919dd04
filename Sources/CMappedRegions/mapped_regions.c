#include "CMappedRegions.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Enough for every input of a run, `merge` of 4,096 partials mapped at once included; each
// mapped file holds a slot only while it is read. The handler's scan of them runs only on SIGBUS.
#define REGION_SLOTS 8192

struct region {
    _Atomic(uintptr_t) start;  // 0: the slot is free
    _Atomic(uintptr_t) end;
    atomic_int cut;
};

static struct region regions[REGION_SLOTS];
static struct sigaction previous_action;
static uintptr_t page_size;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_bus_error(int signal_number, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        uintptr_t start = atomic_load(&regions[slot].start);
        uintptr_t end = atomic_load(&regions[slot].end);
        if (start == 0 || address < start || address >= end) continue;
        uintptr_t page = address & ~(page_size - 1);
        // Zero pages over the rest of the mapping: mmap is a plain system call, safe here.
        void *zeros = mmap((void *)page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros != MAP_FAILED) {
            atomic_store(&regions[slot].cut, 1);
            return;  // the faulting read runs again, over zeros
        }
        break;
    }
    // Not a region of ours: put the earlier disposition back; the faulting instruction runs
    // again and raises the signal to it (the default one ends the process, as before).
    sigaction(SIGBUS, &previous_action, NULL);
    (void)signal_number;
    (void)context;
}

static void install(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous_action);
}

int relaylint_guard_region(const void *start, size_t count) {
    if (start == NULL || count == 0) return -1;
    pthread_once(&install_once, install);
    pthread_mutex_lock(&slot_lock);
    int found = -1;
    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        if (atomic_load(&regions[slot].start) != 0) continue;
        atomic_store(&regions[slot].cut, 0);
        atomic_store(&regions[slot].end, (uintptr_t)start + count);
        atomic_store(&regions[slot].start, (uintptr_t)start);
        found = slot;
        break;
    }
    pthread_mutex_unlock(&slot_lock);
    return found;
}

int relaylint_region_was_cut(int slot) {
    if (slot < 0 || slot >= REGION_SLOTS) return 0;
    return atomic_load(&regions[slot].cut);
}

void relaylint_unguard_region(int slot) {
    if (slot < 0 || slot >= REGION_SLOTS) return;
    pthread_mutex_lock(&slot_lock);
    atomic_store(&regions[slot].start, 0);
    atomic_store(&regions[slot].end, 0);
    pthread_mutex_unlock(&slot_lock);
}
