#ifndef AUTHTUI_CNCURSESW_SHIM_H
#define AUTHTUI_CNCURSESW_SHIM_H

// The wide-character API is only declared with NCURSES_WIDECHAR; SwiftPM's pkg-config path would drop it.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncurses.h>
// term.h (setupterm) defines terminfo capability names such as `lines` and `columns` as macros;
// nothing below may use those words as identifiers.
#include <term.h>

// stdscr is a global mutable variable, which Swift 6 refuses to touch from concurrent code.
static inline WINDOW *authtui_stdscr(void) { return stdscr; }

// COLS and LINES are global mutable variables, which Swift 6 refuses to touch from concurrent code.
static inline int authtui_cols(void) { return COLS; }

// COLS and LINES are global mutable variables, which Swift 6 refuses to touch from concurrent code.
static inline int authtui_lines(void) { return LINES; }

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

#endif
