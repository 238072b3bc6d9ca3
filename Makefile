# SPDX-License-Identifier: GPL-2.0
#
# demagic: retire kernel magic numbers with Coccinelle.  `make help` lists it all.

# Set these on the command line or from the environment to override.
KDIR    ?=#   your own kernel tree to work on (read only; copied under build/trees/)
DEFAULT_TREE := linux-6.1
TREE    ?= $(DEFAULT_TREE)#   without KDIR: Debian's tree to work on, linux-6.1 or linux-6.12
SCOPE   ?=#   spatch: registry (only the registry's entries) or all (default: registry on linux-6.1)
M       ?=#   limit the run to this subdirectory of the tree, as coccicheck's M=
J       ?= $(shell nproc)#   parallel jobs
V       ?= 0#  1: show the commands run
MODE    ?=#   scan output: report (default), org, context, patch
FORMAT  ?= text#   scan output: text or json
TARGETS ?=#   space-separated magic macros to retire (default: registry, else scan verdicts)
OUT     ?=#   where spatch writes the series (default: generated-patches/<tree name>)
SERIES  ?= generated-patches/linux-6.1#   the series that verify and boot-test check
IDENTITY ?=#  'Name <mail>' to sign the series with (default: git config; fixed for the default tree)
REF     ?= ../shared/reference#   upstream patches to compare with (verify; absent = n.a.)
PREREQ  ?=#   verify: patches (a file or a directory) applied before the series
FLAVOUR ?= plain#   boot-test kernels: plain, or debug (KASAN, lockdep, debug objects)

export V
Q := $(if $(filter 1,$(V)),,@)
PY := PYTHONPATH=$(CURDIR)/cocci:$(CURDIR) python3
ARGS_KDIR := $(if $(KDIR),--kdir $(KDIR),--tree $(TREE))
# verify and boot-test take the tree from the series unless told otherwise
ARGS_SRC := $(if $(KDIR),--kdir $(KDIR),$(if $(filter command line environment,$(origin TREE)),--tree $(TREE)))
ARGS_M := $(if $(M),--subdir $(M))

ifneq ($(filter-out 0 1,$(V)),)
$(error V=$(V): must be 0 or 1)
endif
ifneq ($(filter-out text json,$(FORMAT)),)
$(error FORMAT=$(FORMAT): must be text or json)
endif
ifneq ($(filter-out report org context patch,$(MODE)),)
$(error MODE=$(MODE): must be report, org, context or patch)
endif
ifneq ($(filter-out plain debug,$(FLAVOUR)),)
$(error FLAVOUR=$(FLAVOUR): must be plain or debug)
endif
ifeq ($(shell [ "$(J)" -ge 1 ] 2>/dev/null && echo ok),)
$(error J=$(J): must be a positive number)
endif

.DEFAULT_GOAL := help

help:
	@echo 'demagic: Coccinelle rules that retire kernel magic numbers, with proof.'
	@echo
	@echo 'Targets:'
	@echo '  spatch           - Write the series for the tree to generated-patches/<tree>/'
	@echo '  scan             - Find and judge every magic number of the tree (or M=)'
	@echo '  verify           - Prove SERIES applies, builds on its arch, leaves nothing'
	@echo '  check-mail       - Would the list take SERIES: To:, git am, checkpatch --strict, b4'
	@echo '  boot-test        - Boot kernels before and after SERIES in QEMU, run guest tests'
	@echo '  boot-test-mutant - Boot deliberately wrong variants of SERIES: tests must fail'
	@echo '  check            - Quick checks between edits: unit tests, rule and judge cases, both series'
	@echo '  test             - Everything CI runs: rule cases, unit tests, series, verify, boots'
	@echo '  test-rules       - Only the exact-output cases of the rules (cocci/tests/cases/)'
	@echo '  test-judge       - Only the exact-output cases of the scan and judge (cocci/tests/judge/)'
	@echo '  bench            - Time spatch, scan, verify and boots, print the figures'
	@echo '  deps             - Install the Debian packages of every target (as root)'
	@echo '  clean            - Remove build outputs but keep the extracted trees'
	@echo '  distclean        - Remove all of build/'
	@echo
	@echo 'Variables:'
	@echo '  KDIR=dir         - Your own kernel tree; never modified'
	@echo '  TREE=name        - Without KDIR, Debian'"'"'s tree: linux-6.1 (default) or linux-6.12'
	@echo '  SCOPE=scope      - spatch: registry entries only, or all verdicts (default: registry on linux-6.1)'
	@echo '  M=subdir         - Limit spatch or scan to a subdirectory, as coccicheck M='
	@echo '  J=n              - Parallel jobs (default: nproc)'
	@echo '  V=1              - Show the commands run'
	@echo '  MODE=mode        - scan as coccicheck: report, org, context (lines marked *), patch (the diffs)'
	@echo '  FORMAT=json      - scan output as one JSON object per line'
	@echo '  TARGETS="A B"    - Magic macros to retire (default: registry or scan verdicts)'
	@echo '  OUT=dir          - Where spatch writes the series'
	@echo '  SPLIT=1          - spatch: one series per maintainer tree, each in OUT/<tree>/ with a cover letter'
	@echo "  IDENTITY='N <m>' - Signed-off-by of the series (default: git config; fixed for 6.1)"
	@echo '  SERIES=dir       - Series for verify and boot-test (default: $(SERIES))'
	@echo '  REF=dir          - Upstream patches verify compares with (default: $(REF))'
	@echo '  PREREQ=path      - verify: patches applied before the series (a file or a directory)'
	@echo '  FLAVOUR=debug    - boot-test kernels with KASAN, lockdep and debug objects (default: plain)'

