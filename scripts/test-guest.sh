#!/bin/bash
# Build a target, boot it with the guest tests and judge the console log.
# Some targets' kernels then boot again with other options (lib.sh,
# guest_extra_boots), each judged into its own verdict.
#
#   scripts/test-guest.sh [--baseline | --kind KIND] TARGET
# (--kind: the tree build/KIND/linux, e.g. a mutation of the series.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base= kind=patched
case ${1:-} in
--baseline) base=--baseline kind=baseline; shift ;;
--kind) base="--kind $2" kind=$2; shift 2 ;;
esac
target=$1
name=guest-$(kind_name $kind "$target")

# Cases that fail by chance, not by a bug.  Under tag-based KASAN these
# 6.1 cases access memory just past their allocation, which belongs to a
# neighbour carrying its own random tag: pagealloc_oob_right reads the next
# page, ksize_unpoisons_memory and kmalloc_oob_right (its last access) the
# next kmalloc-128 object.  About one time in 15 with hardware tags (MTE's
# 4-bit tags, less the reserved ones; one in 254 with software tags) the
# neighbour's tag is the test's own and no fault occurs; the suite does not
# retry.  kmalloc_node_oob_right reads the first byte of the next
# kmalloc-4k object, on 7.3 as on 6.1.  A run whose only failures are such
# cases (and the base's own, BASE_FAILURES below) boots again with fresh
# random tags (see CHANCE_BOOTS below); a real regression fails every boot.
PROBABILISTIC="kasan.pagealloc_oob_right kasan.ksize_unpoisons_memory kasan.kmalloc_oob_right kasan.kmalloc_node_oob_right"

# Cases of the base itself that fail with this machine's compiler, on the
# unpatched base as on the patched tree (make baseline shows it): counted
# as skipped, each named, when they are a run's only failures.  On 7.3
# with GCC 12 and software tags, kasan_strings expects a report from
# strscpy() reading past a granule and gets none; under QEMU's MTE,
# vmalloc_oob expects one from a read just past a vmalloc() area and gets
# none.
BASE_FAILURES=
[ "$LINE" = 7.3 ] && case $target in
	arm64-sw-tags*) BASE_FAILURES="kasan.kasan_strings" ;;
	arm64-mte*) BASE_FAILURES="kasan.vmalloc_oob" ;;
	esac

# Concurrency tests need both vCPUs really brought up.
args=(--need-done --expect 'smp: Brought up 1 node, 2 CPUs')
# The 6.1 line's depot suite misuses the depot without a warning
# (stack_depot_test_quiet()): any depot warning there fails the boot.
[ "$LINE" = 7.3 ] && args+=(--allow-warning "$DEPOT_WARNINGS")
# KASAN's KUnit suite and the stack ring guest test provoke reports on
# purpose.
case $target in
arm64-*) args+=(--expect-reports kasan --expect-reports kasan-stack-ring) ;;
esac

# judge NAME: judge the console log of the boot NAME (parse-log.py) into
# its verdict, build/logs/NAME.verdict; fails when the boot failed.
# Further arguments go to parse-log.py (such as --expect LINE).
judge() {
	python3 "$TOP/scripts/parse-log.py" "$LOGS/$1.log" --name "$1" --results "$BUILD/results" \
		"${args[@]}" "${@:2}" >"$LOGS/$1.verdict"
}

"$TOP/scripts/build-kernel.sh" $base "$target"
# The guest tests' own modules (tests/modules), in /lib/modules.
files=()
mod=$BUILD/out/modules-$(kind_name $kind "$target")
compgen -G "$GUEST_MODULES/*.c" >/dev/null &&
	build_modules $kind "$target" "$GUEST_MODULES" "$mod"
for ko in "$mod"/*.ko; do
	[ -e "$ko" ] && files+=(--file "$ko:/lib/modules/${ko##*/}")
