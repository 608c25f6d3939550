#ifndef PUSHDESK_TEST_SEAL_H
#define PUSHDESK_TEST_SEAL_H

/// The loopback port every endpoint variable of the test process points at: bound by this
/// process and never listened on, so a connection there is refused (0 if sealing failed).
int pushdesk_test_sealed_port(void);

#endif
