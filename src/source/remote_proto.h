/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remote_proto: the control messages between a guest process and the
 * service (docs/service.md "Protocol"), over a Unix-domain SOCK_SEQPACKET
 * connection: one message per packet, fixed size, host byte order.
 *
 *   guest -> service   struct remote_hello   (once, right after connect)
 *   service -> guest   struct remote_welcome (once), with two descriptors
 *                      (SCM_RIGHTS) when status is 0: the process image's
 *                      area (memfd, remote_shm.h) and the service's
 *                      eventfd (the doorbell a producer rings when the
 *                      service sleeps)
 *
 * Then the connection carries nothing; it stays open while the image
 * lives, and its end (the process exited, exec'd, or was killed) tells
 * the service the image is gone.  The service identifies the caller by
 * the connection's credentials (SO_PEERCRED), not by what it says: a
 * hello whose pid is not the peer's is refused.
 */
#ifndef HVPMU_SOURCE_REMOTE_PROTO_H
#define HVPMU_SOURCE_REMOTE_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define REMOTE_HELLO_MAGIC UINT32_C(0x4c4c4548)   /* "HELL" */
#define REMOTE_WELCOME_MAGIC UINT32_C(0x434c4557) /* "WELC" */
#define REMOTE_PROTO_VERSION 4u
#define REMOTE_NAME_MAX 100                       /* the service's socket name, bytes with its NUL */

/* How a process image came to be. */
enum remote_how {
	REMOTE_ROOT = 0, /* the program the run started */
	REMOTE_FORK = 1, /* a copy of image `parent` (fork, vfork, clone without CLONE_VM) */
	REMOTE_EXEC = 2, /* image `parent` called execve: this is its new program, same pid */
	/* not process images: a tool's connections to a standing service
	 * (hvpmu serve, docs/service.md "Guests and monitors") */
	REMOTE_MONITOR = 3,  /* hvpmu stat -a / cpustat / busstat of guest `guest`: the hello comes
				with two descriptors (SCM_RIGHTS), the request file (JSON,
				hvpmu/session.h) and the result area; the welcome says whether
				the monitor runs; the tool's shutdown(SHUT_WR) ends it, and the
				service closes the connection after the final publication */
	REMOTE_DESCRIBE = 4, /* what machine the service runs: answered by struct remote_machine */
	REMOTE_GPCI = 5,     /* hvpmu gpci in guest `guest`: its OS makes H_GetPerformanceCounterInfo
				with arg[] (hvpmu/remote.h HVPMU_REMOTE_GPCI); answered by
				struct hvpmu_remote_gpci */
};
#define REMOTE_GUEST_MAX 32                       /* a guest's name, bytes with its NUL (md.h) */

struct remote_hello {
	uint32_t magic;        /* REMOTE_HELLO_MAGIC */
	uint32_t version;      /* REMOTE_PROTO_VERSION */
	uint32_t how;          /* enum remote_how */
	uint32_t parent;       /* FORK, EXEC: the service's number of the image it comes from */
	uint32_t base;         /* FORK: the parent's next block id at the fork */
	int32_t pid;           /* the guest's host pid (must be the peer's) */
	char isa[16];          /* hvpmu_isa name the guest runs ("sparcv9"), NUL-terminated */
	char comm[16];         /* ROOT, EXEC: the program's file name, NUL-terminated ("" for FORK) */
	char guest[REMOTE_GUEST_MAX]; /* ROOT, MONITOR, GPCI: the guest's name (md guests[].name), "" =
				  the first; FORK and EXEC images are their parent's guest's */
	uint32_t arg[3];       /* GPCI: request, starting index, secondary index << 8 | version in */
	uint32_t pad;
	uint64_t token[2];     /* FORK: the parent image's token (its welcome's), which the child
				  holds because it is a copy of the parent: the proof of its descent
				  when the parent's process is gone (docs/service.md "Who a client is") */
};

struct remote_welcome {
	uint32_t magic;        /* REMOTE_WELCOME_MAGIC */
	uint32_t version;
	int32_t status;        /* 0, or the errno that says why not (the guest then runs uncounted) */
	uint32_t process;      /* the image's number, 1.. (hvpmu_os_call.process) */
	uint32_t features;     /* REMOTE_F_* (remote_shm.h) */
	uint32_t pad;
	char reason[96];       /* status != 0: one line for the guest's stderr */
	uint64_t token[2];     /* status 0: the image's token, random, for its fork children's hellos */
};

/* The answer to REMOTE_DESCRIBE: the description the service's machine
 * was built from (a tool loads the same to name events and devices). */
#define REMOTE_MACHINE_MAGIC UINT32_C(0x4843414d) /* "MACH" */
struct remote_machine {
	uint32_t magic;        /* REMOTE_MACHINE_MAGIC */
	uint32_t version;
	char platform[16];     /* the built-in description ("t4", "t1", ...), NUL-terminated */
	char md_path[4096];    /* the description file over it (absolute; "" = none) */
	uint32_t nguests;
	uint32_t pad;
	char guest[8][REMOTE_GUEST_MAX]; /* the guests' names */
};
/* Check a hello the service received (n bytes): 0, or an errno with a
 * one-line reason in why[len]. */
int remote_hello_check(const void *msg, size_t n, char *why, size_t len);

/* The guest's side (src/source/attach.c; remote_client.c): receive the
 * welcome on s into *w.  0: status 0, *area the image's area mapped
 * (sizeof struct remote_area; a sealed memfd of that size with the
 * area's magic, remote_shm.h) and *efd the doorbell.  Otherwise why[n]
 * has one printable phrase and every descriptor that came is closed: -1
 * no welcome (the connection's error or end, a malformed message), 1 the
 * service refused (why: its reason), 2 a welcome whose descriptors are
 * not an area and a doorbell. */
struct remote_area;
int remote_welcome_recv(int s, struct remote_welcome *w, struct remote_area **area, int *efd, char *why, size_t n);

/* The tools' side (remote_client.c; hvpmu/remote.h hvpmu_remote_describe,
 * hvpmu_remote_monitor, hvpmu_remote_gpci): the answer to a DESCRIBE, a
 * monitor's welcome and a GPCI's answer, received on s from the service
 * at `address` (err names it).  0, or -1 with one line in err (the
 * monitor's: *status the errno, the service's refusal or EPROTO); what
 * the service wrote is quoted in one line. */
struct hvpmu_remote_machine_info;
struct hvpmu_remote_gpci;
int remote_describe_recv(int s, const char *address, struct hvpmu_remote_machine_info *out, char *err, size_t n);
int remote_monitor_recv(int s, const char *address, int *status, char *err, size_t n);
int remote_gpci_recv(int s, const char *address, struct hvpmu_remote_gpci *out, char *err, size_t n);

#endif
