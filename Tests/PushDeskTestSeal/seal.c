// Seals the test process off from real servers before any test runs (a constructor, so no
// test can forget it): every endpoint variable PushDesk reads, and the proxy that every
// other connection (a service account's token_uri) goes through, point at a loopback port
// that this process holds bound without listening — a connection there is refused at once.
// PUSHDESK_SYSTEM_TRUST=0 leaves out the system's trust anchors. Every `pushdesk` child
// inherits this environment; a test with a mock overrides the variables it serves.
#include "PushDeskTestSeal.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int sealed_port = 0;

int pushdesk_test_sealed_port(void) { return sealed_port; }

/// Binds 127.0.0.1:0 without SO_REUSEADDR and never listens: the port stays taken for the
/// life of the process (no server can listen there) and refuses every connection.
static int reserve_closed_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        close(fd);
        return 0;
    }
    return ntohs(a.sin_port);  // fd stays open on purpose
}

__attribute__((constructor)) static void pushdesk_test_seal(void) {
    int port = reserve_closed_port();
    // Port 1 (tcpmux) as a fallback: privileged and served nowhere on a test machine.
    if (port == 0) port = 1;
    sealed_port = port;
    char url[64], proxy[64];
    snprintf(url, sizeof url, "https://127.0.0.1:%d", port);
    snprintf(proxy, sizeof proxy, "http://127.0.0.1:%d", port);
    static const char *const endpoints[] = {
        "PUSHDESK_APNS_SANDBOX_URL",
        "PUSHDESK_APNS_PRODUCTION_URL",
        "PUSHDESK_FCM_URL",
        "PUSHDESK_APNS_MANAGE_SANDBOX_URL",
        "PUSHDESK_APNS_MANAGE_PRODUCTION_URL",
        "PUSHDESK_APNS_BROADCAST_SANDBOX_URL",
        "PUSHDESK_APNS_BROADCAST_PRODUCTION_URL",
    };
    for (size_t i = 0; i < sizeof endpoints / sizeof endpoints[0]; i++) setenv(endpoints[i], url, 1);
    setenv("https_proxy", proxy, 1);
    setenv("HTTPS_PROXY", proxy, 1);
    unsetenv("no_proxy");
    unsetenv("NO_PROXY");
    unsetenv("PUSHDESK_CA_FILE");
    setenv("PUSHDESK_SYSTEM_TRUST", "0", 1);
}
