/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timedwait K: waits with deadlines (issue 27, docs/event-source.md
 * "Guest time").  A worker thread does K rounds of work (a busy loop of
 * 20,000 iterations), each ended by setting `done` under a mutex and
 * signalling a condition variable.  The main thread waits for each round
 * with pthread_cond_timedwait and a 50 us deadline on CLOCK_REALTIME
 * (futex FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME with an absolute
 * timeout), counting the waits that time out, and every 4th round also
 * sleeps 20 us with nanosleep and reads CLOCK_MONOTONIC around it.  How
 * many waits time out follows the clock the deadlines are measured on:
 * the host's, a different number on every run; the machine's modeled
 * time, the same on every run.  Exit status 0: every round was seen,
 * and the monotonic clock never went back and moved by at least the
 * sleep's 20 us across each nanosleep.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long rounds, done;
static volatile long sink;

static void *worker(void *arg)
{
	(void)arg;
	for (long r = 1; r <= rounds; r++) {
		for (long i = 0; i < 20000; i++)
			sink += i;
		pthread_mutex_lock(&mu);
		done = r;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static long long ns_of(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

int main(int argc, char **argv)
{
	pthread_t t;
	long timeouts = 0, bad = 0;

	rounds = argc > 1 ? atol(argv[1]) : 20;
	if (rounds < 1 || pthread_create(&t, NULL, worker, NULL))
		return 2;
	for (long r = 1; r <= rounds; r++) {
		pthread_mutex_lock(&mu);
		while (done < r) {
			struct timespec d;

			clock_gettime(CLOCK_REALTIME, &d);
			d.tv_nsec += 50000;
			if (d.tv_nsec >= 1000000000) {
				d.tv_sec++;
				d.tv_nsec -= 1000000000;
			}
			if (pthread_cond_timedwait(&cv, &mu, &d))
				timeouts++;
		}
		pthread_mutex_unlock(&mu);
		if (r % 4 == 0) {
			struct timespec a, b, s = { 0, 20000 };

			clock_gettime(CLOCK_MONOTONIC, &a);
			nanosleep(&s, NULL);
			clock_gettime(CLOCK_MONOTONIC, &b);
			bad += ns_of(&b) - ns_of(&a) < 20000;
		}
	}
	pthread_join(t, NULL);
	sink = timeouts; /* (the count shows in the instructions: each timeout is a pass of the loop) */
	return done == rounds && !bad ? 0 : 1;
}
