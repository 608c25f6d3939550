#include "pd_stop_signal.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The one flag of the process: see the header for why it is defined here. */
static volatile sig_atomic_t pd_stop_signal = 0;
/* The wake pipe: [0] polled by the console loop, [1] written by signals and jobs. */
static int pd_wake_fds[2] = {-1, -1};

void pd_wake(void) {
    int fd = pd_wake_fds[1];
    if (fd < 0) return;
    int saved = errno; /* a handler must leave errno as it found it */
    char b = 1;
    (void)write(fd, &b, 1); /* a full pipe already wakes the loop: EAGAIN is fine */
    errno = saved;
}

static void pd_on_stop_signal(int sig) {
    if (pd_stop_signal != 0) _exit(128 + sig);
    pd_stop_signal = sig;
    pd_wake();
}

int pd_catch_stop_signal(int sig) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pd_on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    return sigaction(sig, &sa, NULL);
}

int pd_stop_signal_received(void) { return pd_stop_signal; }

void pd_stop_signal_reset(void) { pd_stop_signal = 0; }

int pd_wake_open(void) {
    if (pd_wake_fds[0] >= 0) return 0;
    int fds[2];
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    }
    pd_wake_fds[1] = fds[1];
    pd_wake_fds[0] = fds[0];
    return 0;
}

int pd_wait(int input_fd, int timeout_ms) {
    struct pollfd p[2];
    p[0].fd = input_fd; p[0].events = POLLIN; p[0].revents = 0;
    p[1].fd = pd_wake_fds[0]; p[1].events = POLLIN; p[1].revents = 0;
    /* A signal that came before the poll already wrote to the pipe: no wake-up is lost. */
    int n = poll(p, pd_wake_fds[0] >= 0 ? 2 : 1, timeout_ms);
    if (n < 0) return errno == EINTR ? 4 : 0;
    int r = 0;
    if (p[0].revents != 0) r |= 1;
    if (pd_wake_fds[0] >= 0 && p[1].revents != 0) {
        char buf[64];
        while (read(pd_wake_fds[0], buf, sizeof buf) > 0) {}
        r |= 2;
    }
    return r;
}

/* The resize handler curses installed, called after waking the loop. */
static struct sigaction pd_curses_winch;

static void pd_on_winch(int sig, siginfo_t *info, void *context) {
    if (pd_curses_winch.sa_flags & SA_SIGINFO) {
        if (pd_curses_winch.sa_sigaction) pd_curses_winch.sa_sigaction(sig, info, context);
    } else if (pd_curses_winch.sa_handler != SIG_DFL && pd_curses_winch.sa_handler != SIG_IGN &&
               pd_curses_winch.sa_handler != NULL) {
        pd_curses_winch.sa_handler(sig);
    }
    pd_wake();
}

int pd_wake_on_resize(void) {
    struct sigaction sa, old;
    if (sigaction(SIGWINCH, NULL, &old) != 0) return -1;
    if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == pd_on_winch) return 0; /* once */
    pd_curses_winch = old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = pd_on_winch;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO;
    return sigaction(SIGWINCH, &sa, NULL);
}
