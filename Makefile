# PushDesk — two commands: `make run` and `make test`. Both install what is missing.
SWIFT      ?= swift
DEMO_STORE ?= $(CURDIR)/.demo-store
BIN        := .build/debug/pushdesk

# Debian packages the build and the tests need (checked one by one; installed only when missing).
BUILD_PKGS := libncurses-dev libxml2-dev pkg-config
# default-jdk-headless: javac checks the generated Android snippets (clang comes with Swift);
# git: the team tests run real repositories (docs/TEAMS.md).
TEST_PKGS  := $(BUILD_PKGS) tmux libxml2-utils openssl ncurses-term default-jdk-headless git
# The static build (`make bench`, `make install`) also links zlib's and lzma's archives.
STATIC_PKGS := $(BUILD_PKGS) zlib1g-dev liblzma-dev
# `make bench`: Debian's python3 with pyte (terminal model for the bytes floor), dialog, xmllint, git and
# nginx (references).
BENCH_PKGS := $(STATIC_PKGS) python3 python3-pyte dialog libxml2-utils curl git nginx
# The benchmarked build, which `make install` installs too: release, linked into one static
# position-independent executable — the Swift runtime, Foundation, libxml2 with ICU, zlib
# and lzma, ncurses — so nothing is loaded or bound at start, and its address is still
# randomised; relative relocations packed (DT_RELR). Links with the toolchain's lld (gold
# cannot link a static PIE); the static libraries come with the -dev packages of BUILD_PKGS.
# PIE=no links a fixed-address static executable instead: about 0.5 ms faster to start, but
# without address randomisation of the program that parses untrusted files, so not the
# default (docs/PERFORMANCE.md).
PIE        ?= yes
STATIC_LIBS := $$(pkg-config --static --libs libxml-2.0 ncursesw | sed 's/-l[^ ]*/-Xlinker &/g')
LINK_STATIC := -Xswiftc -use-ld=lld $(if $(filter no,$(PIE)),-Xswiftc -static-executable,-Xswiftc -Xclang-linker -Xswiftc -static-pie -Xlinker -z -Xlinker pack-relative-relocs) $(STATIC_LIBS)
# Code generation for a fast start (docs/PERFORMANCE.md, "Where a start goes"): each function
# in its own section, so the linker can lay the start's functions side by side in the order
# scripts/startup.order lists them (`make startup-order` regenerates it); and generic types
# the code names built by their metadata accessors rather than by demangling their names at
# run time, whose conformance checks scanned all 9,000 conformance records.
FAST_START  := -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xcc -ffunction-sections -Xcc -fdata-sections -Xcxx -ffunction-sections -Xcxx -fdata-sections \
  -Xlinker --symbol-ordering-file=$(CURDIR)/scripts/startup.order -Xlinker --no-warn-symbol-ordering
# SwiftPM does not see the linker's input files: a newer scripts/startup.order relinks.
RELINK_ORDER := if [ scripts/startup.order -nt .build-static/release/pushdesk ]; then rm -f .build-static/release/pushdesk; fi;
BENCH_BUILD := $(RELINK_ORDER) $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath $(LINK_STATIC) $(FAST_START) --scratch-path .build-static

# `make install`: binary, man page (swift-argument-parser's generate-manual plugin) and bash/zsh/fish
# completions (the binary's --generate-completion-script). PREFIX and DESTDIR as usual.
PREFIX      ?= /usr/local
DESTDIR     ?=
CONFIG      ?= release
BINDIR      := $(PREFIX)/bin
MANDIR      := $(PREFIX)/share/man/man1
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  := $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR := $(PREFIX)/share/fish/vendor_completions.d
DIST        := .build/dist-$(CONFIG)
# A release installs the benchmarked build: the Swift runtime and Foundation linked in, so the
# binary starts faster and needs no Swift libraries on the machine (docs/PERFORMANCE.md).
# CONFIG=debug (the install check of `make test`) installs the plain debug build.
DIST_BUILD  := $(if $(filter release,$(CONFIG)),$(BENCH_BUILD),$(SWIFT) build -c $(CONFIG))
INSTALL_BIN := $(if $(filter release,$(CONFIG)),.build-static/release/pushdesk,.build/$(CONFIG)/pushdesk)
# The installed binary is stripped (`install -s`): the static release build carries its symbols
# and DWARF, which profilers and debuggers read but a start never maps (docs/PERFORMANCE.md,
# "Installed size"). The unstripped binary stays in .build-static/release/ (.build/debug/ for
# CONFIG=debug) for profiling. STRIP names the program; GNU strip and llvm-strip both keep the
# lld-linked static PIE runnable.
STRIP       ?= strip
# The manual's date is the last commit's, so the same tree gives the same page.
MAN_DATE    ?= $(shell git log -1 --format=%cs 2>/dev/null || date -u +%F)

