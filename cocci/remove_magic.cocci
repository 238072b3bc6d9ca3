// SPDX-License-Identifier: GPL-2.0
/// Remove a magic number that only tags a structure: it is set once and
/// checked before use, and the checks either hide the bug they find (an
/// early exit) or crash on it.  Slab debugging, KASAN and type-safe
/// interfaces find what they were meant to find.  Drop the checks (keeping
/// every other operand of a condition), the assignments, the field and the
/// #define; then the messages and locals that only the checks used.
///
/// Parameters: magic (the macro), member (the field), sname (the struct tag
/// or typedef name), and optionally setter/checker (SET_MAGIC()/BAD_MAGIC()
/// style macros that wrap the field).
//
// Confidence: High
// Copyright: (C) 2026 demagic authors.
// Options: --no-includes --include-headers
// Keywords: magic number, paranoia check

virtual patch
virtual context
virtual org
virtual report
// keep_define: the constant is used elsewhere too; only the field and its uses go
virtual keep_define

// Messages that only a removed check printed, and locals that only it read.
@msg depends on patch@
identifier virtual.magic, virtual.member, m;
expression E;
statement S;
@@
(
 if (\(E->member\|E.member\) != magic) { <+... printk(m, ...); ...+> }
|
 if (\(E->member\|E.member\) == magic) S else printk(m, ...);
)

@var depends on patch@
identifier virtual.magic, virtual.member, x;
position p;
@@
(
 \(x@p->member\|x@p.member\) != magic
|
 \(x@p->member\|x@p.member\) == magic
)

@script:python var_fn depends on patch@
p << var.p;
fn;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)

@cond depends on patch@
identifier virtual.magic, virtual.member;
expression E, A;
@@
(
- A || \(E->member\|E.member\) != magic
+ A
|
- A || (\(E->member\|E.member\) != magic)
+ A
|
- \(E->member\|E.member\) != magic || A
+ A
|
- (\(E->member\|E.member\) != magic) || A
+ A
|
- A && \(E->member\|E.member\) == magic
+ A
|
- A && (\(E->member\|E.member\) == magic)
+ A
|
- \(E->member\|E.member\) == magic && A
+ A
|
- (\(E->member\|E.member\) == magic) && A
+ A
)

// An assignment that was the whole body of a test of a plain variable goes with
// the test: no empty if is left behind.
@guarded_set depends on patch@
identifier virtual.magic, virtual.member;
idexpression I;
expression V;
@@
(
- if (I) \(V->member\|V.member\) = magic;
|
- if (I) { \(V->member\|V.member\) = magic; }
)

@stmt depends on patch@
identifier virtual.magic, virtual.member;
expression E;
statement S, S2;
@@
(
- if (\(E->member\|E.member\) != magic) S
|
- if (WARN_ON(\(E->member\|E.member\) != magic)) S
|
- if (WARN_ON_ONCE(\(E->member\|E.member\) != magic)) S
|
- if (E->member == magic) {
  ...
- } else S2
|
- if (E.member == magic) {
  ...
- } else S2
|
- if (\(E->member\|E.member\) == magic)
  S
- else S2
|
- BUG_ON(\(E->member\|E.member\) != magic);
|
- WARN_ON(\(E->member\|E.member\) != magic);
|
- WARN_ON_ONCE(\(E->member\|E.member\) != magic);
|
- \(E->member\|E.member\) = magic;
)

@wrapped depends on patch@
identifier virtual.magic, virtual.setter;
expression E;
@@
- setter(E, magic);

@wrapped_check depends on patch@
identifier virtual.magic, virtual.checker;
expression E, A;
statement S;
@@
(
- BUG_ON(checker(E, magic));
|
- WARN_ON(checker(E, magic));
|
- if (checker(E, magic)) S
|
- A || checker(E, magic)
+ A
)

@init depends on patch@
identifier virtual.magic, virtual.member, s;
type T;
@@
(
 T s = { ...,
- .member = magic,
  ...
 };
|
 T s[...] = { ..., { ...,
- .member = magic,
  ... }, ...
 };
)

@fld depends on patch@
identifier virtual.member, virtual.sname;
type T;
@@
(
 struct sname {
  ...
- T member;
  ...
 };
|
 typedef struct {
  ...
- T member;
  ...
 } sname;
)

@def depends on patch && !keep_define@
identifier virtual.magic;
expression V;
@@
- #define magic V

@still_printed depends on patch@
identifier msg.m;
@@
 printk(m, ...)

@depends on patch && !still_printed@
identifier msg.m;
expression V;
@@
(
- static const char m[] = V;
|
- static const char *m = V;
)

@depends on patch@
identifier msg.m;
expression V;
statement S;
@@
- static const char *m = V;
  ... when != m

@depends on patch@
identifier var.x, var_fn.fn;
type T;
identifier f =~ "(_priv|_drvdata|container_of|list_entry)$";
expression D;
position q : script:python(fn) { q[0].current_element == fn };
@@
{
  ...
(
- T x@q = f(D);
|
- T x@q = &D;
)
  ... when != x
}

// Other modes: every check and every assignment of the magic, for review.
@depends on context@
identifier virtual.magic, virtual.member;
expression E;
@@
(
* \(E->member\|E.member\) != magic
|
* \(E->member\|E.member\) == magic
|
* \(E->member\|E.member\) = magic
)

@check depends on org || report@
identifier virtual.magic, virtual.member;
expression E;
position p;
@@
(
 \(E->member@p\|E.member@p\) != magic
|
 \(E->member@p\|E.member@p\) == magic
)

@set depends on org || report@
identifier virtual.magic, virtual.member;
expression E;
position p;
@@
 \(E->member@p\|E.member@p\) = magic

@script:python depends on report@
p << check.p;
magic << virtual.magic;
@@
coccilib.report.print_report(p[0], "WARNING: %s checked here: remove the check, keep the rest of the condition" % magic)

@script:python depends on report@
p << set.p;
magic << virtual.magic;
@@
coccilib.report.print_report(p[0], "WARNING: %s set here: remove the assignment" % magic)

@script:python depends on org@
p << check.p;
magic << virtual.magic;
@@
coccilib.org.print_todo(p[0], "%s checked" % magic)

@script:python depends on org@
p << set.p;
magic << virtual.magic;
@@
coccilib.org.print_todo(p[0], "%s set" % magic)
