# Entry points; the logic lives in scripts/ and bench/ (benchmarks).  See README.md.
SHELL := /bin/bash
S := scripts
B := bench

.PHONY: help deps tree retree export demo check check-wide bench bench-kasan bench-scs bench-ctx kunit \
	x86_64 arm64-mte arm64-sw-tags arm64-mte-scs arm64-sw-tags-scs series headers tools \
	bisect baseline clean

help:
	@echo "make demo     build the demo kernels (x86_64, arm64 MTE), boot them, show every feature (DEMO=x86_64: x86_64 only)"
	@echo "make check    every test CI runs; ends with 'N passed, N failed'"
	@echo "make check-wide  what users build: defconfig kernels, SLAB and KASAN guests, every prefix of the series (not in CI; run before resolving an issue)"
	@echo "make bench    patched vs unpatched 6.1 in-kernel benchmarks (results in build/bench/)"
	@echo "make bench-kasan  stack depot memory under KASAN tags, evicting vs keep-forever depot"
	@echo "make bench-scs    KASAN stack traces from arm64's shadow call stack vs the unwinder"
	@echo "make bench-ctx    allocation context capture: built in vs not, and a captured allocation"
	@echo "make tree     create build/linux from the Debian package + patches/"
	@echo "make retree   throw build/linux away and re-create it"
	@echo "make export   write build/linux's commits back into patches/, a posting per posting/* tag"
	@echo "make series | headers | tools | kunit | x86_64 | arm64-mte | arm64-sw-tags | arm64-mte-scs | arm64-sw-tags-scs"
	@echo "              one step of make check"
	@echo "make bisect   build every prefix of the series, posting by posting, x86_64 and arm64-mte (slow, not in CI)"
	@echo "make baseline the kunit and guest steps on the unpatched base (not in CI)"

deps:
	$(S)/install-deps.sh x86_64 arm64 clang

tree:
	$(S)/install-deps.sh x86_64
	$(S)/tree.sh --sync

retree:
	$(S)/install-deps.sh x86_64
	$(S)/tree.sh --force

export:
	$(S)/export.sh

demo:
	$(S)/demo.sh

check:
	$(S)/check.sh

check-wide:
	$(S)/check-wide.sh

kunit x86_64 arm64-mte arm64-sw-tags arm64-mte-scs arm64-sw-tags-scs series headers tools:
	$(S)/check.sh $@

bench:
	$(B)/bench.sh

bench-kasan:
	$(B)/bench-kasan.sh

bench-scs:
	$(B)/bench-scs.sh

bench-ctx:
	$(B)/bench-ctx.sh

bisect: tree
	$(S)/bisect-check.sh

baseline:
	BASELINE=1 $(S)/check.sh

clean:
	rm -rf build/out build/logs build/results build/bench
