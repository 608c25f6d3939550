#ifndef PUSHDESK_CNCURSES_SHIM_H
#define PUSHDESK_CNCURSES_SHIM_H
/* SwiftPM drops pkg-config's -D flags, so the wide-character API is switched on here. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

/* Macros and globals Swift cannot import (or cannot touch under Swift 6 concurrency). */
static inline WINDOW *pd_stdscr(void) { return stdscr; }
static inline int pd_lines(void) { return LINES; }
static inline int pd_cols(void) { return COLS; }
static inline int pd_colors(void) { return COLORS; }
static inline int pd_color_pairs(void) { return COLOR_PAIRS; }
static inline void pd_set_escdelay(int ms) { set_escdelay(ms); }
static inline int pd_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int pd_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline attr_t pd_a_bold(void) { return A_BOLD; }
static inline attr_t pd_a_reverse(void) { return A_REVERSE; }
static inline attr_t pd_a_underline(void) { return A_UNDERLINE; }
static inline attr_t pd_a_dim(void) { return A_DIM; }
static inline attr_t pd_a_normal(void) { return A_NORMAL; }
static inline attr_t pd_color_pair(int n) { return COLOR_PAIR(n); }
static inline int pd_key_f(int n) { return KEY_F(n); }
static inline const cchar_t *pd_wacs_hline(void) { return WACS_HLINE; }
static inline const cchar_t *pd_wacs_vline(void) { return WACS_VLINE; }
static inline const cchar_t *pd_wacs_ulcorner(void) { return WACS_ULCORNER; }
static inline const cchar_t *pd_wacs_urcorner(void) { return WACS_URCORNER; }
static inline const cchar_t *pd_wacs_llcorner(void) { return WACS_LLCORNER; }
static inline const cchar_t *pd_wacs_lrcorner(void) { return WACS_LRCORNER; }
/* Mouse (optional in the console): masks are computed macros. */
static inline mmask_t pd_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t pd_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t pd_button5_pressed(void) { return BUTTON5_PRESSED; }
/* Whether terminfo knows `term` and it can move the cursor (what a full-screen console
   needs): 1 yes; 0 no (dumb, hardcopy: drawing would print garbage); -1 unknown TERM.
   Reads the terminfo entry only: nothing is written to the terminal. */
static inline int pd_term_can_address(const char *term) {
    int err = 0;
    TERMINAL *saved = cur_term;
    if (setupterm((char *)term, 1, &err) != OK) return err == 1 ? 0 : -1;
    const char *cup = tigetstr("cup");
    int ok = cup != NULL && cup != (const char *)-1;
    TERMINAL *mine = set_curterm(saved);
    if (mine != saved) del_curterm(mine);
    return ok ? 1 : 0;
}
#include <poll.h>
/* True when the descriptor's terminal has hung up (SSH gone, tmux pane killed): reads give
   EOF or EIO and writes EIO, so nothing more may be sent to it. */
static inline int pd_fd_hung_up(int fd) {
    struct pollfd p;
    p.fd = fd; p.events = POLLIN; p.revents = 0;
    if (poll(&p, 1, 0) < 0) return 0;
    return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}
#endif