# Formatting: swift format (ships with the toolchain), configured by .swift-format.
format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift

.PHONY: format lint all build run test bench bench-size bench-wide bench-merge bench-element bench-frame bench-listen bench-types bench-preview deps-build deps-test deps-bench deps-static startup-order clean demo-store dist install uninstall check-install

all: build

deps-build:
	@./.ci/ensure-packages $(BUILD_PKGS)

deps-test:
	@./.ci/ensure-packages $(TEST_PKGS)

build: deps-build
	$(SWIFT) build

# Opens the console on a demo store kept in .demo-store/ (created on first run). Builds the
# product only: `swift build` would also build the test-support target (Tests/PushDeskTestSupport).
run: deps-build
	$(SWIFT) build --product pushdesk
	@test -d "$(DEMO_STORE)/services" || $(BIN) init --demo "$(DEMO_STORE)"
	$(BIN) --store "$(DEMO_STORE)"

# Builds and runs every test: unit tests, screen tests and the real-terminal (tmux) suite,
# then prints how many tests were skipped and why (scripts/test-report keeps swift test's
# output and exit status). The send benchmark is `make bench`'s, not a test.
test: deps-test
	$(SWIFT) format lint --strict -r Sources Tests Package.swift
	$(SWIFT) build
	./Tests/install/check-install.sh
	./scripts/test-report $(SWIFT) test --disable-swift-testing --skip SendBenchmarkTests

# Benchmark (not a test): one table of PushDesk against its references (docs/PERFORMANCE.md),
# then the sending rows: the shipped binary against the tests' loopback APNs mock,
# and curl --http2 with the same pre-signed token against the same mock, in the same run.
bench: deps-bench
	$(BENCH_BUILD) --product pushdesk
	$(BENCH_BUILD) --product pushdesk-bench
	s=0; STRIP=$(STRIP) /usr/bin/python3 scripts/bench --bin .build-static/release || s=$$?; \
	PUSHDESK_SEND_BENCH=1 PUSHDESK_BENCH_BIN=$(CURDIR)/.build-static/release/pushdesk \
	  $(SWIFT) test --disable-swift-testing --filter SendBenchmarkTests || s=1; exit $$s

# Just the wide-store rows of `make bench` (20,000 services: rows loaded, Ctrl-Q and hang-up
# while loading), on the same static build.
bench-wide: deps-bench
	$(BENCH_BUILD) --product pushdesk
	$(BENCH_BUILD) --product pushdesk-bench
	/usr/bin/python3 scripts/bench --bin .build-static/release --only wide

# Just the merge-driver row of `make bench`, on the same static build. AGAINST=path/to/pushdesk
# times another build's driver in the same rounds (an A/B); BENCH_ARGS=--runs N for more rounds.
bench-merge: deps-bench
	$(BENCH_BUILD) --product pushdesk
	/usr/bin/python3 scripts/bench --bin .build-static/release --only merge $(if $(AGAINST),--against $(AGAINST)) $(BENCH_ARGS)

# Just the wide-element row of `make bench` (one element of 300,000 attributes), on the same
# static build.
bench-element: deps-bench
	$(BENCH_BUILD) --product pushdesk
	/usr/bin/python3 scripts/bench --bin .build-static/release --only element

# Just the demo store's first-frame row of `make bench` against dialog, on the same static
# build; AGAINST=path/to/pushdesk times another build's console in the same rounds (an A/B).
bench-frame: deps-bench
	$(BENCH_BUILD) --product pushdesk
	/usr/bin/python3 scripts/bench --bin .build-static/release --only frame $(if $(AGAINST),--against $(AGAINST)) $(BENCH_ARGS)

