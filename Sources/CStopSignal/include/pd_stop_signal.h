#ifndef PD_STOP_SIGNAL_H
#define PD_STOP_SIGNAL_H
/* Graceful stop on SIGHUP / SIGTERM / SIGINT (docs/RELIABILITY.md).
   Swift code cannot run safely in a signal handler (allocation, locks, lazily initialised
   globals), so the handler only stores the signal number in a volatile sig_atomic_t, which
   is async-signal-safe. It is installed without SA_RESTART, so a read blocked in wget_wch
   returns at once (EINTR); the console loop also wakes at least once a second, sees the
   flag, writes the drafts to the recovery file and stops. A second signal while the first
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
#endif
