# coterie — build, test and measure. `make demo` and `make test` are the two
# commands a newcomer needs (README.md).

GO       ?= go
BIN      := bin/coterie
VERSION  := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
FUZZTIME ?= 1m
BENCH    ?= .
DEMO     := demo-out

.PHONY: all build test test-long test-systems systems-deps test-cluster bench bench-commands fuzz lint demo install clean browser-deps image

all: build

# The binary is built without cgo: statically linked, it starts about a
# millisecond sooner (no dynamic loader), which is a tenth of a small run.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/coterie

# The test suite, as CI runs it: vet, format check, then every test
# (unit, golden, fuzz seed corpora, end-to-end CLI scripts, and the
# explorer driven by headless Chromium).
test: lint browser-deps
	COTERIE_BROWSER=require $(GO) test ./...

# The long tests, not run by `make test`: a second, independent proof and
# a recomputation of the stored availability polynomial of PG(2,7).
# Minutes of CPU; CONTRIBUTING.md gives the figures.
test-long:
	COTERIE_LONG=1 $(GO) test -timeout 0 -v -run 'TestPG7$$|TestPG7Columns' ./availability/

# The real-software suite: real ZooKeeper and etcd servers on 127.0.0.1,
# some of them stopped, and a write that must succeed exactly when coterie
# says the live servers hold a quorum (systems/*_real_test.go). A few
# minutes; it prints a table per ensemble.
test-systems: systems-deps
	COTERIE_SYSTEMS=require $(GO) test -count=1 -v -timeout 20m -run '^TestReal' ./systems/

# ZooKeeper (with its Java runtime) and etcd for test-systems: installed
# with apt-get when missing and running as root; otherwise a message says
# how, and the target fails.
systems-deps:
	@missing=""; \
	{ [ -f /usr/share/java/zookeeper.jar ] && command -v java >/dev/null 2>&1; } || missing="$$missing zookeeper"; \
	command -v etcd >/dev/null 2>&1 || missing="$$missing etcd-server"; \
	command -v etcdctl >/dev/null 2>&1 || missing="$$missing etcd-client"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing$$missing for the real-software suite"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing || \
			{ echo "apt-get could not install$$missing: the real-software suite cannot run"; exit 1; }; \
	else \
		echo "The real-software suite needs the Debian packages$$missing."; \
		echo "Install them (Debian/Ubuntu: sudo apt-get install -y$$missing) and run make test-systems again."; \
		exit 1; \
	fi

# deploy/slurm-array.sh on a real single-node Slurm cluster started here
# (as root; slurm-wlm and munge are installed with apt-get when missing):
# split runs merge to the unsplit results byte for byte, also after a
# task is cancelled and resubmitted. About a minute and a half.
test-cluster:
	./scripts/test-cluster.sh

# Chromium for the browser test (cmd/coterie TestBrowser): installed with
# apt-get when missing and running as root; otherwise a message says how.
# COTERIE_CHROMIUM may name another Chromium binary.
browser-deps:
	@if [ -n "$$COTERIE_CHROMIUM" ] || command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
		exit 0; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium for the browser test"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
		echo "The browser test needs Chromium and will fail without it."; \
		echo "Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set COTERIE_CHROMIUM to a Chromium binary."; \
	fi


# staticcheck is pinned and installed from the Go module proxy on first use,
# so that `make lint` (and `make test`) need nothing but Go.
STATICCHECK_VERSION ?= v0.8.2
GOBIN       := $(or $(shell $(GO) env GOBIN),$(shell $(GO) env GOPATH)/bin)
STATICCHECK := $(GOBIN)/staticcheck

$(STATICCHECK):
	GOBIN=$(GOBIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# vet (also for a 32-bit target, where an int constant may overflow), the
# gofmt check and staticcheck.
lint: $(STATICCHECK)
	$(GO) vet ./...
	GOARCH=386 $(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needs to run on:"; echo "$$out"; exit 1; fi
	$(STATICCHECK) ./...

# Benchmarks: the whole commands (bench-commands), then the Go
# benchmarks; compare two runs of these with benchstat (BENCH selects,
# e.g. make bench BENCH=Large).
bench:
	@status=0; ./scripts/bench-commands.sh || status=$$?; \
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem ./... && exit $$status

# The whole-command suite alone: coterie timed by hyperfine, start to
# exit, on big explicit lists against their targets (scripts/bench-commands.sh;
# RUNS=5, BENCH_DIR=... to keep the inputs).
bench-commands:
	./scripts/bench-commands.sh

# Every fuzz target for FUZZTIME each (make fuzz FUZZTIME=10m).
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

# The container image (deploy/Dockerfile): static binary, distroless,
# non-root. DOCKER=podman works too.
DOCKER ?= docker
IMAGE  ?= coterie:latest
image:
	$(DOCKER) build -f deploy/Dockerfile --build-arg VERSION=$(VERSION) -t $(IMAGE) .

install:
	CGO_ENABLED=0 $(GO) install -ldflags "$(LDFLAGS)" ./cmd/coterie

clean:
	rm -rf bin $(DEMO)

# A tour on built-in examples: build a projective plane, prove it, measure
# it, compare it with other systems, run Maekawa's protocol on it.
demo: build
	COTERIE=$(BIN) ./scripts/demo.sh
