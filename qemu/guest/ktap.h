/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP output for the guest programs, after tools/testing/selftests/kselftest.h:
 * a plan, one result line per check, and die() for a failed system call.
 */
#ifndef KTAP_H
#define KTAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ktap_num;
static int ktap_failed;

static void ktap_plan(int count)
{
	printf("KTAP version 1\n1..%d\n", count);
	fflush(stdout);
}

static void __attribute__((format(printf, 2, 3))) ktap_result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++ktap_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		ktap_failed = 1;
}

static void __attribute__((format(printf, 1, 2), unused)) ktap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* A system call that must not fail did: say which and why, and stop. */
static void __attribute__((noreturn, unused)) die(const char *what)
{
	printf("# %s: %s\nBail out! %s\n", what, strerror(errno), what);
	fflush(stdout);
	exit(2);
}

static int __attribute__((unused)) ktap_exit(void)
{
	return ktap_failed ? 1 : 0;
}

#endif /* KTAP_H */
