#ifndef AUTHTUI_CNCURSESW_SHIM_H
#define AUTHTUI_CNCURSESW_SHIM_H

// The wide-character API is only declared with NCURSES_WIDECHAR; SwiftPM's pkg-config path would drop it.
#define NCURSES_WIDECHAR 1
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <ncurses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
// term.h (setupterm) defines terminfo capability names such as `lines` and `columns` as macros;
// nothing below may use those words as identifiers.
#include <term.h>

// stdscr is a global mutable variable, which Swift 6 refuses to touch from concurrent code.
static inline WINDOW *authtui_stdscr(void) { return stdscr; }

// COLS and LINES are global mutable variables, which Swift 6 refuses to touch from concurrent code.
static inline int authtui_cols(void) { return COLS; }

// COLS and LINES are global mutable variables, which Swift 6 refuses to touch from concurrent code.
static inline int authtui_lines(void) { return LINES; }

// COLORS is a global mutable variable, which Swift 6 refuses to touch from concurrent code.
static inline int authtui_colors(void) { return COLORS; }

// COLOR_PAIRS is a global mutable variable, which Swift 6 refuses to touch from concurrent code.
static inline int authtui_color_pairs(void) { return COLOR_PAIRS; }

// A_BOLD and friends are macros built from NCURSES_BITS shifts, which Swift does not import.
static inline attr_t authtui_attr_bold(void) { return A_BOLD; }

// A_BOLD and friends are macros built from NCURSES_BITS shifts, which Swift does not import.
static inline attr_t authtui_attr_underline(void) { return A_UNDERLINE; }

// A_BOLD and friends are macros built from NCURSES_BITS shifts, which Swift does not import.
static inline attr_t authtui_attr_reverse(void) { return A_REVERSE; }

// A_BOLD and friends are macros built from NCURSES_BITS shifts, which Swift does not import.
static inline attr_t authtui_attr_dim(void) { return A_DIM; }

// A_BOLD and friends are macros built from NCURSES_BITS shifts, which Swift does not import.
static inline attr_t authtui_attr_italic(void) { return A_ITALIC; }

// KEY_F(n) is a function-like macro, which Swift does not import.
static inline int authtui_key_f(int n) { return KEY_F(n); }

// getmaxyx is a macro that assigns to its arguments, which Swift cannot express.
static inline void authtui_getmaxyx(WINDOW *window, int *out_rows, int *out_cols) {
  getmaxyx(window, *out_rows, *out_cols);
}

// wcwidth is declared only under _XOPEN_SOURCE, which Swift's Glibc module is built without.
static inline int authtui_wcwidth(wchar_t character) { return wcwidth(character); }

// True when the current terminal (the last setupterm's) can move its cursor to a given place
// (`cup`). TERM=dumb cannot: curses would draw every row on the bottom line.
static inline bool authtui_terminal_addresses_cursor(void) {
  char *cup = tigetstr("cup");
  return cup != NULL && cup != (char *)-1;
}

// ---------------------------------------------------------------------------------------------
// Terminal guard: gives the terminal back on every exit path (signals, crashes, exit()).
//
// A signal handler may only make async-signal-safe calls; Swift code cannot promise that (it
// may allocate, retain, or check exclusivity), so the handlers and the state they read live in
// C. The state is one weak global, so every object file that inlines these functions shares
// it. Handlers only write() precomputed bytes, tcsetattr() the saved modes, sigaction() and
// raise(), all async-signal-safe per POSIX.
// ---------------------------------------------------------------------------------------------

#define AUTHTUI_GUARD_SIGNAL_LIMIT 65

struct authtui_guard_state {
  volatile sig_atomic_t armed;
  volatile sig_atomic_t wake_fd;
  int tty_fd;
  int has_termios;
  struct termios termios;
  size_t reset_length;
  char reset[512];
  int atexit_registered;
  unsigned char installed[AUTHTUI_GUARD_SIGNAL_LIMIT];
  struct sigaction previous[AUTHTUI_GUARD_SIGNAL_LIMIT];
};

__attribute__((weak)) struct authtui_guard_state authtui_guard_storage = {0, -1, -1};

// Signal handlers call this, and Swift code may not run there (see above): restores once per arming.
static inline void authtui_guard_restore(void) {
  struct authtui_guard_state *state = &authtui_guard_storage;
  if (!__atomic_exchange_n(&state->armed, 0, __ATOMIC_SEQ_CST)) return;
  int saved_errno = errno;
  if (state->tty_fd >= 0 && state->reset_length > 0) {
    size_t done = 0;
    while (done < state->reset_length) {
      ssize_t written = write(state->tty_fd, state->reset + done, state->reset_length - done);
      if (written <= 0 && errno != EINTR) break;
      if (written > 0) done += (size_t)written;
    }
  }
  if (state->tty_fd >= 0 && state->has_termios) {
    tcsetattr(state->tty_fd, TCSADRAIN, &state->termios);
  }
  errno = saved_errno;
}

// atexit() takes a plain C function; this one runs the signal-safe restore above at exit().
static inline void authtui_guard_restore_at_exit(void) { authtui_guard_restore(); }

