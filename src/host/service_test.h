/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * service_test.h: a test's way into the service's connection handling
 * (src/host/service.c), for tests/fuzz/fuzz_service_socket.c only.  Not
 * part of the library's interface (include/hvpmu/): nothing else calls
 * these, and `hvpmu serve` and the tools' runs never do.
 *
 * The fuzz target builds a service once (a standing one as hvpmu serve
 * does, or a tool's run's), then hands it the service's end of a
 * connected AF_UNIX SOCK_SEQPACKET socket pair whose hello is waiting,
 * exactly as the service's loop does once the connection is readable:
 * accept_conn runs on it (the hello, its descriptors, the answer).
 */
#ifndef HVPMU_HOST_SERVICE_TEST_H
#define HVPMU_HOST_SERVICE_TEST_H
#include <stdint.h>
#include <hvpmu/session.h>

struct service;

/* A standing service (standing != 0: hvpmu_service_serve's, a guest OS
 * per md guest) or a tool's run's (hvpmu_service_run's) built from rq,
 * which must outlive it; NULL with one line in err. */
struct service *service_test_create(const struct stat_request *rq, int standing, char *err, size_t errlen);

/* accept_conn on fd, the service's end of a connection (the service owns
 * it from here: it keeps it for an image or a monitor, else closes it). */
void service_test_accept(struct service *sv, int fd);

/* Every connection the service kept ends as when its peer closes it (an
 * image detaches, a monitor ends with its final publication), and what
 * was published runs.  Returns how many there were. */
uint32_t service_test_end_conns(struct service *sv);

/* Images attached so far (hvpmu_remote_images). */
uint32_t service_test_images(const struct service *sv);

/* The service's end (as at the end of its run) and its memory. */
void service_test_free(struct service *sv);

#endif
