#!/bin/bash
# sparc64's page->flags: its sun4u D-cache code keeps a CPU number in
# bits 32 and up, outside the generic layout, and the allocation tag's
# index must stay above it (__ALLOC_TAG_REF_FLOOR in
# include/linux/page-flags-layout.h).  paging_init() in
# arch/sparc/mm/init_64.c asserts that at build time; this compiles that
# file for sparc64_defconfig with profiling on (NUMA, NR_CPUS=4096: the
# index does not fit above the field and goes to page_ext) and with
# NUMA off (the index fits, at bits 44..62).  Needs Debian's
# gcc-sparc64-linux-gnu (install-deps.sh sparc64).
#
#   scripts/check-sparc64.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"

passed=0 failed=0
log=$LOGS/sparc64-layout.log
mkdir -p "$LOGS" "$BUILD/results"
: >"$log"
for variant in numa nonuma; do
	out=$(out_dir patched "sparc64-$variant")
	mkdir -p "$out"
	m=(make -C "$TREE" O="$out" ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu-
	   CC="ccache sparc64-linux-gnu-gcc" -j"$(nproc)")
	phase "sparc64_defconfig ($variant) with profiling: arch/sparc/mm/init_64.o, log in ${log#"$TOP"/}"
	err=
	if ! {
		"${m[@]}" sparc64_defconfig &&
		"$TREE/scripts/config" --file "$out/.config" -e PROC_FS -e MEM_ALLOC_PROFILING \
			$([ $variant = nonuma ] && echo -d NUMA) &&
		"${m[@]}" olddefconfig &&
		grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$out/.config" &&
		"${m[@]}" arch/sparc/mm/init_64.o
	} >>"$log" 2>&1; then
		err="the build failed (log: ${log#"$TOP"/}):
$(grep -E 'error|BUILD_BUG' "$log" | tail -n 5)"
	fi
	judge "sparc64 ($variant): the tag index stays above the D-cache CPU field" "$err"
done
echo "sparc64-layout: $passed passed, $failed failed"
echo "$passed $failed 0" >"$BUILD/results/sparc64-layout"
[ "$failed" = 0 ]
