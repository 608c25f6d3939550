# PushDesk — two commands: `make run` and `make test`. Both install what is missing.
SWIFT      ?= swift
DEMO_STORE ?= $(CURDIR)/.demo-store
BIN        := .build/debug/pushdesk

# Debian packages the build and the tests need (checked one by one; installed only when missing).
BUILD_PKGS := libncurses-dev pkg-config
TEST_PKGS  := $(BUILD_PKGS) tmux libxml2-utils openssl ncurses-term

.PHONY: all build run test bench deps-build deps-test clean demo-store

all: build

deps-build:
	@./.ci/ensure-packages $(BUILD_PKGS)

deps-test:
	@./.ci/ensure-packages $(TEST_PKGS)

build: deps-build
	$(SWIFT) build

# Opens the console on a demo store kept in .demo-store/ (created on first run).
run: build
	@test -d "$(DEMO_STORE)/services" || $(BIN) init --demo "$(DEMO_STORE)"
	$(BIN) --store "$(DEMO_STORE)"

# Builds and runs every test: unit tests, screen tests and the real-terminal (tmux) suite.
test: deps-test
	$(SWIFT) build
	$(SWIFT) test --disable-swift-testing

# Benchmark (not a test): per-preview time in a release build (docs/PAYLOADS.md, Performance).
bench: deps-build
	$(SWIFT) build -c release --product pushdesk-bench
	.build/release/pushdesk-bench preview

clean:
	rm -rf .build
