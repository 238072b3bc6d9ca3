// SPDX-License-Identifier: GPL-2.0
/*
 * fasync: SIGIO through F_SETOWN + O_ASYNC on a pipe, a socket and a pty,
 * many times over, with the owner changed and files closed in between.
 * Everything goes through fasync_helper() and kill_fasync().
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

#define ROUNDS 100

static sigset_t sigio_set;

/* 1 if a SIGIO arrives within ms milliseconds. */
static int got_sigio(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	if (sigtimedwait(&sigio_set, NULL, &ts) == SIGIO)
		return 1;
	if (errno != EAGAIN && errno != EINTR)
		die("sigtimedwait");
	return 0;
}

static void make_async(int fd, pid_t owner)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		die("F_GETFL");
	if (fcntl(fd, F_SETOWN, owner) < 0)
		die("F_SETOWN");
	if (fcntl(fd, F_SETFL, fl | O_ASYNC | O_NONBLOCK) < 0)
		die("F_SETFL O_ASYNC");
}

static void poke(int wfd, int rfd)
{
	char c = 'x', buf[64];

	if (write(wfd, &c, 1) != 1)
		die("write");
	(void)!read(rfd, buf, sizeof(buf));	/* drain; EAGAIN is fine */
}

/* ROUNDS writes on wfd, each must raise SIGIO for the async reader rfd. */
static int rounds(int wfd, int rfd)
{
	int seen = 0;

	make_async(rfd, getpid());
	for (int i = 0; i < ROUNDS && seen == i; i++) {
		char c = 'x';

		if (write(wfd, &c, 1) != 1)
			die("write");
		seen += got_sigio(2000);
		{
			char buf[64];

			(void)!read(rfd, buf, sizeof(buf));
		}
	}
	if (seen != ROUNDS)
		ktap_diag("write %d of %d raised no SIGIO", seen + 1, ROUNDS);
	return seen == ROUNDS;
}

static int test_pipe(void)
{
	int p[2], ok;

	if (pipe(p) < 0)
		die("pipe");
	ok = rounds(p[1], p[0]);
	if (close(p[0]) < 0 || close(p[1]) < 0)
		die("close");
	return ok;
}

static int test_socket(void)
{
	int s[2], ok;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0)
		die("socketpair");
	ok = rounds(s[1], s[0]);
	if (close(s[0]) < 0 || close(s[1]) < 0)
		die("close");
	return ok;
}

static int test_pty(void)
{
	struct termios t;
	int m, s, ok;

	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
		die("posix_openpt");
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	if (s < 0)
		die("open pts");
	if (tcgetattr(s, &t) < 0)
		die("tcgetattr");
	cfmakeraw(&t);
	if (tcsetattr(s, TCSANOW, &t) < 0)
		die("tcsetattr");
	ok = rounds(m, s);
	if (close(s) < 0 || close(m) < 0)
		die("close");
	return ok;
}

/* The owner moves to a child and back: the signal follows the owner. */
static int test_owner(void)
{
	int p[2], ok = 1;

	if (pipe(p) < 0)
		die("pipe");
	make_async(p[0], getpid());
	for (int i = 0; i < 20 && ok; i++) {
		int status;
		pid_t child = fork();

		if (child < 0)
			die("fork");
		if (child == 0)
			_exit(got_sigio(3000) ? 0 : 1);
		if (fcntl(p[0], F_SETOWN, child) < 0)
			die("F_SETOWN child");
		poke(p[1], p[0]);
		if (waitpid(child, &status, 0) < 0)
			die("waitpid");
		ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !got_sigio(20);
		if (fcntl(p[0], F_SETOWN, getpid()) < 0)
			die("F_SETOWN self");
		poke(p[1], p[0]);
		ok = ok && got_sigio(2000);
		if (!ok)
			ktap_diag("round %d: SIGIO did not follow the owner", i);
	}
	if (close(p[0]) < 0 || close(p[1]) < 0)
		die("close");
	return ok;
}

/* Async files opened, signalled, switched off and closed, over and over. */
static int test_close(void)
{
	for (int i = 0; i < 50; i++) {
		int p[2], q, fl;

		if (pipe(p) < 0)
			die("pipe");
		q = dup(p[0]);
		if (q < 0)
			die("dup");
		make_async(q, getpid());
		poke(p[1], q);
		if (!got_sigio(2000)) {
			ktap_diag("round %d: no SIGIO", i);
			return 0;
		}
		fl = fcntl(q, F_GETFL);
		if (fl < 0 || fcntl(q, F_SETFL, fl & ~O_ASYNC) < 0)
			die("F_SETFL ~O_ASYNC");
		poke(p[1], q);
		if (got_sigio(20)) {
			ktap_diag("round %d: SIGIO after O_ASYNC was cleared", i);
			return 0;
		}
		if (close(q) < 0 || close(p[0]) < 0 || close(p[1]) < 0)
			die("close");
	}
	return 1;
}

int main(void)
{
	sigemptyset(&sigio_set);
	sigaddset(&sigio_set, SIGIO);
	if (sigprocmask(SIG_BLOCK, &sigio_set, NULL) < 0)
		die("sigprocmask");
	ktap_plan(5);
	ktap_result(test_pipe(), "pipe: SIGIO on each of %d writes", ROUNDS);
	ktap_result(test_socket(), "socket: SIGIO on each of %d writes", ROUNDS);
	ktap_result(test_pty(), "pty: SIGIO on each of %d writes", ROUNDS);
	ktap_result(test_owner(), "F_SETOWN moves SIGIO to a child and back");
	ktap_result(test_close(), "O_ASYNC on, off and closed, 50 times");
	return ktap_exit();
}
