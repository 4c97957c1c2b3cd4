/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/remote.h - the remote event source (layer 1, src/source/remote.c):
 * guest processes that run under qemu-<arch> in processes of their own,
 * with the plugin attached to a service (docs/service.md), stream their
 * execution through shared memory; this source runs it through one
 * machine (hvpmu/machine.h), as the in-process QEMU source
 * (hvpmu/qemu_source.h) does for one program.
 *
 * Each process image (the root program, a fork child, the new program of
 * an execve) has an area (a memfd holding one record ring per guest
 * thread and the table of its translated blocks) and a number, 1.., which
 * is its hvpmu_os_call.process: its own MMU context, its threads on the
 * strands the description's placement gives next.  The source decodes
 * every block itself from the area's instruction words and checks every
 * record; a malformed one detaches the image (its counts so far stay)
 * with one line on stderr.
 *
 * Time: the images' threads advance in quanta of `quantum` modeled
 * cycles: no strand runs a block past the end of the current quantum
 * before every other strand's thread has reached it, is inside a system
 * call, or has ended (a barrier per quantum, docs/service.md "Time").  So
 * for the same programs, inputs and quantum, the order in which the
 * strands meet in shared caches and memory does not depend on the host,
 * as long as no system call blocks for longer than the grace period.
 *
 * Not thread-safe: one thread (the service's) makes every call, and no
 * other source feeds the machine.
 */
#ifndef HVPMU_REMOTE_H
#define HVPMU_REMOTE_H

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/isa.h>
#include <hvpmu/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hvpmu_remote;

/* A source feeding m (which outlives it), whose processors run `isa`.
 * quantum: modeled cycles per time quantum (> 0).  Returns 0, HVPMU_EINVAL
 * or HVPMU_ENOMEM.  One at a time per process (the feed is the
 * process's); hvpmu_remote_destroy frees everything it decoded. */
int hvpmu_remote_create(struct hvpmu_machine *m, const struct hvpmu_isa *isa, uint64_t quantum,
			struct hvpmu_remote **out);
void hvpmu_remote_destroy(struct hvpmu_remote *r);

/* The eventfd producers ring when the source sleeps (hvpmu_remote_sleep):
 * poll it for input. */
int hvpmu_remote_doorbell(const struct hvpmu_remote *r);

/*
 * A new process image from a connection whose peer has pid `peer_pid`:
 * `hello` is the message received (n bytes, struct remote_hello of
 * src/source/remote_proto.h).  On success returns 0 with the image's
 * number in *process, the welcome to send in welcome[welcome_len] (its
 * size in *wlen) and the area's descriptor in *area_fd (the caller sends
 * it, then closes it).  On refusal returns an errno and still fills the
 * welcome, which says why.
 */
int hvpmu_remote_attach(struct hvpmu_remote *r, const void *hello, size_t n, int peer_pid, uint32_t *process,
			void *welcome, size_t welcome_len, size_t *wlen, int *area_fd);

/* The md guest an image hello (n bytes) would join: the one it names (a
 * root image), else its parent image's; -1 when hvpmu_remote_attach would
 * refuse it for that (no such guest or parent, not an image hello).  For
 * the service's check of the peer's uid before the attach. */
int hvpmu_remote_hello_guest(const struct hvpmu_remote *r, const void *hello, size_t n);

/*
 * A standing service's connections (docs/service.md "Guests and
 * monitors"): hvpmu_remote_hello checks any hello (n bytes) and says what
 * it is: a process image (then hvpmu_remote_attach), a tool's monitor of
 * guest `guest` (HVPMU_REMOTE_MONITOR: the hello came with the request
 * file and the result area), or a question about the machine
 * (HVPMU_REMOTE_DESCRIBE: answer with hvpmu_remote_machine); *pid is the
 * pid it claims, guest[HVPMU_REMOTE_GUEST_MAX] the guest's name ("" = the
 * first).  Returns 0, or an errno with a one-line reason in why.
 */
#define HVPMU_REMOTE_GUEST_MAX 32
enum hvpmu_remote_kind { HVPMU_REMOTE_IMAGE, HVPMU_REMOTE_MONITOR, HVPMU_REMOTE_DESCRIBE, HVPMU_REMOTE_GPCI };
int hvpmu_remote_hello(const void *hello, size_t n, enum hvpmu_remote_kind *kind, int *pid, char *guest,
		       char *why, size_t len);
/*
 * HVPMU_REMOTE_GPCI: a tool in guest `guest` (a PAPR partition) asks its
 * OS to make H_GetPerformanceCounterInfo (hcall 0xF080) as Linux's
 * hv_gpci does (hvpmu/gpci.h hvpmu_gpci_call); args[0] the request,
 * args[1] the starting index, args[2] secondary index << 8 | the
 * counter_info_version_in byte.  hvpmu_remote_hello_args gives them (0,
 * or EPROTO for a hello hvpmu_remote_hello refuses).  The service answers
 * with struct hvpmu_remote_gpci (hvpmu_remote_gpci_answer fills magic and
 * version and copies it into buf[n], returning its size); the tool's
 * side is hvpmu_remote_gpci: 0 and *out, or -1 with a one-line reason in
 * err (no service, no answer; a refusal arrives as out->status).
 */
#define HVPMU_REMOTE_GPCI_MAGIC UINT32_C(0x49435047) /* "GPCI" */
#define HVPMU_REMOTE_GPCI_DATA 4064u                 /* HGPCI_MAX_DATA_BYTES */
struct hvpmu_remote_gpci {
	uint32_t magic, version;
	int32_t status;            /* 0, or the errno why the OS did not call (no such guest, not PAPR) */
	uint32_t pad;
	int64_t hstatus;           /* the hcall's status (HVPMU_H_*) */
	uint32_t request, starting_index, returned_values, detail_rc;
	uint16_t element_bytes;    /* cv_element_size */
	uint8_t version_out;       /* counter_info_version_out */
	uint8_t pad2[5];
	char reason[96];           /* status != 0: one line */
	uint8_t data[HVPMU_REMOTE_GPCI_DATA]; /* counter_value: the lists, as the hypervisor wrote them */
};
int hvpmu_remote_hello_args(const void *hello, size_t n, uint32_t args[3]);
size_t hvpmu_remote_gpci_answer(void *buf, size_t n, struct hvpmu_remote_gpci *a);
int hvpmu_remote_gpci(const char *address, const char *guest, const uint32_t args[3], struct hvpmu_remote_gpci *out,
		      char *err, size_t errlen);
/* The welcome with `status` (0, or an errno and a one-line reason) into
 * buf[n]; returns its size. */
size_t hvpmu_remote_welcome(void *buf, size_t n, int status, const char *reason);
/* The answer to a describe: the machine was built from built-in
 * description `platform` with file md_path ("" = none) over it, and md is
 * what came out (its guests' names).  Into buf[n]; returns its size. */
size_t hvpmu_remote_machine(void *buf, size_t n, const char *platform, const char *md_path, const struct hvpmu_md *md);

/*
 * The tools' side.  hvpmu_remote_describe asks the service at abstract
 * socket name `address` what machine it runs.  hvpmu_remote_monitor
 * starts a monitor of guest `guest` ("" = the first) with the request
 * file req_fd and the result area area_fd (both sent, not closed) and
 * returns the connection (close-on-exec) once the service said yes: the
 * caller's shutdown(SHUT_WR) ends the monitor, and the service closes
 * the connection after the final publication (also when the monitor's
 * time is up).  Both return 0 / the descriptor, or -1 with a one-line
 * reason in err (no such service, its refusal: no such guest, the
 * hypervisor's ENOACCESS, ...) and *status the errno.
 */
struct hvpmu_remote_machine_info {
	char platform[16];
	char md_path[4096];
	unsigned nguests;
	char guest[8][HVPMU_REMOTE_GUEST_MAX];
};
int hvpmu_remote_describe(const char *address, struct hvpmu_remote_machine_info *out, char *err, size_t errlen);
int hvpmu_remote_monitor(const char *address, const char *guest, int req_fd, int area_fd, int *status, char *err,
			 size_t errlen);

/* The image's connection closed: once its published records have run,
 * it is gone (killed if it had not ended: its threads stop). */
void hvpmu_remote_detach(struct hvpmu_remote *r, uint32_t process);

/*
 * Run what the images have published, quantum by quantum, until nothing
 * can go on without more input.  Returns the records run (0: nothing to
 * do now; the caller may sleep).  force: the quantum's barrier does not
 * wait for threads that have published nothing (the caller's grace
 * period for them is over: a thread blocked outside a system call).
 */
uint64_t hvpmu_remote_run(struct hvpmu_remote *r, int force);

/* Whether a thread the quantum's barrier waits for (outside a system
 * call, below the quantum's end) may still come on its own: it has
 * published records since the last hvpmu_remote_run(), or it is
 * runnable on the host (its task's state is 'R' in /proc: a loaded host
 * has not run it yet).  The caller's grace period waits on for it
 * (docs/service.md "Time").  Reads /proc once per such process; the
 * service's thread only. */
int hvpmu_remote_holders_coming(struct hvpmu_remote *r);

/* Before the caller sleeps on the doorbell: producers are asked to ring
 * it.  Returns 1 if input came meanwhile (do not sleep); call
 * hvpmu_remote_wake() after waking either way. */
int hvpmu_remote_sleep(struct hvpmu_remote *r);
void hvpmu_remote_wake(struct hvpmu_remote *r);

/* Images announced and not attached yet: fork children whose parent's
 * fork returned (clone without CLONE_VM, fork, vfork; not clone3, which
 * C libraries use for threads) and programs an execve started, still
 * alive. */
uint32_t hvpmu_remote_expecting(struct hvpmu_remote *r);

/* Images attached so far, and those that have not ended. */
uint32_t hvpmu_remote_images(const struct hvpmu_remote *r);
uint32_t hvpmu_remote_live(const struct hvpmu_remote *r);
/* Images whose state the source keeps: those that have not ended, and
 * ended ones something still needs (a fork child reads their blocks, an
 * execve's image is still to attach); the others are freed, their
 * number, pid, parent, program and end kept for the last 256 of them
 * (the getters below answer for those; 0, "" or -1 for older ones).
 * A standing service's memory stays bounded (docs/service.md "Memory"). */
uint32_t hvpmu_remote_kept(const struct hvpmu_remote *r);
/* How the last image with image 1's pid ended (image 1, or the programs
 * it execve'd: the root program's end); -1 if it has not (or none). */
int hvpmu_remote_root_end(const struct hvpmu_remote *r);
/* Images whose connection has closed and whose published records have
 * not all run yet (a standing service ends a monitor once none is left,
 * so that a program that ended before its tool stopped counting is
 * counted to its end). */
uint32_t hvpmu_remote_draining(const struct hvpmu_remote *r);

/* The host pid of image `process` (0 if none); the image it was forked
 * or execve'd from (0: none, the root); its program's file name as the
 * guest said ("" for a fork child: its parent's). */
int hvpmu_remote_pid(const struct hvpmu_remote *r, uint32_t process);
uint32_t hvpmu_remote_from(const struct hvpmu_remote *r, uint32_t process);
const char *hvpmu_remote_comm(const struct hvpmu_remote *r, uint32_t process);
/* The md guest (guests[] index) image `process` runs in: the hello's
 * guest for a root image, its parent's for the others; its threads get
 * that guest's strands only. */
unsigned hvpmu_remote_guest(const struct hvpmu_remote *r, uint32_t process);

/* How image `process` ended: 0 exit or exec, else the signal; -1 if it has
 * not. */
int hvpmu_remote_end_status(const struct hvpmu_remote *r, uint32_t process);

/* The run ends (every image has ended): the guest OS takes its last
 * samples (HVPMU_OS_HALT with `sig`). */
void hvpmu_remote_halt(struct hvpmu_remote *r, int sig);

#ifdef __cplusplus
}
#endif
#endif
