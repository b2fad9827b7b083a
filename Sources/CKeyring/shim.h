#ifndef AUTHTUI_CKEYRING_SHIM_H
#define AUTHTUI_CKEYRING_SHIM_H

// The Linux kernel key retention service, through its system calls. glibc has no wrappers
// for them, and syscall(2) is variadic, which Swift cannot call: each wrapper below calls it
// with the one argument list its operation takes. libkeyutils would give the same calls, at
// the cost of a library the build does not otherwise need.

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__linux__)
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>
// One call of the key service.
#define AUTHTUI_KEY_SYSCALL(...) syscall(__VA_ARGS__)
#else
// No key service outside Linux: every call fails as on a kernel built without one. The
// arguments, which name Linux's constants, are dropped unread.
#define AUTHTUI_KEY_SYSCALL(...) (errno = ENOSYS, -1L)
#endif

// The keyrings the calls name (KEY_SPEC_*), as constants Swift reads.
static const int32_t authtui_user_keyring = -4;     // KEY_SPEC_USER_KEYRING
static const int32_t authtui_process_keyring = -2;  // KEY_SPEC_PROCESS_KEYRING

// add_key(2): a key of `type` named `description` holding `payload`, in `keyring` (an
// existing key of that type and description there is updated). The key's serial, or -1 and
// errno.
static inline int32_t authtui_add_key(
    const char *type, const char *description, const void *payload, size_t length,
    int32_t keyring) {
  return (int32_t)AUTHTUI_KEY_SYSCALL(SYS_add_key, type, description, payload, length, keyring);
}

// keyctl(KEYCTL_GET_KEYRING_ID): the serial of `keyring` (made if the user has none yet: the
// kernel makes a user's own keyring on first use anyway); fails as every other call would
// where the key service is missing or forbidden (ENOSYS, EPERM).
static inline int32_t authtui_keyring_id(int32_t keyring) {
  return (int32_t)AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_GET_KEYRING_ID, keyring, 1);
}

// keyctl(KEYCTL_SEARCH): the serial of the key of `type` and `description` found in
// `keyring` (or a keyring linked from it), or -1 and errno (ENOKEY, EKEYEXPIRED…).
static inline int32_t authtui_search_key(
    int32_t keyring, const char *type, const char *description) {
  return (int32_t)AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_SEARCH, keyring, type, description, 0);
}

// keyctl(KEYCTL_READ): copies up to `length` bytes of the key's payload into `buffer`;
// returns the payload's whole length (more than `length` when it did not fit), or -1.
static inline long authtui_read_key(int32_t key, void *buffer, size_t length) {
  return AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_READ, key, buffer, length);
}

// keyctl(KEYCTL_SETPERM): the key's permission mask (possessor, user, group, other bytes).
static inline long authtui_set_key_permissions(int32_t key, uint32_t permissions) {
  return AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_SETPERM, key, permissions);
}

// keyctl(KEYCTL_SET_TIMEOUT): the kernel removes the key `seconds` from now (0: never).
static inline long authtui_set_key_timeout(int32_t key, unsigned int seconds) {
  return AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_SET_TIMEOUT, key, seconds);
}

// keyctl(KEYCTL_LINK): links the key into `keyring`, displacing a key of the same type and
// description there.
static inline long authtui_link_key(int32_t key, int32_t keyring) {
  return AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_LINK, key, keyring);
}

// keyctl(KEYCTL_UNLINK): removes the key from `keyring`.
static inline long authtui_unlink_key(int32_t key, int32_t keyring) {
  return AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_UNLINK, key, keyring);
}

// keyctl(KEYCTL_INVALIDATE): the key is gone at once, from every keyring that links it.
static inline long authtui_invalidate_key(int32_t key) {
  return AUTHTUI_KEY_SYSCALL(SYS_keyctl, KEYCTL_INVALIDATE, key);
}

#endif
