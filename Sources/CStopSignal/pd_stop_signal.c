#include "pd_stop_signal.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The one flag of the process: see the header for why it is defined here. */
static volatile sig_atomic_t pd_stop_signal = 0;

static void pd_on_stop_signal(int sig) {
    if (pd_stop_signal != 0) _exit(128 + sig);
    pd_stop_signal = sig;
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