# The series for the tree: generated-patches/<tree>/ (or OUT=).
spatch:
	$(Q)$(PY) -m demagic deps spatch
	$(Q)$(PY) -m demagic spatch $(ARGS_KDIR) $(ARGS_M) --jobs $(J) $(if $(SCOPE),--scope $(SCOPE)) \
		$(if $(OUT),--out $(OUT)) $(if $(TARGETS),--targets "$(TARGETS)") \
		$(if $(IDENTITY),--identity "$(IDENTITY)") $(if $(filter-out 0 no,$(SPLIT)),--split)

scan:
	$(Q)$(PY) -m demagic deps scan
	$(Q)$(PY) -m demagic scan $(ARGS_KDIR) $(ARGS_M) --jobs $(J) --format $(FORMAT) \
		$(if $(MODE),--mode $(MODE))

verify:
	$(Q)$(PY) -m demagic deps verify
	$(Q)$(PY) -m verify run $(ARGS_SRC) --series $(SERIES) --ref $(REF) --jobs $(J) \
		$(if $(PREREQ),--prereq $(PREREQ))

check-mail:
	$(Q)$(PY) -m demagic deps check-mail
	$(Q)$(PY) -m demagic check-mail $(ARGS_SRC) --series $(SERIES)

boot-test:
	$(Q)$(PY) -m demagic deps boot-test
	$(Q)$(PY) -m qemu run $(ARGS_SRC) --series $(SERIES) --jobs $(J) --flavour $(FLAVOUR)

boot-test-mutant:
	$(Q)$(PY) -m demagic deps boot-test
	$(Q)$(PY) -m qemu mutant $(ARGS_SRC) --series $(SERIES) --jobs $(J) --flavour $(FLAVOUR)

test-rules:
	$(Q)$(PY) -m demagic deps spatch
	$(Q)$(PY) -m demagic test-rules
	$(Q)$(PY) -m demagic test-rules --selftest

test-judge:
	$(Q)$(PY) -m demagic deps spatch
	$(Q)$(PY) -m demagic test-judge --mutants
	$(Q)$(PY) -m demagic test-judge --selftest

# Everything CI runs, quick checks first; each phase prints the time it starts.
# Then the two trees' proofs go side by side (proof-<tree>), each line tagged
# with its tree: while one extracts its tree, links a kernel or boots it, the
# other compiles.  Kernel builds run under nice, so the guests' timed tests
# keep their CPU.
PHASE = @echo "== $$(date +%T) $(1)"
# the disk's room for build/ before the proofs, and what build/ holds after them
ROOM = @mkdir -p build && echo "== room: $$(df -BM --output=avail build | tail -1 | tr -d ' ') free for build/$(1)"
PROOF_TREES := linux-6.1 linux-6.12
# The quick checks: unit tests, and the rule and judge cases with their selftests
# (the judge cases run once more with each kind of evidence turned off: --mutants).
define QUICK
	$(call PHASE,unit tests: cocci verify qemu)
	$(Q)$(PY) -m unittest discover -s cocci/tests -t cocci -p 'test_*.py'
	$(Q)$(PY) -m unittest discover -s verify/tests -t .
	$(Q)$(PY) -m unittest discover -s qemu/tests -t .
	$(call PHASE,rule cases)
	$(Q)$(PY) -m demagic test-rules
	$(Q)$(PY) -m demagic test-rules --selftest
	$(call PHASE,judge cases)
	$(Q)$(PY) -m demagic test-judge --mutants
	$(Q)$(PY) -m demagic test-judge --selftest
