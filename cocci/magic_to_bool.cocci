// SPDX-License-Identifier: GPL-2.0
/// A "magic number" that is also set to 0 and 1 and tested for truth is a
/// busy flag in disguise: make it a bool.  The magic value becomes true,
/// 0 becomes false, comparisons with the magic become truth tests.
///
/// Parameters: magic (the macro), member (the field), sname (the struct tag
/// or typedef name), flag (the new name of the field, e.g. busy).
//
// Confidence: Moderate
// Copyright: (C) 2026 demagic authors.
// Options: --no-includes --include-headers
// Keywords: magic number, state flag, bool

virtual patch
virtual context
virtual org
virtual report

@use depends on patch@
identifier virtual.magic, virtual.member, virtual.flag, virtual.sname;
struct sname *E;
@@
(
- E->member != magic
+ !E->flag
|
- E->member == magic
+ E->flag
|
- E->member = magic
+ E->flag = true
|
- E->member = 0
+ E->flag = false
|
- E->member = 1
+ E->flag = true
|
- E->member
+ E->flag
)

@fld depends on patch@
identifier virtual.member, virtual.flag, virtual.sname;
type T;
@@
(
 struct sname {
  ...
- T member;
+ bool flag;
  ...
 };
|
 typedef struct {
  ...
- T member;
+ bool flag;
  ...
 } sname;
)

@def depends on patch@
identifier virtual.magic;
expression V;
@@
- #define magic V

@depends on context@
identifier virtual.member, virtual.sname;
struct sname *E;
@@
* E->member

@find depends on org || report@
identifier virtual.member, virtual.sname;
struct sname *E;
position p;
@@
 E->member@p

@script:python depends on report@
p << find.p;
magic << virtual.magic;
@@
coccilib.report.print_report(p[0], "WARNING: %s is a state flag: make the field a bool" % magic)

@script:python depends on org@
p << find.p;
magic << virtual.magic;
@@
coccilib.org.print_todo(p[0], "%s is a state flag" % magic)