// A signal handler may not run Swift code (see above): restores, then lets the old disposition act.
static inline void authtui_guard_on_signal(int signal_number, siginfo_t *info, void *context) {
  (void)context;
  int saved_errno = errno;
  authtui_guard_restore();
  struct authtui_guard_state *state = &authtui_guard_storage;
  if (signal_number > 0 && signal_number < AUTHTUI_GUARD_SIGNAL_LIMIT) {
    sigaction(signal_number, &state->previous[signal_number], NULL);
    state->installed[signal_number] = 0;
  }
  // A fault raised by the CPU repeats when the handler returns and reaches the previous handler
  // (Swift's backtracer, or the default: a core dump) with its own details; a signal sent by
  // kill(), raise() or abort() has to be sent again.
  int from_kernel = info != NULL && info->si_code > 0;
  int synchronous = signal_number == SIGSEGV || signal_number == SIGBUS ||
                    signal_number == SIGILL || signal_number == SIGFPE || signal_number == SIGTRAP;
  if (!(synchronous && from_kernel)) raise(signal_number);
  errno = saved_errno;
}

// A signal handler may not run Swift code (see above): wakes the input loop through the self-pipe.
static inline void authtui_guard_on_resize(int signal_number) {
  (void)signal_number;
  int fd = authtui_guard_storage.wake_fd;
  if (fd < 0) return;
  int saved_errno = errno;
  char byte = 'r';
  ssize_t ignored = write(fd, &byte, 1);
  (void)ignored;
  errno = saved_errno;
}

// The saved termios lives in the C state the handlers read (see above); -1 if already armed.
static inline int authtui_guard_arm(int tty_fd) {
  struct authtui_guard_state *state = &authtui_guard_storage;
  if (__atomic_exchange_n(&state->armed, 1, __ATOMIC_SEQ_CST)) return -1;
  state->tty_fd = tty_fd;
  state->reset_length = 0;
  state->has_termios = tcgetattr(tty_fd, &state->termios) == 0;
  if (!state->atexit_registered) {
    state->atexit_registered = 1;
    atexit(authtui_guard_restore_at_exit);
  }
  return 0;
}

// The reset bytes live in the C state the handlers read (see above); this copies them there.
static inline void authtui_guard_set_reset(const char *bytes, size_t length) {
  struct authtui_guard_state *state = &authtui_guard_storage;
  if (length > sizeof(state->reset)) length = sizeof(state->reset);
  memcpy(state->reset, bytes, length);
  state->reset_length = length;
}

// The armed flag is C state shared with the handlers (see above); cleared after a normal endwin().
static inline void authtui_guard_disarm(void) {
  __atomic_store_n(&authtui_guard_storage.armed, 0, __ATOMIC_SEQ_CST);
}

// The handlers are C functions (see above), so C installs them; ignored signals stay ignored.
static inline void authtui_guard_install(int signal_number, int resize) {
  struct authtui_guard_state *state = &authtui_guard_storage;
  if (signal_number <= 0 || signal_number >= AUTHTUI_GUARD_SIGNAL_LIMIT) return;
  if (state->installed[signal_number]) return;
  struct sigaction current;
  if (sigaction(signal_number, NULL, &current) != 0) return;
  // A signal the parent chose to ignore (nohup, background jobs) stays ignored.
  if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) return;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  sigemptyset(&action.sa_mask);
  if (resize) {
    action.sa_handler = authtui_guard_on_resize;
    action.sa_flags = SA_RESTART;
  } else {
    action.sa_sigaction = authtui_guard_on_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  }
  if (sigaction(signal_number, &action, &state->previous[signal_number]) == 0) {
    state->installed[signal_number] = 1;
  }
}

// Sets the C-held wake fd the SIGWINCH handler writes to (see above) and installs every handler;
// SIGINT, SIGTERM and SIGHUP only with `termination` (else the program handles them itself).
static inline void authtui_guard_install_signals(int wake_fd, int termination) {
  authtui_guard_storage.wake_fd = wake_fd;
  const int fatal[] = {SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP};
  for (size_t index = 0; index < sizeof(fatal) / sizeof(fatal[0]); index++) {
    authtui_guard_install(fatal[index], 0);
  }
  if (termination) {
    authtui_guard_install(SIGINT, 0);
    authtui_guard_install(SIGTERM, 0);
    authtui_guard_install(SIGHUP, 0);
  }
  authtui_guard_install(SIGWINCH, 1);
}

// The previous dispositions are C state (see above); this puts them back and clears the wake fd.
static inline void authtui_guard_uninstall_signals(void) {
  struct authtui_guard_state *state = &authtui_guard_storage;
  state->wake_fd = -1;
  for (int signal_number = 1; signal_number < AUTHTUI_GUARD_SIGNAL_LIMIT; signal_number++) {
    if (state->installed[signal_number]) {
      sigaction(signal_number, &state->previous[signal_number], NULL);
      state->installed[signal_number] = 0;
    }
  }
}

#endif
