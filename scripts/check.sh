#!/bin/bash
# make check: everything CI runs.  Each step records "passed failed
# skipped" in build/results/<step>; the last line sums them up.
#
#   scripts/check.sh [STEP...]    steps: series headers tools kunit x86_64
#                                 arm64-mte arm64-sw-tags arm64-mte-scs
#                                 arm64-sw-tags-scs (make check), and
#                                 those of make check-wide
#                                 (scripts/check-wide.sh), among them
#                                 bisect-TARGET (scripts/bisect-check.sh
#                                 TARGET: every prefix of the series)
#
# With BASELINE=1 the kunit and guest steps run against the unpatched base
# instead (make baseline): the series' own tests should fail or skip there.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

steps=("$@")
base= pfx= kind=patched
if [ -n "${BASELINE:-}" ]; then
	base=--baseline pfx=baseline- kind=baseline
	[ ${#steps[@]} -gt 0 ] || steps=(kunit x86_64 arm64-mte arm64-sw-tags)
fi
# A step named 7.3-STEP is STEP on the 7.3 line: this script runs it
# again with KMEMOBS_LINE=7.3 and takes its counts.
# With both lines, make check keeps within its budget of 50 minutes on a
# fresh 2-core machine (CI measured 3239 s on 2026-11-29 with arm64-mte
# and kunit in it) by leaving to make check-wide:
#  - arm64-mte (hardware tags under QEMU's MTE): arm64-sw-tags-scs runs
#    the same stack ring and report code under software tags, and series
#    still compiles arm64-mte's touched directories at W=1;
#  - kunit (UML): its stackdepot, alloc_tag and alloc_ctx suites also run
#    at the x86_64 guest's boot, stackdepot and alloc_tag in
#    arm64-sw-tags-scs too;
#  - arm64-mte-scs (the shadow call stack under hardware tags:
#    arm64-sw-tags-scs runs the same code under software tags),
#    arm64-sw-tags (arm64-sw-tags-scs is the same kernel with the shadow
#    call stack, and every suite it runs), 7.3-kunit (the 7.3 depot suite
#    it runs on UML also runs in both 7.3 guests) and kmsan-users (the
#    depot's KMSAN users compiled with clang; series compiles the others).
[ ${#steps[@]} -gt 0 ] || steps=(series headers tools x86_64 arm64-sw-tags-scs
	7.3-series 7.3-headers 7.3-x86_64 7.3-arm64-sw-tags)

phase "install packages"
# Every step together needs all three; one step alone may need less.
need=(x86_64)
[ "$LINE" = 6.1 ] || need+=(mainline)
for s in "${steps[@]}"; do
	case $s in
	7.3-*) continue ;;
	series) need+=(arm64) ;;
	# Mainline's tools/mm page_owner tools, run in the guest.
	x86_64) need+=(mainline) ;;
	kmsan-users) need+=(clang) ;;
	gdb) need+=(gdb) ;;
	sparc64-layout) need+=(sparc64) ;;
	soak-arm64*) need+=(arm64 soak-arm64) ;;
	soak-*) need+=(soak) ;;
	arm64-* | bisect-arm64-*) need+=(arm64) ;;
	esac
done
"$TOP/scripts/install-deps.sh" $(printf '%s\n' "${need[@]}" | sort -u) || die "install-deps failed"
only73=1
for s in "${steps[@]}"; do case $s in 7.3-*) ;; *) only73= ;; esac; done
if [ -z "$only73" ]; then
	phase "tree"
	"$TOP/scripts/tree.sh" --sync || die "could not set up ${TREE#"$TOP"/}"
fi

mkdir -p "$BUILD/results"
declare -A result
for step in "${steps[@]}"; do
	phase "step $step"
	# The results the step records: a guest step's main boot and its
	# extra boots (lib.sh, guest_extra_boots) add up.
	names=("$step")
	case $step in
	kunit) names=("${pfx}kunit-um") ;;
	kmsan-users) names=(users) ;;
	abi) names=(abi) ;;
	bisect-*) names=("$step") ;;
	*-defconfig*) names=("build-$step") ;;
	x86_64-distro) names=("guest-x86_64-defconfig") ;;
	soak-*) names=("guest-${step#soak-}-soak") ;;
	x86_64 | x86_64-slab | x86_64-kasan | x86_64-frames8 | arm64-*)
		names=("guest-$pfx$step")
		for tag in $(guest_extra_boots $kind "$step"); do
			names+=("guest-$pfx$step-$tag")
		done
		;;
	esac
	if [[ $step == 7.3-* ]]; then
		rm -f "$TOP/build/7.3/results/step-${step#7.3-}"
		KMEMOBS_LINE=7.3 "$0" "${step#7.3-}"
		read -r p f s <"$TOP/build/7.3/results/step-${step#7.3-}" 2>/dev/null || { p=0 f=1 s=0; }
		result[$step]="$p $f $s"
		continue
	fi
	for name in "${names[@]}"; do rm -f "$BUILD/results/$name"; done
	case $step in
	series) "$TOP/scripts/check-series.sh" ;;
	# The KMSAN users of the depot compile (clang).
	kmsan-users) "$TOP/scripts/check-series.sh" --users x86_64-kmsan ;;
	# 6.1's exports, names and CRCs, with profiling not configured.
	abi) "$TOP/scripts/check-abi.sh" ;;
	headers) "$TOP/scripts/check-headers.sh" ;;
	tools) "$TOP/scripts/check-tools.sh" ;;
	kunit) "$TOP/scripts/kunit.sh" $base ;;
	gdb) "$TOP/scripts/check-gdb.sh" ;;
	sparc64-layout) "$TOP/scripts/check-sparc64.sh" ;;
	# Every prefix of the series, posting by posting, builds.
	bisect-*) "$TOP/scripts/bisect-check.sh" "${step#bisect-}" ;;
	*-defconfig*) "$TOP/scripts/check-build.sh" "$step" ;;
	# The distro-like guest: the x86_64 defconfig kernel and its modules.
	x86_64-distro) "$TOP/scripts/test-guest.sh" x86_64-defconfig ;;
	# stress-ng with every interface read and switched beside it.
	soak-*) "$TOP/scripts/soak.sh" "${step#soak-}" ;;
	x86_64 | x86_64-slab | x86_64-kasan | x86_64-frames8 | arm64-*) "$TOP/scripts/test-guest.sh" $base "$step" ;;
	*) die "unknown step $step" ;;
	esac
	rc=$?
	for name in "${names[@]}"; do
		# The step died before it could count anything: one failure.
		[ -s "$BUILD/results/$name" ] || echo "0 1 0" >"$BUILD/results/$name"
	done
	read -r p f s < <(cd "$BUILD/results" && awk '{ p += $1; f += $2; s += $3 }
		END { print p, f, s }' "${names[@]}")
	if [ $rc != 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "$p 1 $s" >"$BUILD/results/${names[0]}"
	fi
	result[$step]="$p $f $s"
	echo "$p $f $s" >"$BUILD/results/step-$step"
done

P=0 F=0 S=0
echo
echo "== summary ($(($(date +%s) - _T0))s)"
for step in "${steps[@]}"; do
	read -r p f s <<<"${result[$step]}"
	printf '  %-23s %4d passed %3d failed %3d skipped\n' "$step" "$p" "$f" "$s"
	P=$((P + p)) F=$((F + f)) S=$((S + s))
done
echo "$P passed, $F failed, $S skipped"
[ "$F" = 0 ]