endef

define CHECK_SERIES
	$(call PHASE,series regenerated and compared with generated-patches/$(1))
	$(Q)$(PY) -m demagic check-series --series generated-patches/$(1) --jobs $(J)
endef

# What a contributor runs between edits: the quick checks, then both committed
# series regenerated and compared byte for byte.
check:
	$(call PHASE,packages)
	$(Q)$(PY) -m demagic deps spatch
	$(QUICK)
	$(call CHECK_SERIES,linux-6.1)
	$(call CHECK_SERIES,linux-6.12)
	$(call PHASE,all passed)

test:
	$(call PHASE,packages)
	$(Q)$(PY) -m demagic deps test
	$(QUICK)
	$(call ROOM,)
	$(call PHASE,proofs side by side: $(PROOF_TREES))
	$(Q)$(MAKE) --no-print-directory -j$(words $(PROOF_TREES)) $(PROOFS)
	$(call ROOM,; it holds $$(du -sm build | cut -f1)M)
	$(call PHASE,all passed)

# One tree's proofs.  The series is regenerated and compared first, and
# addressed as the list wants it; verify's own selftest runs on the default
# tree.  The mutants go before boot-test: they keep the fields the series
# removes from shared headers such as include/linux/fs.h, so their kernels and
# the pristine one differ only in drivers' .c files, and only boot-test's after
# kernels recompile what includes those headers.
PROOFS := $(addprefix proof-,$(PROOF_TREES))
$(PROOFS): SHELL := /bin/bash
$(PROOFS): .SHELLFLAGS := -o pipefail -ec
$(PROOFS): TAG = sed -u 's/^/[$*] /'
# the kernel's make, run by these, takes -j from J=, not this make's jobserver;
# lines reach the tag as they are printed
$(PROOFS): PROOF_ENV := MAKEFLAGS= MFLAGS= PYTHONUNBUFFERED=1
$(PROOFS): proof-%:
	$(call PHASE,[$*] series regenerated and compared with generated-patches/$*)
	$(Q)$(PROOF_ENV) $(PY) -m demagic check-series --series generated-patches/$* --jobs $(J) \
		2>&1 | $(TAG)
	$(call PHASE,[$*] check-mail: addressed; git am; checkpatch --strict; b4)
	$(Q)$(PROOF_ENV) $(PY) -m demagic check-mail --series generated-patches/$* 2>&1 | $(TAG)
	$(if $(filter $(DEFAULT_TREE),$*),$(call PHASE,[$*] verify: broken series must fail))
	$(Q)$(if $(filter $(DEFAULT_TREE),$*),$(PROOF_ENV) $(PY) -m verify selftest --jobs $(J) \
		2>&1 | $(TAG))
	$(call PHASE,[$*] verify generated-patches/$*)
	$(Q)$(PROOF_ENV) $(PY) -m verify run --series generated-patches/$* --ref $(REF) --jobs $(J) \
		2>&1 | $(TAG)
	$(call PHASE,[$*] boot-test mutants must fail)
	$(Q)$(PROOF_ENV) $(PY) -m qemu mutant --series generated-patches/$* --jobs $(J) 2>&1 | $(TAG)
	$(call PHASE,[$*] boot-test generated-patches/$*)
	$(Q)$(PROOF_ENV) $(PY) -m qemu run --series generated-patches/$* --jobs $(J) 2>&1 | $(TAG)
	$(call PHASE,[$*] proven)

bench:
	$(Q)$(PY) -m demagic deps test
	$(Q)$(PY) -m demagic bench --jobs $(J)
	$(Q)$(PY) -m demagic scan --bench --jobs $(J)
	$(Q)$(PY) -m verify bench --series $(SERIES) --jobs $(J)
	$(Q)$(PY) -m qemu bench --cold --series $(SERIES) --jobs $(J)

deps:
	$(Q)$(PY) -m demagic deps test

clean:
	$(Q)rm -rf build/work build/verify build/qemu build/scan build/bench

distclean:
	$(Q)rm -rf build

.PHONY: help spatch scan verify check-mail boot-test boot-test-mutant test-rules test-judge check test bench deps \
	clean distclean $(PROOFS)

Makefile: ;

# Anything else is an error, with the list of what exists.
%:
	@echo "make: unknown target '$@'; 'make help' lists the targets" >&2; exit 2

.DELETE_ON_ERROR:
