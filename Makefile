# Two commands for a newcomer: `make run` and `make test` (README.md). Both install what is missing.
SHELL := /bin/bash
NODE_ARGS ?=

.PHONY: run test deps build docs format check-format kernel check-kernel kernel-test bench browser-deps rust-deps clean

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.package-lock.json

build: deps
	npm run -s build

# docs/api.md from the declared routes, schemas and error table, docs/architecture.md with the
# store's key layout (test/docs checks both are current).
docs: deps
	node scripts/docs.mjs

run: build
	./dist/node.mjs $(NODE_ARGS)

# Rewrites every source file in the project's format: Biome for TypeScript and the scripts
# (biome.json), rustfmt for the kernel (kernel-rs/rustfmt.toml).
format: deps
	npx biome format --write .
	cd kernel-rs && cargo fmt

# Fails on any file `make format` would change.
check-format: deps
	npx biome format .
	cd kernel-rs && cargo fmt --check

# Formatting, the type check, the kernel's host tests (host cargo), then vitest (the browser test
# needs Chromium).
test: build browser-deps check-format
	npx tsc -p tsconfig.json --noEmit
	cd kernel-rs && cargo test --release -q
	@mkdir -p dist
	npx vitest run --reporter=default --reporter=json --outputFile.json=dist/vitest.json || { node scripts/test-summary.mjs dist/vitest.json; exit 1; }
	@node scripts/test-summary.mjs dist/vitest.json

browser-deps:
	@command -v chromium >/dev/null || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

rust-deps:
	bash scripts/setup-rust-wasm.sh

# Rebuilds the committed module wasm/kernel.wasm and its embedding from kernel-rs/.
kernel: rust-deps
	bash scripts/build-wasm.sh kernel-rs/target/wasm
	cp kernel-rs/target/wasm/wasm32-unknown-unknown/release/kernel.wasm wasm/kernel.wasm
	node scripts/embed-wasm.mjs wasm/kernel.wasm wasm/kernel_bytes.ts

# Rebuilds from scratch in a temporary place and fails unless it equals the committed module.
check-kernel: rust-deps
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	bash scripts/build-wasm.sh $$tmp/target && \
	cmp $$tmp/target/wasm32-unknown-unknown/release/kernel.wasm wasm/kernel.wasm && \
	node scripts/embed-wasm.mjs wasm/kernel.wasm $$tmp/kernel_bytes.ts && \
	cmp $$tmp/kernel_bytes.ts wasm/kernel_bytes.ts && \
	echo "check-kernel: wasm/kernel.wasm matches kernel-rs/ byte for byte"

# Prints every benchmark figure; the kernel part runs the native build of the crate for comparison.
bench: build browser-deps
	node dist/bench.mjs

clean:
	rm -rf dist kernel-rs/target