# Just the installed-size row of `make bench`: the static build stripped as `make install`
# strips it, its size beside the unstripped build's, and that it still runs.
bench-size: deps-bench
	$(BENCH_BUILD) --product pushdesk
	STRIP=$(STRIP) /usr/bin/python3 scripts/bench --bin .build-static/release --only size

# Just the push-type rows of `make bench`: preview --json of every iOS push type vs alert.
bench-types: deps-bench
	$(BENCH_BUILD) --product pushdesk
	$(BENCH_BUILD) --product pushdesk-bench
	/usr/bin/python3 scripts/bench --bin .build-static/release --only types $(BENCH_ARGS)

# Just the listen rows of `make bench`: pushdesk listen vs nginx over the same TLS;
# AGAINST=path/to/pushdesk times another build's listener in the same rounds (an A/B).
bench-listen: deps-bench
	$(BENCH_BUILD) --product pushdesk
	/usr/bin/python3 scripts/bench --bin .build-static/release --only listen $(if $(AGAINST),--against $(AGAINST)) $(BENCH_ARGS)

# In-process timings in a release build: per-preview time and the composer's key-to-frame
# time (docs/PAYLOADS.md and docs/PERFORMANCE.md).
bench-preview: deps-build
	$(SWIFT) build -c release --product pushdesk-bench
	.build/release/pushdesk-bench preview
	.build/release/pushdesk-bench composer

deps-bench:
	@./.ci/ensure-packages $(BENCH_PKGS)

deps-static:
	@./.ci/ensure-packages $(STATIC_PKGS)

# Rewrites scripts/startup.order from the current static build: the functions the console runs
# from exec to its first frame on the demo store, as valgrind's callgrind lists them.
startup-order: deps-bench
	@./.ci/ensure-packages valgrind
	$(BENCH_BUILD) --product pushdesk
	/usr/bin/python3 scripts/startup-order .build-static/release/pushdesk scripts/startup.order

# Man page and completions generated from the argument parser into $(DIST).
dist: $(if $(filter release,$(CONFIG)),deps-static,deps-build)
	$(DIST_BUILD) --product pushdesk
	rm -rf $(DIST) && mkdir -p $(DIST)
	$(SWIFT) package --disable-sandbox generate-manual --configuration $(CONFIG) --date $(MAN_DATE)
	cp .build/plugins/GenerateManual/outputs/pushdesk/pushdesk.1 $(DIST)/pushdesk.1
	$(INSTALL_BIN) --generate-completion-script bash > $(DIST)/pushdesk.bash
	$(INSTALL_BIN) --generate-completion-script zsh > $(DIST)/_pushdesk
	$(INSTALL_BIN) --generate-completion-script fish > $(DIST)/pushdesk.fish

install: dist
	install -Dm755 -s --strip-program=$(STRIP) $(INSTALL_BIN) "$(DESTDIR)$(BINDIR)/pushdesk"
	install -Dm644 $(DIST)/pushdesk.1 "$(DESTDIR)$(MANDIR)/pushdesk.1"
	install -Dm644 $(DIST)/pushdesk.bash "$(DESTDIR)$(BASHCOMPDIR)/pushdesk"
	install -Dm644 $(DIST)/_pushdesk "$(DESTDIR)$(ZSHCOMPDIR)/_pushdesk"
	install -Dm644 $(DIST)/pushdesk.fish "$(DESTDIR)$(FISHCOMPDIR)/pushdesk.fish"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/pushdesk" "$(DESTDIR)$(MANDIR)/pushdesk.1" \
	      "$(DESTDIR)$(BASHCOMPDIR)/pushdesk" "$(DESTDIR)$(ZSHCOMPDIR)/_pushdesk" \
	      "$(DESTDIR)$(FISHCOMPDIR)/pushdesk.fish"

# What `make test` runs before the unit tests: a debug-build install into a scratch DESTDIR.
check-install:
	./Tests/install/check-install.sh

clean:
	rm -rf .build
