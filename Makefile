# Transmute. `make run` evaluates the bundled corpus; `make test` runs the tests.
SHELL   := /bin/bash
# A target that pipes a job into tee fails when the job does.
.SHELLFLAGS := -o pipefail -c
GO      ?= go
BIN     := bin/launch
SHARED  ?= ../shared/corpora
# The four recorded models the shared-corpus targets evaluate (the project's sample since
# the efficiency issue); the *-all targets take every model present (28 today).
MODELS ?= CodeLlama-13b-Instruct-hf Qwen2.5-Coder-7B-Instruct deepseek-coder-6.7b-instruct gpt-4o
TRACE_MODELS := $(addprefix $(SHARED)/trace/Ref_Translation/m.,$(MODELS))
TRACE_MODELS_ALL := $(wildcard $(SHARED)/trace/Ref_Translation/m.*)
# How the shared-corpus targets pass arguments to C++ programs: gold (the types the C++
# gold declares, as TransCoder-test's and TRACE's own scripts do, so pass rates into
# C++ compare with published ones) or adapt (whatever the translation takes).
CPP_ARGS ?= gold

.PHONY: all deps build run test test-short test-corpora bench eval-shared eval-shared-all clean vet lint mbta mbta-shared mbta-identity-shared efficiency-shared efficiency-shared-all consistency-shared report augment-shared growth-shared

# Plain `make` builds (the first rule is the default).
all: build

# The HTML report of the bundled run (make run first): out/run/report/index.html.
report:
	@test -f out/run/manifest.json || { echo "make report needs a finished run in out/run (make run first)"; exit 1; }
	$(GO) run ./cmd/report html out/run

deps:
	@bash scripts/deps.sh

# The commit goes into the binary for --version, manifest.json and every Parquet file
# (internal/version): Go's VCS stamp in a git work tree, else (a tarball,
# -buildvcs=false) this variable, with "-dirty" when the tree differs from HEAD.
COMMIT  := $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
LDFLAGS := $(if $(COMMIT),-X transmute/internal/version.commit=$(COMMIT))
build: deps
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/launch
	$(GO) build -o bin/transmute-sandbox-init ./transforms/sandbox/cmd/transmute-sandbox-init

# The main job on our bundled corpus: tables under out/run/, a summary on stdout.
run: build
	$(BIN) --config data/configs/run.json

# Every test; those on ../shared/corpora skip when it is absent.
# go test's own vet pass is off: it runs a subset of the analyzers go vet ./... has
# just run on the same packages.
test: deps
	@TRANSMUTE_TEST_DEPS=1 bash scripts/deps.sh
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) test -vet=off -timeout 30m -count=1 ./...

test-short: deps
	$(GO) test -short -count=1 ./...

# The long runs over ../shared/corpora that make test samples (TRANSMUTE_FULL=1):
# batched-equals-alone on every problem and all 28 recorded models (about 20
# minutes), the TRACE ground truth's profiling stability on 20 tasks, the
# properties job on the whole TransCoder-test sample, the builtin Java-to-C++
# translations on every C++ script of TransCoder-test, and the Java-to-Python ones
# again with overflow emulation (a measurement).
test-corpora: deps
	@test -d $(SHARED) || { echo "test-corpora needs $(SHARED)"; exit 1; }
	TRANSMUTE_FULL=1 PROPERTIES_SHARED=1 $(GO) test -timeout 120m -count=1 \
	  -run '^(TestBatchedEqualsAlone|TestTraceGroundTruthStability|TestSharedCorpusRun|TestCorpusTranscoderCpp|TestCorpusTranscoder)$$' \
	  ./transforms/execute/enginetest ./transforms/profile ./transforms/properties \
	  ./transforms/transpile/java2cpp ./transforms/transpile/java2py

# The four recorded LLMs of $(MODELS) on all six directions (TransCoder-test
# problems and TRACE tasks), plus the harness-fidelity report; under out/shared/.
eval-shared: build
	@test -d $(SHARED) || { echo "eval-shared needs $(SHARED)"; exit 1; }
	$(BIN) --corpus transcoder:$(SHARED)/transcoder-test --corpus trace:$(SHARED)/trace \
	  $(foreach m,$(TRACE_MODELS),--translator recorded:$(m)) --cpp-args $(CPP_ARGS) --out out/shared --run shared
	$(GO) run ./cmd/report fidelity out/shared | tee out/shared/fidelity-report.txt

