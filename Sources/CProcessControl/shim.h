#ifndef AUTHTUI_CPROCESSCONTROL_SHIM_H
#define AUTHTUI_CPROCESSCONTROL_SHIM_H

#include <sys/resource.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

// prctl is variadic, and Swift cannot call C variadic functions. Returns 0 on success, -1 where
// the system has no such switch.
static inline int authtui_set_not_dumpable(void) {
#if defined(__linux__)
  return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#else
  return -1;
#endif
}

#endif