done
# A module built against the unpatched 6.1 tree prepared with the same
# configuration (tests/modules61), in /lib/modules/61: 56-modules61.sh
# loads it into the patched kernel.
if [ "$LINE" = 6.1 ] && [ "$kind" = patched ] && [ "$target" = x86_64 ]; then
	mod61=$BUILD/out/modules61-$target
	# The patched kernel's release string ("6.1.192+": a tree with commits
	# after its tag gets a "+"), as a vendor's module for its kernel has,
	# or the module's vermagic would not match.
	rel=$(cat "$(out_dir patched "$target")/include/config/kernel.release")
	ver=$(make -s -C "$(tree_dir baseline)" kernelversion)
	"$TOP/scripts/build-kernel.sh" --baseline "$target" modules_prepare \
		LOCALVERSION="${rel#"$ver"}" >/dev/null &&
		build_modules baseline "$target" "$TOP/tests/modules61" "$mod61" ||
		die "tests/modules61 does not build against the unpatched tree"
	for ko in "$mod61"/*.ko; do
		files+=(--file "$ko:/lib/modules/61/${ko##*/}")
	done
fi
# A defconfig kernel's own modules, in /lib/modules/real (the distro-like
# guest: tests/guest/60-real-modules.sh loads and unloads them).
case $target in
*-defconfig*)
	modroot=$(out_dir $kind "$target")/modroot
	rm -rf "$modroot"
	run_logged "$LOGS/modules-install-$(kind_name $kind "$target").log" \
		"$TOP/scripts/build-kernel.sh" $base "$target" \
		modules_install INSTALL_MOD_PATH="$modroot" INSTALL_MOD_STRIP=1
	while IFS= read -r ko; do
		files+=(--file "$ko:/lib/modules/real/${ko##*/}")
	done < <(find "$modroot" -name '*.ko' | sort)
	;;
esac
# The 8-frame depot: its own suites only (page_owner's 16-frame stacks,
# which other suites look into, are cut at 8).
only=()
[ "$target" = x86_64-frames8 ] && only=(--tests boot,stackdepot)
"$TOP/scripts/run-guest.sh" $base ${only[@]+"${only[@]}"} ${files[@]+"${files[@]}"} "$target"
verdict=$LOGS/$name.verdict
rc=0
judge "$name" || rc=$?
# chance_failures VERDICT: the failed cases of VERDICT that are in
# PROBABILISTIC, on one line, if every other one is in BASE_FAILURES;
# fails if any is in neither (or if the boot itself failed).
chance_failures() {
	local c out=
	grep -q 'FAIL:' "$1" && return 1
	for c in $(sed -n 's/^  FAIL \([^ ]*\) .*/\1/p' "$1"); do
		case " $BASE_FAILURES " in *" $c "*) continue ;; esac
		case " $PROBABILISTIC " in *" $c "*) out+="$c " ;; *) return 1 ;; esac
	done
	echo "$out"
}
# Cases that failed by chance in the last boot and passed in an earlier
# one: neither the base's failures nor new ones.
resolved=
# A case that fails by chance passes if it passed in any of up to
# CHANCE_BOOTS boots: the others boot again while every case that failed
# failed by chance and some failed in every boot so far.  A case failing
# three boots in a row by chance: about one time in 3400 with MTE.
CHANCE_BOOTS=3
if [ $rc != 0 ] && pending=$(chance_failures "$verdict") && [ -n "$pending" ]; then
	boot=1
	while :; do
		cat "$verdict"
		cp "$LOGS/$name.log" "$LOGS/$name.boot$boot.log"
		[ $boot -lt $CHANCE_BOOTS ] || break
		boot=$((boot + 1))
		echo "$name: only cases that fail by chance failed (${pending% }; see test-guest.sh): boot $boot of at most $CHANCE_BOOTS (earlier logs: $name.boot*.log)"
		"$TOP/scripts/run-guest.sh" $base ${only[@]+"${only[@]}"} ${files[@]+"${files[@]}"} "$target"
		rc=0
		judge "$name" || rc=$?
		[ $rc = 0 ] && { pending=; break; }
		now=$(chance_failures "$verdict") || { pending=; break; }
		# Still pending: the cases that failed in every boot so far.
		pending=$(comm -12 <(tr ' ' '\n' <<<"$pending" | sort) <(tr ' ' '\n' <<<"$now" | sort) | xargs)
		if [ -z "$pending" ]; then
			# Each case that failed by chance passed in another
			# boot: count the last boot's such failures as passes
			# (the base's own stay for the check below).
			n=$(wc -w <<<"$now")
			read -r p f s <"$BUILD/results/$name"
			echo "$((p + n)) $((f - n)) $s" >"$BUILD/results/$name"
			[ "$n" = 0 ] || echo "$name: each case that failed by chance here (${now% }) passed in an earlier boot: passed" >>"$verdict"
			resolved=$now
			[ $((f - n)) = 0 ] && rc=0
			break
		fi
		pending+=" "
	done