# Benchmarks print BENCH lines comparing against the naive way in the same run.
bench: deps
	@mkdir -p out
	$(GO) test -run '^$$' -bench . -benchtime 1x -count=1 -timeout 60m ./... | tee out/bench.txt | grep -E '^(BENCH|Benchmark|ok|FAIL)'

vet:
	$(GO) vet ./...

# go vet plus staticcheck (pinned; fetched through the module proxy on first use).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.7.0
lint: vet
	$(GO) run $(STATICCHECK) ./...

clean:
	rm -rf bin out

# Mutation-based translation analysis (seed 000) of the builtin transpilers on
# TransCoder-test, as issue 4 defines the run (Java->Python and Java->C++, with the
# Java identity self-check, which costs nothing more: its translations are the source
# side's own programs); tables and a summary under out/mbta/. mbta-identity-shared
# adds the Python and C++ identity self-checks (their source sides are run for them
# alone) under out/mbta-identity/. MBTA_FLAGS adds e.g. --limit 50 --max-mutants 30.
# MUTANT_TIME_FACTOR limits each mutant's tests to that many times its original's
# slowest test plus 100 ms, so a looping mutant costs about 0.1 s instead of the fixed
# 1 s (0 = the fixed limit).
MBTA_FLAGS ?=
MUTANT_TIME_FACTOR ?= 10
mbta-shared: build
	@test -d $(SHARED) || { echo "mbta-shared needs $(SHARED)"; exit 1; }
	$(BIN) --job mbta --corpus transcoder:$(SHARED)/transcoder-test --translator builtin: --translator identity: \
	  --directions java-python,java-cpp,java-java --out out/mbta --run mbta-shared \
	  --mutant-time-factor $(MUTANT_TIME_FACTOR) $(MBTA_FLAGS)

mbta-identity-shared: build
	@test -d $(SHARED) || { echo "mbta-identity-shared needs $(SHARED)"; exit 1; }
	$(BIN) --job mbta --corpus transcoder:$(SHARED)/transcoder-test --translator identity: \
	  --directions python-python,cpp-cpp --out out/mbta-identity --run mbta-identity-shared \
	  --mutant-time-factor $(MUTANT_TIME_FACTOR) $(MBTA_FLAGS)

# MBTA on the bundled corpus; tables and a summary under out/mbta-run/.
mbta: build
	$(BIN) --job mbta --corpus jsonl:data/problems.jsonl --translator builtin: --translator identity: \
	  --directions java-python,java-cpp,java-java,python-python,cpp-cpp --out out/mbta-run --run mbta \
	  --mutant-time-factor $(MUTANT_TIME_FACTOR) $(MBTA_FLAGS)

# Efficiency (seed 002, TRACE): the four recorded models of ../shared/corpora on the
# TRACE tasks of all six directions; profiles, Beyond scores and a Table-15-style summary
# under out/efficiency/ (also: go run ./cmd/report efficiency out/efficiency).
# EFF_LIMIT tasks per direction (0 = every task with a stress suite; see docs/EFFICIENCY.md
# for the run times of both); EFF_COST is the cost mode (count: instructions under
# callgrind, cached by content under .cache/exec/count; time: process CPU, as before);
# EFF_FLAGS adds e.g. --profile-time-limit 180s.
EFF_LIMIT ?= 0
EFF_COST ?= count
EFF_FLAGS ?=
efficiency-shared: build
	@test -d $(SHARED) || { echo "efficiency-shared needs $(SHARED)"; exit 1; }
	$(BIN) --job efficiency --corpus trace:$(SHARED)/trace $(foreach m,$(TRACE_MODELS),--translator recorded:$(m)) \
	  --directions cpp-java,cpp-python,java-cpp,java-python,python-cpp,python-java --limit $(EFF_LIMIT) \
	  --cpp-args $(CPP_ARGS) --out out/efficiency --run efficiency-shared --cost $(EFF_COST) $(EFF_FLAGS) | tee out/efficiency-summary.txt

# eval-shared and efficiency-shared on every recorded model present (28 today), with the
# 28-model reference set for Beyond; under out/shared-all/ and out/efficiency-all/.
eval-shared-all: build
	@test -d $(SHARED) || { echo "eval-shared-all needs $(SHARED)"; exit 1; }
	$(BIN) --corpus transcoder:$(SHARED)/transcoder-test --corpus trace:$(SHARED)/trace \
	  $(foreach m,$(TRACE_MODELS_ALL),--translator recorded:$(m)) --cpp-args $(CPP_ARGS) --out out/shared-all --run shared-all
	$(GO) run ./cmd/report fidelity out/shared-all | tee out/shared-all/fidelity-report.txt

