#!/bin/bash
# Header self-containment: every header the series adds or changes must
# compile on its own, with every allocation macro it defines used, in each
# of three configurations: allocation profiling not configured
# (x86_64-users, the depot users' compile target of make series),
# configured (x86_64-hdr-on) and configured with its DEBUG checks (x86_64,
# the guest of make check).  Each is only prepared here (modules_prepare),
# which its own build later reuses through ccache.
#
#   scripts/check-headers.sh [TARGET...]
#
# tests/headers/NAME.c includes only <linux/NAME.h> (or the header its
# first #include names) and calls each allocation macro of it.  A header
# the series touches without a test file, or an allocation macro (a
# function-like #define whose body calls alloc_hooks() or a _noprof
# function) that its test file does not name, fails the check: a new
# macro cannot slip in untested.  Each file is compiled with the kernel's
# flags plus W=1 and -Werror: the first by kbuild (an external module
# directory), the others with the compiler command kbuild ran for it.
# Counts go to build/results/headers; logs to build/logs/headers-*.log.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/targets.sh"

passed=0 failed=0

cd "$TREE" || die "no tree (make tree)"
SRC=$LINE_DIR/tests/headers

# The headers the series adds or changes (generic ones: the check builds
# x86_64 only).
mapfile -t headers < <(git diff --name-only --diff-filter=AM base..HEAD -- 'include/linux/*.h' |
	grep -v '^include/linux/.*_types\.h$' | sort)
# The 6.1 line's allocation macros reach these through others.
[ "$LINE" = 6.1 ] && headers+=(include/linux/gfp_types.h include/linux/mm_types.h)

phase "allocation macros of ${#headers[@]} headers have a test"
for h in "${headers[@]}"; do
	name=${h#include/linux/}
	name=${name%.h}
	tu=$SRC/$name.c
	if [ ! -f "$tu" ]; then
		judge "$h" "no ${SRC#"$TOP"/}/$name.c"
		continue
	fi
	# Function-like macros whose expansion allocates through a tag.
	missing=$(python3 - "$h" "$tu" <<'EOF'
import re, sys
hdr, tu = open(sys.argv[1]).read(), open(sys.argv[2]).read()
hdr = hdr.replace('\\\n', ' ')
names = []
for m in re.finditer(r'^#\s*define\s+(\w+)\(([^)]*)\)(.*)$', hdr, re.M):
    name, body = m.group(1), m.group(3)
    if name.endswith('_noprof') or name in ('alloc_tag_save', 'alloc_tag_restore'):
        continue
    if re.search(r'\b_*alloc_hooks\w*\(|\w+_noprof\(', body):
        names.append(name)
for n in sorted(set(names)):
    if not re.search(r'\b%s\(' % re.escape(n), tu):
        print(n)
EOF
)
	judge "$h: macros used by tests/headers/$name.c" "${missing:+not used: $missing}"
	first=$(sed -n 's/^#include <\(.*\)>$/\1/p' "$tu" | head -n 1)
	# A header only ever included by another is checked through it.
	case $name in
	fortify-string) want=linux/string.h ;;
	# slub_def.h: through mm/slab.h, after what mm/slub.c includes.
	slub_def) want=linux/mm.h ;;
	page-flags-layout) want=linux/mmzone.h ;;
	*) want=linux/$name.h ;;
	esac
	judge "$h: tests/headers/$name.c includes <$want> first" \
		"$([ "$first" = "$want" ] || echo "first include is <$first>")"
done

work=$BUILD/headers
# compile_one TARGET OUT NAME: compile $work/TARGET/NAME/NAME.o, log per
# object.  Each object has a directory of its own: kbuild reads every
# .*.cmd file of its M= directory, and a parallel make writing one there
# would make another read half a file.
compile_one() {
	make -C "$TREE" O="$2" ARCH=x86_64 CC="ccache gcc" W=1 KCFLAGS=-Werror \
		M="$work/$1/$3" "$3.o" >"$LOGS/headers-$1-$3.log" 2>&1
	echo $? >"$work/$1/$3/rc"
}
# compile_like TARGET OUT NAME TEMPLATE: compile NAME with the command
# kbuild ran for TEMPLATE (saved in $work/TARGET/cmd), names replaced.
# The same flags without a make per header: make reads the whole kbuild
# tree for each M= directory, 8 of the 9 seconds a header took.
compile_like() {
	local cmd
	cmd=$(cat "$work/$1/cmd")
	cmd=${cmd//$4/$3}
	cmd=${cmd//${4//-/_}/${3//-/_}}
	(cd "$2" && eval "$cmd") >"$LOGS/headers-$1-$3.log" 2>&1
	echo $? >"$work/$1/$3/rc"
}
export -f compile_one compile_like
export TREE LOGS work

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	targets=(x86_64-users x86_64-hdr-on x86_64)
	# The 7.3 line configures no profiling of its own: its guest's.
	[ "$LINE" = 6.1 ] || targets=(x86_64)
fi
for target in "${targets[@]}"; do
	phase "$target: configure and prepare"
	if ! "$TOP/scripts/build-kernel.sh" "$target" modules_prepare; then
		judge "$target: modules_prepare" "failed (see build/logs/build-$target.log)"
		continue
	fi
	target_env "$target"
	out=$(out_dir patched "$target")
	rm -rf "${work:?}/$target"
	mkdir -p "$work/$target"
	objs=()
	for tu in "$SRC"/*.c; do
		n=${tu##*/}
		n=hdr-${n%.c}
		mkdir -p "$work/$target/$n"
		cp "$tu" "$work/$target/$n/$n.c"
		echo "obj-m := $n.o" >"$work/$target/$n/Kbuild"
		objs+=("$n")
	done
	phase "$target: compile ${#objs[@]} headers alone"
	# The first through kbuild; the others with its command when it
	# built (and the command needs no make syntax), else through kbuild.
	first=${objs[0]}
	compile_one "$target" "$out" "$first"
	how=(compile_one)
	if [ "$(cat "$work/$target/$first/rc")" = 0 ] &&
		sed -n "s|^cmd_[^ ]*/$first\.o := ||p" "$work/$target/$first/.$first.o.cmd" >"$work/$target/cmd" &&
		[ -s "$work/$target/cmd" ] && ! grep -q '[$\\]' "$work/$target/cmd"; then
		how=(compile_like)
	fi
	printf '%s\n' "${objs[@]:1}" |
		xargs -P "$(nproc)" -I{} bash -c "${how[0]}"' "$@"' _ "$target" "$out" {} "$first"
	for n in "${objs[@]}"; do
		log=$LOGS/headers-$target-$n.log
		rc=$(cat "$work/$target/$n/rc" 2>/dev/null || echo 1)
		findings=$(grep -E 'warning:|error:' "$log" | sed "s|$work/$target/$n/||" | head -n 20)
		[ "$rc" = 0 ] || [ -n "$findings" ] || findings="make failed (see ${log#"$TOP"/})"
		judge "$target: $n.c" "$findings"
	done
done

echo "headers: $passed passed, $failed failed"
mkdir -p "$BUILD/results"
echo "$passed $failed 0" >"$BUILD/results/headers"
[ "$failed" = 0 ]
