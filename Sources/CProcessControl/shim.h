#ifndef AUTHTUI_CPROCESSCONTROL_SHIM_H
#define AUTHTUI_CPROCESSCONTROL_SHIM_H

#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>

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

// The GNU posix_spawn extensions are declared only under _GNU_SOURCE, which the Glibc module is
// built without; glibc has had both since 2.34 (Debian 12 ships 2.36).
// POSIX_SPAWN_SETSID: the child calls setsid() before exec, as a daemon does.
static inline short authtui_spawn_setsid_flag(void) { return 0x80; }
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
// Closes every descriptor from `from` up in the child of `actions` (a
// posix_spawn_file_actions_t), after its other file actions.
static inline int authtui_spawn_close_from(void *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
}

// accept4 is declared only under _GNU_SOURCE too (Linux has had it since 2.6.28): a connection
// made close-on-exec and non-blocking by the accept itself, without two fcntl calls after it.
extern int accept4(int, struct sockaddr *, socklen_t *, int);
static inline int authtui_accept_cloexec_nonblock(int listener) {
  return accept4(listener, 0, 0, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

#endif
