#ifndef PD_STOP_SIGNAL_H
#define PD_STOP_SIGNAL_H
/* Graceful stop on SIGHUP / SIGTERM / SIGINT (docs/RELIABILITY.md).
   Swift code cannot run safely in a signal handler (allocation, locks, lazily initialised
   globals), so the handler only stores the signal number in a volatile sig_atomic_t, which
   is async-signal-safe, and writes a byte to the wake pipe (write is async-signal-safe too),
   so the console loop, asleep in pd_wait, wakes at once, sees the flag, writes the drafts
   to the recovery file and stops. A second signal while the first
   is handled ends the process (_exit is safe).

   The flag lives in pd_stop_signal.c, not in a header: a `static` variable in an imported
   header is one copy per compiled unit, and a release build (whole-module, one LLVM module
   per file) then had the handler set one copy while the console loop read another — the
   console spun at full CPU after a hang-up and never wrote the recovery file. */

/* Installs the handler for `sig`; 0 on success, -1 with errno as sigaction. */
int pd_catch_stop_signal(int sig);
/* The stop signal received, 0 when none. */
int pd_stop_signal_received(void);
/* Forgets a received signal (tests raise one at themselves). */
void pd_stop_signal_reset(void);

/* The console loop sleeps in pd_wait until a key, a signal, a resize or a job event: the
   wake pipe is written by the stop signals' handler, by the resize handler (curses' own,
   wrapped) and by background jobs posting into the console's queue. No polling timer. */

/* Creates the process's wake pipe (once; non-blocking, close-on-exec); 0, or -1 with errno. */
int pd_wake_open(void);
/* Wakes pd_wait (any thread, or a signal handler). Before pd_wake_open it does nothing. */
void pd_wake(void);
/* Sleeps until `input_fd` is readable (or hung up), the wake pipe was written, a signal came,
   or `timeout_ms` passed (-1: no limit). Returns a mask: 1 input, 2 woken (the pipe is
   emptied), 4 interrupted by a signal; 0 when the time ran out. */
int pd_wait(int input_fd, int timeout_ms);
/* Wraps the SIGWINCH handler installed now (curses') so a resize also wakes pd_wait. */
int pd_wake_on_resize(void);
#endif