efficiency-shared-all: build
	@test -d $(SHARED) || { echo "efficiency-shared-all needs $(SHARED)"; exit 1; }
	$(BIN) --job efficiency --corpus trace:$(SHARED)/trace $(foreach m,$(TRACE_MODELS_ALL),--translator recorded:$(m)) \
	  --directions cpp-java,cpp-python,java-cpp,java-python,python-cpp,python-java --limit $(EFF_LIMIT) \
	  --cpp-args $(CPP_ARGS) --out out/efficiency-all --run efficiency-shared-all --cost $(EFF_COST) $(EFF_FLAGS) | tee out/efficiency-all-summary.txt

# Translation consistency and black-box repair (seed 004, docs/CONSISTENCY.md) of the
# builtin transpilers (Java->Python, Java->C++) and the identity (Java->Java) on
# TransCoder-test; tables and a summary under out/consistency/.
# CONSISTENCY_FLAGS adds e.g. --limit 20.
CONSISTENCY_FLAGS ?=
consistency-shared: build
	@test -d $(SHARED) || { echo "consistency-shared needs $(SHARED)"; exit 1; }
	@mkdir -p out
	$(BIN) --job consistency --corpus transcoder:$(SHARED)/transcoder-test --translator builtin: --translator identity: \
	  --directions java-python,java-cpp,java-java --out out/consistency --run consistency-shared $(CONSISTENCY_FLAGS) \
	  | tee out/consistency-summary.txt

# The tables of out/run (make run first) read by other implementations: arrow-rs
# (parquet-wasm) with Arrow JS, and DuckDB (its Node binding); each prints per table
# the rows, NULLs or encodings and the key-value metadata. The npm packages go to
# scripts/arrow/node_modules (the pipelines test reading through them skips without).
ARROW_OUT ?= out/run
.PHONY: arrow-deps arrow-check
arrow-deps:
	cd scripts/arrow && npm install --no-audit --no-fund
arrow-check: arrow-deps
	node scripts/arrow/read.mjs $(ARROW_OUT)
	node scripts/arrow/duckdb.mjs $(ARROW_OUT)

# Longer fuzzing of the input readers and spec parsers (make test runs their seed
# corpora only). FUZZTIME per target, default 1m.
FUZZTIME ?= 1m
.PHONY: fuzz
fuzz:
	$(GO) test -run XXX -fuzz '^FuzzReadJSONL$$' -fuzztime $(FUZZTIME) ./io/corpus
	$(GO) test -run XXX -fuzz '^FuzzRecordedJSONL$$' -fuzztime $(FUZZTIME) ./transforms/translate/recorded
	$(GO) test -run XXX -fuzz '^FuzzTraceModelFile$$' -fuzztime $(FUZZTIME) ./transforms/translate/recorded
	$(GO) test -run XXX -fuzz '^FuzzOpenSpec$$' -fuzztime $(FUZZTIME) ./transforms/translate
	$(GO) test -run XXX -fuzz '^FuzzParseSpec$$' -fuzztime $(FUZZTIME) ./transforms/translate/openai

# The k-safety properties of seed 001 (NOMOS) on the whole shared TransCoder-test
# sample: metamorphic variants of each function, the builtin translators (Java->Python,
# Java->C++) and the identity self-check in all three languages (it must violate
# none of the 38 properties); tables, Table 3 and the Table 1 layout under
# out/properties/ (summary also in out/properties-summary.txt). PROP_FLAGS adds e.g.
# --limit 40 or --variants-per-transformation 3.
PROP_FLAGS ?=
.PHONY: properties-shared
properties-shared: build
	@test -d $(SHARED) || { echo "properties-shared needs $(SHARED)"; exit 1; }
	@mkdir -p out
	$(BIN) --job properties --corpus transcoder:$(SHARED)/transcoder-test --translator builtin: --translator identity: \
	  --directions java-python,java-cpp,java-java,python-python,cpp-cpp --out out/properties --run properties-shared \
	  $(PROP_FLAGS) | tee out/properties-summary.txt

