#!/bin/sh
# Run the guest tests as one KTAP document: each tests/guest/NN-name.sh is
# a suite whose cases are indented result lines (see lib.sh).
# $1: comma separated names to run (empty: all).
only=$1
set -- /tests/guest/*.sh
sel=
for t in "$@"; do
	name=${t##*/}; name=${name%.sh}; name=${name#*-}
	if [ -n "$only" ]; then
		case ",$only," in *",$name,"*) ;; *) continue ;; esac
	fi
	sel="$sel $t"
done
n=0
for t in $sel; do n=$((n + 1)); done

echo "KTAP version 1"
echo "1..$n"
i=0
for t in $sel; do
	i=$((i + 1))
	name=${t##*/}; name=${name%.sh}; name=${name#*-}
	echo "    # Subtest: $name"
	if sh -c ". /tests/lib.sh; . $t; t_end" 2>&1; then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
	fi
done
