// SPDX-License-Identifier: GPL-2.0
/// Find magic numbers: a constant whose name contains MAGIC that is stored
/// into a structure field (assignment, SET_MAGIC()-style macro or designated
/// initialiser) and compared against that field.  Each set and each check is
/// reported with the field, the enclosing function and, where the file tells,
/// the type of the structure; the checks say what follows them (early exit,
/// message, BUG/WARN or a plain condition).  In a file that stores a magic,
/// every other store into the same field and its truth tests are reported
/// too: a field also set to 0/1 and tested for truth is a state flag, one
/// that holds other values is not a type tag at all.  demagic's scan gathers the reports of
/// every file and judges each constant; there is no patch mode.
///
// Confidence: Moderate
// Copyright: (C) 2026 demagic authors.
// Comments: macro-style setters and checkers (F(q, FOO_MAGIC)) are reported as
//  calls; whether F stores or compares is read from its #define by the scan.
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@

def emit(p, what, kind, const, field, expr, typ=""):
    """One report line: what=kind, then key=value pairs, expr last."""
    msg = (f"WARNING: magic {what}={kind} const={const or '-'} field={field or '-'}"
           f" func={p[0].current_element} type={typ or '-'} expr={expr or '-'}")
    coccilib.report.print_report(p[0], msg)

@set depends on !patch@
identifier fld;
identifier C =~ "MAGIC";
expression E;
position p;
@@

(
 E->fld@p = C
|
 E.fld@p = C
)

@init depends on !patch@
identifier fld, I;
identifier C =~ "MAGIC";
type T;
position p;
@@

T I = { ..., .fld@p = C, ... };

@call depends on !patch@
identifier F, C =~ "MAGIC";
expression E;
position p;
@@

F@p(E, C)

@cmp depends on !patch@
identifier fld;
identifier C =~ "MAGIC";
expression E;
binary operator op = {==, !=};
position p;
@@

(
 E->fld@p op C
|
 E.fld@p op C
|
 C op E->fld@p
|
 C op E.fld@p
)

@settype depends on set@
identifier set.fld;
type T;
T *P;
T S;
position set.p;
@@

(
 P->fld@p = ...
|
 S.fld@p = ...
)

@cmptype depends on cmp@
identifier cmp.fld;
type T;
T *P;
T S;
position cmp.p;
@@

(
 P->fld@p
|
 S.fld@p
)

@bug depends on cmp || call@
identifier C =~ "MAGIC";
binary operator op = {==, !=};
identifier B =~ "^(BUG_ON|WARN|WARN_ON|WARN_ONCE|WARN_ON_ONCE)$";
identifier fld;
expression E;
position p;
@@

B(<+... \(E->fld@p op C\|E.fld@p op C\|C op E->fld@p\|C op E.fld@p\|fld@p(E, C)\) ...+>, ...)

@msg depends on cmp || call@
identifier C =~ "MAGIC";
binary operator op = {==, !=};
identifier M =~ "^(printk|pr_[a-z]+|dev_[a-z]+|netdev_[a-z]+|printf|[A-Z_]*PRINT[A-Z_]*)$";
identifier fld;
expression E;
statement S;
position p;
@@

(
 if (<+... \(E->fld@p op C\|E.fld@p op C\|C op E->fld@p\|C op E.fld@p\|fld@p(E, C)\) ...+>) { ... M(...); ... }
|
 if (<+... \(E->fld@p op C\|E.fld@p op C\|C op E->fld@p\|C op E.fld@p\|fld@p(E, C)\) ...+>) { ... M(...); ... } else S
|
 if (<+... \(E->fld@p op C\|E.fld@p op C\|C op E->fld@p\|C op E.fld@p\|fld@p(E, C)\) ...+>) S else { ... M(...); ... }
|
 if (<+... \(E->fld@p op C\|E.fld@p op C\|C op E->fld@p\|C op E.fld@p\|fld@p(E, C)\) ...+>) M(...); else S
|
 if (<+... \(E->fld@p op C\|E.fld@p op C\|C op E->fld@p\|C op E.fld@p\|fld@p(E, C)\) ...+>) S else M(...);
)

@exit depends on cmp || call@
identifier C =~ "MAGIC";
binary operator op = {==, !=};
identifier fld, l;
expression E;
position p;
@@

if (<+... \(E->fld@p op C\|E.fld@p op C\|C op E->fld@p\|C op E.fld@p\|fld@p(E, C)\) ...+>) \(return ...;\|goto l;\|break;\|continue;\)

@store depends on set@
identifier set.fld;
expression E, X;
position p;
@@

(
 E->fld@p = X
|
 E.fld@p = X
)

@storetype depends on store@
identifier set.fld;
type T;
T *P;
T S;
position store.p;
@@

(
 P->fld@p = ...
|
 S.fld@p = ...
)

@truth depends on set@
identifier set.fld;
expression E;
statement S1, S2;
position p;
@@

(
 if (\(E->fld@p\|E.fld@p\|!E->fld@p\|!E.fld@p\)) S1 else S2
|
 if (\(E->fld@p\|E.fld@p\|!E->fld@p\|!E.fld@p\)) S1
|
 while (\(E->fld@p\|E.fld@p\|!E->fld@p\|!E.fld@p\)) S1
)

@ctx depends on context@
identifier fld, C =~ "MAGIC";
expression E;
@@

(
* E->fld = C
|
* E.fld = C
|
* E->fld != C
|
* E.fld != C
|
* E->fld == C
|
* E.fld == C
)

@script:python depends on report@
p << set.p; fld << set.fld; C << set.C; E << set.E;
@@
emit(p, "set", "assign", C, fld, E)

@script:python depends on report@
p << init.p; fld << init.fld; C << init.C; T << init.T;
@@
emit(p, "set", "init", C, fld, "", T)

@script:python depends on report@
p << call.p; F << call.F; C << call.C; E << call.E;
@@
emit(p, "call", "macro", C, F, E)

@script:python depends on report@
p << cmp.p; fld << cmp.fld; C << cmp.C; E << cmp.E;
@@
emit(p, "check", "condition", C, fld, E)

@script:python depends on report@
p << set.p; T << settype.T;
@@
emit(p, "type", "set", "", "", "", T)

@script:python depends on report@
p << cmp.p; T << cmptype.T;
@@
emit(p, "type", "check", "", "", "", T)

@script:python depends on report@
p << store.p; T << storetype.T;
@@
emit(p, "type", "store", "", "", "", T)

@script:python depends on report@
p << bug.p; B << bug.B;
@@
emit(p, "kind", "warn" if B.startswith("WARN") else "bug", "", "", "")

@script:python depends on report@
p << msg.p;
@@
emit(p, "kind", "message", "", "", "")

@script:python depends on report@
p << exit.p;
@@
emit(p, "kind", "early-exit", "", "", "")

@script:python depends on report@
p << store.p; fld << set.fld; X << store.X;
@@
emit(p, "store", "assign", "", fld, X)

@script:python depends on report@
p << truth.p; fld << set.fld;
@@
emit(p, "truth", "truth", "", fld, "")

@script:python depends on org@
p << set.p; C << set.C;
@@
cocci.print_main(f"{C} stored", p)

@script:python depends on org@
p << cmp.p; C << cmp.C;
@@
cocci.print_main(f"{C} checked", p)