fi
# The base's own failures (BASE_FAILURES above).
if [ $rc != 0 ] && [ -n "$BASE_FAILURES" ] && ! grep -q 'FAIL:' "$verdict"; then
	known=0
	for c in $(sed -n 's/^  FAIL \([^ ]*\) .*/\1/p' "$verdict"); do
		case " $resolved " in *" $c "*) continue ;; esac
		case " $BASE_FAILURES " in *" $c "*) known=$((known + 1)) ;; *) known=-1; break ;; esac
	done
	if [ "$known" -gt 0 ]; then
		read -r p f s <"$BUILD/results/$name"
		echo "$p $((f - known)) $((s + known))" >"$BUILD/results/$name"
		echo "$name: the only failures are the base's own with this compiler ($BASE_FAILURES; see test-guest.sh): counted as skipped" >>"$verdict"
		[ $((f - known)) = 0 ] && rc=0
	fi
fi
cat "$verdict"

# The same kernel booted again with other options, judged the same way
# (see guest_extra_boots); a failure there fails the target too.
for tag in $(guest_extra_boots $kind "$target"); do
	expect=()
	case $tag in
	# Memory allocation profiling off: /proc/allocations says so and
	# counts nothing.
	nomem) extra=(--append nomem_profiling --tests alloc-profiling,alloc-ctx) ;;
	# Gigantic pages: QEMU's default CPU has no 1 GiB pages, and two of
	# them need more than the usual 1 GiB (the later -m wins).
	hugetlb) extra=(--qemu "-cpu qemu64,+pdpe1gb -m 7G" --append "hugepagesz=1G hugepages=2"
		--tests hugetlb) ;;
	# alloc_tag_init() fails (interval 1, probability 100%, once):
	# profiling off, later modules uncharged.  Only the alloc_tag KUnit
	# suite (its cases skip): alloc_tag_off expects no early slab to have
	# a vector, and here the early ones do.
	# stack_depot_max_size= after the main boot's stack_depot_max_pools=
	# (the stackdepot suite checks the later one counts).
	failinit) extra=(--append "fail_alloc_tag_init=1,100,0,1 kunit.filter_glob=alloc_tag stack_depot_max_size=24M"
		--tests alloc-profiling,stackdepot) ;;
	# vm.mem_profiling=0 and back at each SLUB entry point (KUnit
	# alloc_tag.test_paused): pausing ends the debug checks for
	# untagged memory until the next boot, so it runs alone.
	# Its four cases must have run, not skipped.
	# The 6.1 line's depot at 64 pools (1 MiB), filled by the KUnit
	# suite of tests/modules/stackdepot_cap_test.c: only the guest test
	# that loads it runs, no built-in suite.
	depotcap) extra=(--append "stack_depot_max_pools=64 kunit.filter_glob=none" --tests boot,depot-cap) ;;
	# The 7.3 line's depot at a 1 MiB bound, filled by a module.
	full) extra=(--append "stack_depot_max_size=1M kunit.filter_glob=none" --tests boot,depot-full) ;;
	# The 7.3 line's pages' tags in the page flags instead of page_ext,
	# under profiling's debug checks, with SLUB's suite.
	compressed) extra=(--append "sysctl.vm.mem_profiling=1,compressed kunit.filter_glob=slub_test"
		--tests boot,alloc-profiling) ;;
	# Mainline's boot option: the last valid one wins (paused from
	# boot), a bad one is refused (tests/guest/50-alloc-profiling.sh).
	bootopt) extra=(--append "sysctl.vm.mem_profiling=2 nomem_profiling sysctl.vm.mem_profiling=0,compressed kunit.filter_glob=none"
		--tests alloc-profiling) ;;
	paused) extra=(--append "alloc_tag_test.pause=1 kunit.filter_glob=alloc_tag.test_paused"
		--tests none)
		expect=(--expect '# test_paused: pass:4 fail:0 skip:0 total:4') ;;
	esac
	phase "$name-$tag: the same kernel again, ${extra[*]}"
	GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" $base "${extra[@]}" ${files[@]+"${files[@]}"} "$target"
	judge "$name-$tag" ${expect[@]+"${expect[@]}"} || rc=1
	cat "$LOGS/$name-$tag.verdict"
done
exit $rc