# Seed 003's similarity metrics (BLEU, STS, TRS, GRS, RUBY, CodeBLEU, CrystalBLEU)
# against execution for the 28 recorded TRACE models on all six directions: the
# evaluate job's output EVAL_OUT is reused when it has a manifest (else it is run
# first, which takes most of an hour), then --job similarity writes out/similarity/
# (tables, summary.txt). SIM_BOOTSTRAP sets the bootstrap resamples.
EVAL_OUT ?= out/shared-all
SIM_OUT ?= out/similarity
SIM_BOOTSTRAP ?= 200
.PHONY: similarity-shared
similarity-shared: build
	@test -d $(SHARED) || { echo "similarity-shared needs $(SHARED)"; exit 1; }
	@if [ ! -f $(EVAL_OUT)/manifest.json ]; then \
	  $(BIN) --corpus transcoder:$(SHARED)/transcoder-test --corpus trace:$(SHARED)/trace \
	    $(foreach m,$(TRACE_MODELS_ALL),--translator recorded:$(m)) --cpp-args $(CPP_ARGS) --out $(EVAL_OUT) --run shared-all --quiet; \
	else echo "reusing the evaluate output $(EVAL_OUT)"; fi
	$(BIN) --job similarity --from $(EVAL_OUT) --out $(SIM_OUT) --run similarity-shared --bootstrap $(SIM_BOOTSTRAP) --quiet
	@cat $(SIM_OUT)/summary.txt

# Only pipelines/ and cmd/launch may link Beam: cmd/report must list no Beam
# package, and internal/archtest checks every package (it also runs in make test).
.PHONY: check-beam
check-beam:
	@n=$$($(GO) list -deps ./cmd/report | grep -c apache/beam); echo "Beam packages in cmd/report: $$n"; test "$$n" = 0
	$(GO) test -count=1 ./internal/archtest

# The bundled corpus on a Prism job server with its workers in the worker root file
# system of `make image` (separate processes; README "Portable runs"), compared row by
# row with the in-process run (the tree is refreshed, not imported again). ROOTFS= runs
# the workers on the host instead; CONTAINER=podman or docker in that engine, from the
# image `make image` imported (docs/runs/2026-11-26-container.md).
ROOTFS ?= out/image/rootfs
CONTAINER ?=
.PHONY: portable image
portable: deps
	$(if $(CONTAINER),,$(if $(ROOTFS),ROOTFS=$(ROOTFS) IMPORT=0 GO=$(GO) bash scripts/image.sh))
	CONTAINER=$(CONTAINER) ROOTFS=$(ROOTFS) GO=$(GO) bash scripts/portable.sh

# The worker root file system (debootstrap from Debian's packages; JDK 17, g++, python3,
# Beam's boot loader, the launch binary), imported as an image where podman or docker is.
image:
	CONTAINER=$(CONTAINER) ROOTFS=$(ROOTFS) GO=$(GO) bash scripts/image.sh

# New tests for the shared TransCoder-test sample (docs/AUGMENT.md): generated inputs
# valid by the golds of every language, the reduced suite, and the augmented corpus
# as JSONL under out/augment/corpus/ (augmented.jsonl, reduced.jsonl).
AUGMENT_FLAGS ?=
augment-shared: build
	@test -d $(SHARED) || { echo "augment-shared needs $(SHARED)"; exit 1; }
	@mkdir -p out
	$(BIN) --job augment --corpus transcoder:$(SHARED)/transcoder-test --out out/augment --run augment-shared \
	  $(AUGMENT_FLAGS) | tee out/augment-summary.txt

# Complexity growth (docs/GROWTH.md) of the golds and the translations of the 28
# recorded TRACE models that pass the default tests: GROWTH_LIMIT tasks with a stress
# suite per direction (0 = all); counts cached under .cache/exec/count like the
# efficiency job's.
GROWTH_LIMIT ?= 4
GROWTH_FLAGS ?=
growth-shared: build
	@test -d $(SHARED) || { echo "growth-shared needs $(SHARED)"; exit 1; }
	@mkdir -p out
	$(BIN) --job growth --corpus trace:$(SHARED)/trace $(foreach m,$(TRACE_MODELS_ALL),--translator recorded:$(m)) \
	  --directions cpp-java,cpp-python,java-cpp,java-python,python-cpp,python-java --limit $(GROWTH_LIMIT) \
	  --cpp-args $(CPP_ARGS) --out out/growth --run growth-shared $(GROWTH_FLAGS) | tee out/growth-summary.txt
